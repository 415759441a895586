/**
 * The Windows engine: UI Automation for trees, element actions and change events, on one
 * dedicated COM worker (worker.ts, the process's one MTA thread for UIA); user32 for the
 * window list and input; GDI for pixels. Construction refuses off Windows with
 * `driver_unavailable` / `wrong_os`.
 *
 * @module
 */
import { assertWindows, loadWindows, type WindowsLibraries } from "../../ffi/windows/load.ts";
import { DPI_PER_MONITOR_AWARE_V2 } from "../../ffi/windows/user32.ts";
import type { ActionName } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import { log } from "../../util/log.ts";
import {
  type ActOutcome,
  type AppInfo,
  type Availability,
  type Capture,
  type Engine,
  type EngineEvent,
  type EngineStats,
  type InputGate,
  type NodeRequest,
  type PixelInput,
  type RawNode,
  type ReadBudget,
  ungated,
  type WindowTree,
} from "../../model/engine.ts";
import { type ActOptions, refuseAimedKeys, refuseOptions } from "../../model/engine.ts";
import { captureScreen, captureWindow } from "./capture.ts";
import { sendInput } from "./input.ts";
import { hwndOf } from "./naming.ts";
import { UIA_OPS } from "./ops.ts";
import { listApps } from "./windows.ts";
import { WorkerClient } from "./worker_client.ts";

/** Engine settings. */
export interface UiaOptions {
  /** UIA connection/transaction timeout when a read names none (ms). */
  appTimeoutMs?: number;
  /** Longest a bounded walk of a window too big for one call may take (ms). */
  walkBudgetMs?: number;
  /** The OS to assume (tests). */
  os?: typeof Deno.build.os;
}

/** How long the worker may take to join the MTA and create the automation object. */
const START_TIMEOUT_MS = 10_000;

/** UI Automation + user32 + GDI. */
export class UiaEngine implements Engine {
  readonly name = "uia";
  readonly ops: readonly string[] = UIA_OPS;
  readonly #libs: WindowsLibraries;
  readonly #timeoutMs: number;
  readonly #walkBudgetMs: number;
  #worker: Worker | undefined;
  #client: WorkerClient | undefined;
  #starting: Promise<WorkerClient> | undefined;
  #listener: ((e: EngineEvent) => void) | undefined;
  #walks = 0;
  #closed = false;

