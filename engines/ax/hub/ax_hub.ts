/**
 * The AXHub (design document, "Live element map"): one AXObserver per watched app, all on
 * one run-loop thread (`hub_worker.ts`, a dedicated worker pumping `CFRunLoopRunInMode`),
 * sleeping until an app posts. This side starts the worker, sends it watch commands,
 * wakes its run loop so commands are taken at once, and hands each batch of coalesced
 * notifications to listeners on the main thread.
 *
 * ```ts
 * const hub = new AxHub();
 * await hub.start(); // driver_unavailable when the worker can't run observers
 * const off = hub.onEvent((e) => counters.bump(e.pid, e.kind));
 * hub.watch(pid);
 * ```
 *
 * @module
 */
import type { EngineEvent } from "../../../model/engine.ts";
import { loadCoreFoundation } from "../../../ffi/macos/load.ts";
import { DriverError } from "../../../protocol/errors.ts";
import { log } from "../../../util/log.ts";
import type { HubCommand, HubReport } from "./hub_messages.ts";
import { kindOf } from "./notifications.ts";

/** One notification (or a coalesced run of them) as listeners get it. */
export interface HubEvent {
  /** Posting app. */
  pid: number;
  /** Coarse kind for the live map. */
  kind: EngineEvent["kind"];
  /** AX notification name; `""` for posts the hub had to drop in a burst. */
  note: string;
  /** Element handle (`<pid>:<CFHash hex>`), when the notification named one. */
  handle?: string;
  /** Posts represented. */
  count: number;
}

/** Options of an {@link AxHub}. */
export interface AxHubOptions {
  /** The worker module (tests may point elsewhere). */
  workerUrl?: URL;
  /** How long to wait for the worker to be ready. */
  startTimeoutMs?: number;
  /** Interrupts the worker's pump; default `CFRunLoopStop` on its run loop. */
  stopRunLoop?: (runLoop: bigint) => void;
}

const STOP_WAIT_MS = 2_000;

/** The run-loop thread's main-side handle. */
export class AxHub {
  readonly #url: URL;
  readonly #startTimeoutMs: number;
  readonly #stopRunLoop: (runLoop: bigint) => void;
  readonly #listeners = new Set<(e: HubEvent) => void>();
  readonly #watched = new Set<number>();
  readonly #failures = new Map<number, string>();
  #worker: Worker | undefined;
  #runLoop: bigint | undefined;
  #started: Promise<void> | undefined;
  #stopped: (() => void) | undefined;
  #closed = false;
  /** Notifications delivered so far (coalesced posts counted one by one). */
  notifications = 0;

  /** Nothing starts until {@link start}. */
  constructor(options: AxHubOptions = {}) {
    this.#url = options.workerUrl ?? new URL("./hub_worker.ts", import.meta.url);
    this.#startTimeoutMs = options.startTimeoutMs ?? 15_000;
    this.#stopRunLoop = options.stopRunLoop ?? ((addr) => {
      const p = Deno.UnsafePointer.create(addr);
      if (p !== null) loadCoreFoundation().CFRunLoopStop(p);
    });
  }

  /**
   * Starts the worker once and waits until its run loop is ready.
   *
   * @throws {DriverError} `driver_unavailable` (the worker's reason, e.g. `wrong_os`, or
   *   `no_notifications`) when observers can't run.
   */
  start(): Promise<void> {
    this.#started ??= new Promise<void>((resolve, reject) => {
      const worker = new Worker(this.#url.href, { type: "module" });
      this.#worker = worker;
      const fail = (message: string, reason: string) => {
        clearTimeout(timer);
        worker.terminate();
        reject(new DriverError("driver_unavailable", `Cannot watch apps: ${message}`, { reason }));
      };
      const timer = setTimeout(
        () =>
          fail(
            `the run-loop worker was not ready in ${this.#startTimeoutMs} ms`,
            "no_notifications",
          ),
        this.#startTimeoutMs,
      );
      worker.onerror = (e) => {
        e.preventDefault();
        fail(e.message, "no_notifications");
      };
      worker.onmessage = (e: MessageEvent<HubReport>) => {
        const r = e.data;
        if (r.type === "ready") {
          clearTimeout(timer);
          this.#runLoop = r.runLoop;
          // Apps asked for before the worker was up.
          for (const pid of this.#watched) worker.postMessage({ type: "watch", pid });
          resolve();
        } else if (r.type === "error") {
          fail(r.message, r.reason);
        } else {
          this.#onReport(r);
        }
      };
    });
    return this.#started;
  }

  /** Listens to notifications; returns the function that stops listening. */
  onEvent(listener: (e: HubEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Observes `pid` (idempotent; a failure is logged and kept for {@link failure}). */
  watch(pid: number): void {
    if (this.#watched.has(pid)) return;
    this.#watched.add(pid);
    this.#failures.delete(pid);
    this.#send({ type: "watch", pid });
  }

  /** Stops observing `pid` (an app that quit). */
  unwatch(pid: number): void {
    if (!this.#watched.delete(pid)) return;
    this.#send({ type: "unwatch", pid });
  }

  /** Subscribes a web area; `element` is an address retained once for the worker. */
  watchWebArea(pid: number, element: bigint): void {
    this.#watched.add(pid);
    this.#send({ type: "watch_web", pid, element });
  }

  /** Apps being observed. */
  get watched(): ReadonlySet<number> {
    return this.#watched;
  }

  /** Why observing `pid` failed, if it did. */
  failure(pid: number): string | undefined {
    return this.#failures.get(pid);
  }

  #send(cmd: HubCommand): void {
    if (!this.#worker || this.#closed) return;
    this.#worker.postMessage(cmd);
    // Cuts the current pump short so the worker reads the command now.
    if (this.#runLoop !== undefined) this.#stopRunLoop(this.#runLoop);
  }

  #onReport(r: Exclude<HubReport, { type: "ready" } | { type: "error" }>): void {
    switch (r.type) {
      case "events":
        for (const n of r.events) {
          const e: HubEvent = { pid: n.pid, kind: kindOf(n.note), note: n.note, count: n.count };
          if (n.handle !== undefined) e.handle = n.handle;
          this.#emit(e);
        }
        // Posts lost in a burst still say "something changed" for their app.
        for (const [pid, count] of r.dropped) {
          this.#emit({ pid, kind: "structure", note: "", count });
        }
        if (r.faults > 0) log("warn", "AX notifications could not be decoded", { count: r.faults });
        break;
      case "watching":
        if (r.unsupported.length > 0) {
          log("info", "app refused some notifications", { pid: r.pid, refused: r.unsupported });
        }
        break;
      case "watch_failed":
        this.#failures.set(r.pid, r.message);
        this.#watched.delete(r.pid);
        log("warn", "cannot observe app", { pid: r.pid, error: r.message });
        break;
      case "stopped":
        this.#stopped?.();
        break;
    }
  }

  #emit(e: HubEvent): void {
    this.notifications += e.count;
    for (const listener of this.#listeners) {
      try {
        listener(e);
      } catch (err) {
        log("error", "hub listener threw", { error: String(err) });
      }
    }
  }

  /** Stops the worker, which unregisters and releases every observer; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    const worker = this.#worker;
    const ready = this.#runLoop !== undefined;
    this.#send({ type: "stop" });
    this.#closed = true;
    if (worker && ready) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#stopped = resolve;
        timer = setTimeout(resolve, STOP_WAIT_MS);
      });
      clearTimeout(timer);
    }
    worker?.terminate();
    this.#listeners.clear();
  }
}
