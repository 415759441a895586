/**
 * The AXHub's run-loop thread: a dedicated Deno worker that owns every AXObserver and
 * pumps its CFRunLoop with `CFRunLoopRunInMode`. Observer callbacks run inside that call,
 * on this thread, and only queue; after each pump the queue is posted to the main thread
 * in one message. With no app watched the worker sleeps on its message port instead of
 * pumping (a run loop with no sources returns at once). The main side calls
 * `CFRunLoopStop` on this run loop after each command so a pump slice never delays one.
 *
 * Started by `ax_hub.ts`; not imported by anything else.
 *
 * @module
 */
import { loadApplicationServices, loadCoreFoundation } from "../../../ffi/macos/load.ts";
import { DriverError } from "../../../protocol/errors.ts";
import { type HubCommand, type HubReport, NotificationQueue } from "./hub_messages.ts";
import { APP_NOTIFICATIONS } from "./notifications.ts";
import { Observers } from "./observers.ts";

/** Longest single pump (s): bounds how long a stop request can wait. */
const PUMP_SECONDS = 0.5;

/** The worker global, narrowed to what this file uses (checked with the window lib). */
interface WorkerScope {
  postMessage(message: HubReport): void;
  onmessage: ((e: MessageEvent<HubCommand>) => void) | null;
  close(): void;
}
const scope = globalThis as unknown as WorkerScope;

function report(message: HubReport): void {
  scope.postMessage(message);
}

async function run(): Promise<void> {
  const cf = loadCoreFoundation();
  const ax = loadApplicationServices();
  const queue = new NotificationQueue();
  const observers = new Observers(cf, ax, queue);
  const inbox: HubCommand[] = [];
  let wake: (() => void) | undefined;
  let stopping = false;
  scope.onmessage = (e) => {
    inbox.push(e.data);
    wake?.();
  };
  report({ type: "ready", runLoop: observers.runLoopAddress });
  const flush = () => {
    if (queue.size === 0) return;
    report({ type: "events", ...queue.drain() });
  };
  try {
    while (!stopping) {
      for (const cmd of inbox.splice(0)) {
        if (cmd.type === "stop") {
          stopping = true;
          break;
        }
        handle(observers, cmd);
      }
      if (stopping) break;
      if (observers.size === 0) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        continue;
      }
      // Returns after one source was handled, a stop from the main side, or the slice.
      cf.CFRunLoopRunInMode(observers.mode, PUMP_SECONDS, 1);
      flush();
      // Lets queued commands in before the next pump.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  } finally {
    flush();
    observers.close();
    report({ type: "stopped" });
  }
}

function handle(observers: Observers, cmd: Exclude<HubCommand, { type: "stop" }>): void {
  try {
    switch (cmd.type) {
      case "watch": {
        const unsupported = observers.watch(cmd.pid);
        const notifications = APP_NOTIFICATIONS.length - unsupported.length;
        report({ type: "watching", pid: cmd.pid, notifications, unsupported });
        break;
      }
      case "unwatch":
        observers.unwatch(cmd.pid);
        break;
      case "watch_web": {
        const element = Deno.UnsafePointer.create(cmd.element);
        if (element !== null) observers.watchWebArea(cmd.pid, element);
        break;
      }
    }
  } catch (err) {
    const pid = cmd.pid;
    report({
      type: "watch_failed",
      pid,
      message: err instanceof Error ? err.message : String(err),
    });
  }
}

run().catch((err) => {
  const reason = err instanceof DriverError ? String(err.data.reason ?? err.code) : "internal";
  report({ type: "error", message: err instanceof Error ? err.message : String(err), reason });
  scope.close();
});