  /** Loads the Windows libraries; the COM worker starts on the first call. */
  constructor(options: UiaOptions = {}) {
    assertWindows(options.os);
    this.#libs = loadWindows(options.os);
    this.#timeoutMs = options.appTimeoutMs ?? 6_000;
    this.#walkBudgetMs = options.walkBudgetMs ?? 5_000;
    // UIA bounds, window rects, SendInput and capture then all speak physical pixels.
    this.#libs.user32.SetProcessDpiAwarenessContext?.(
      Deno.UnsafePointer.create(DPI_PER_MONITOR_AWARE_V2),
    );
  }

  async availability(): Promise<Availability> {
    try {
      const client = await this.#connect();
      // Wine's partial UIA: available, and the reason names each stand-in, so a user can
      // tell which path ran. Empty on Windows.
      const fallbacks = await client.call("fallbacks", {}, AbortSignal.timeout(START_TIMEOUT_MS));
      return fallbacks.length
        ? { available: true, reason: `uia_compat: ${fallbacks.join("; ")}` }
        : { available: true };
    } catch (err) {
      const reason = err instanceof DriverError
        ? String(err.data.reason ?? err.message)
        : String(err);
      return { available: false, reason };
    }
  }

  #connect(): Promise<WorkerClient> {
    if (this.#closed) {
      return Promise.reject(
        new DriverError("driver_unavailable", "The UIA engine is closed", { reason: "closed" }),
      );
    }
    if (this.#client) return Promise.resolve(this.#client);
    this.#starting ??= this.#start().finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  async #start(): Promise<WorkerClient> {
    const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
    const client = new WorkerClient(worker);
    client.onEvent = (e) => this.#listener?.(e);
    worker.onerror = (e) => {
      e.preventDefault();
      log("error", "UIA worker crashed; it restarts on the next call", { error: e.message });
      client.close("worker_crashed");
      worker.terminate();
      if (this.#client === client) this.#client = undefined;
    };
    try {
      await client.call("init", {}, AbortSignal.timeout(START_TIMEOUT_MS));
    } catch (err) {
      client.close();
      worker.terminate();
      throw err;
    }
    this.#worker = worker;
    this.#client = client;
    if (this.#listener) await client.call("subscribe", {}, AbortSignal.timeout(START_TIMEOUT_MS));
    return client;
  }

  #hwnd(window: string): string {
    const hwnd = hwndOf(window);
    if (hwnd === undefined || !this.#libs.user32.IsWindow(Deno.UnsafePointer.create(hwnd))) {
      throw new DriverError("window_not_found", `No window "${window}"`, { version: 0 });
    }
    return hwnd.toString(16);
  }

  listApps(signal: AbortSignal): Promise<AppInfo[]> {
    signal.throwIfAborted();
    return Promise.resolve(listApps(this.#libs));
  }

  async readWindow(window: string, budget: ReadBudget): Promise<WindowTree> {
    const started = performance.now();
    const hwnd = this.#hwnd(window);
    const client = await this.#connect();
    this.#walks++;
    const tree = await client.call("read", {
      window,
      hwnd,
      maxElements: budget.maxElements,
      timeoutMs: budget.callTimeoutMs ?? this.#timeoutMs,
      budgetMs: this.#walkBudgetMs,
    }, budget.signal);
    return { ...tree, ms: performance.now() - started };
  }

  async readNodes(
    window: string,
    requests: readonly NodeRequest[],
    budget: ReadBudget,
  ): Promise<Map<string, RawNode | null>> {
    const client = await this.#connect();
    const answers = await client.call("readNodes", {
      window,
      requests: [...requests],
      maxElements: budget.maxElements,
      timeoutMs: budget.callTimeoutMs ?? this.#timeoutMs,
    }, budget.signal);
    return new Map(answers);
  }

  async childCount(window: string, signal: AbortSignal): Promise<number> {
    const hwnd = this.#hwnd(window);
    const client = await this.#connect();
    return await client.call("childCount", { window, hwnd, timeoutMs: this.#timeoutMs }, signal);
  }

  async focusedHandle(_window: string, signal: AbortSignal): Promise<string | null> {
    const client = await this.#connect();
    return await client.call("focused", { timeoutMs: this.#timeoutMs }, signal);
  }

  async act(
    window: string,
    node: RawNode,
    action: ActionName,
    value: string | undefined,
    signal: AbortSignal,
    gate: InputGate = ungated,
    options?: ActOptions,
  ): Promise<ActOutcome> {
    refuseOptions(this.name, node, options);
    const hwnd = this.#hwnd(window);
    const client = await this.#connect();
    const reply = await client.call("act", {
      window,
      handle: node.handle,
      target: { name: node.name, role: node.role, actions: node.actions },
      action,
      ...(value !== undefined ? { value } : {}),
      timeoutMs: this.#timeoutMs,
    }, signal);
    if ("via" in reply) return reply;
    if ("keyboard" in reply) {
      // UIA focused the element; the keys go to the foreground window, so make it ours.
      await gate(async () => {
        this.#libs.user32.SetForegroundWindow(Deno.UnsafePointer.create(BigInt(`0x${hwnd}`)));
        await this.input({ kind: "type", text: reply.keyboard }, signal);
      });
      return { via: "action" };
    }
    const b = node.bounds;
    if (b.w <= 0 || b.h <= 0) {
      throw new DriverError(
        "action_not_supported",
        `Cannot ${action} "${
          node.name || node.role
        }": it offers no pattern and has no on-screen area`,
        { actions: node.actions },
      );
    }
    const x = Math.round(b.x + b.w / 2);
    const y = Math.round(b.y + b.h / 2);
    await gate(() => this.input({ kind: "click", x, y, button: reply.pixel, count: 1 }, signal));
    return { via: "pixel" };
  }

  async input(input: PixelInput, signal: AbortSignal, window?: string): Promise<void> {
    refuseAimedKeys(this.name, input, window);
    await sendInput(this.#libs.user32, input, signal);
  }

  capture(window: string | undefined, signal: AbortSignal): Promise<Capture> {
    signal.throwIfAborted();
    if (window === undefined) return Promise.resolve(captureScreen(this.#libs));
    return Promise.resolve(captureWindow(this.#libs, BigInt(`0x${this.#hwnd(window)}`)));
  }

  async subscribe(listener: (event: EngineEvent) => void): Promise<() => Promise<void>> {
    this.#listener = listener;
    const client = await this.#connect();
    await client.call("subscribe", {}, AbortSignal.timeout(START_TIMEOUT_MS));
    return async () => {
      this.#listener = undefined;
      await this.#client?.call("unsubscribe", {}, AbortSignal.timeout(START_TIMEOUT_MS));
    };
  }

  stats(): EngineStats {
    return { calls: this.#client?.calls ?? 0, walks: this.#walks };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#starting?.catch(() => {});
    const client = this.#client;
    try {
      // Removing UIA's handlers and leaving the MTA on the thread that joined it.
      await client?.call("close", {}, AbortSignal.timeout(START_TIMEOUT_MS));
    } catch (err) {
      log("warn", "UIA worker did not close cleanly", { error: String(err) });
    } finally {
      client?.close();
      this.#worker?.terminate();
      this.#client = undefined;
      this.#worker = undefined;
    }
  }
}
