/**
 * The Cua engine: Cua Driver (0.34) as a second engine, over MCP on a `cua-driver mcp`
 * child kept alive by {@link CuaSupervisor}. Its ops follow the tools that child lists.
 *
 * Cua sends no change notifications (`notifies: false`, `subscribe` rejects): the live map
 * reads its windows as degraded ones, on first sight, `fresh: true` and the degraded timer.
 * A read Cua calls degraded is still answered, with the reason in `degradedReason`.
 *
 * @module
 */
import type { ActionName } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import type {
  ActOutcome,
  AppInfo,
  Availability,
  Capture,
  Engine,
  EngineEvent,
  EngineStats,
  NodeRequest,
  PixelInput,
  RawNode,
  ReadBudget,
} from "../../model/engine.ts";
import {
  type ActOptions,
  type InputGate,
  refuseAimedKeys,
  refuseOptions,
} from "../../model/engine.ts";
import { actionCall, outcomeOf } from "./act.ts";
import { captureVia } from "./capture.ts";
import { inputCalls } from "./input.ts";
import { type CuaCommand, type Env, locateCuaDriver } from "./locate.ts";
import { deriveOps } from "./ops.ts";
import { type CuaStatus, CuaSupervisor } from "./supervisor.ts";
import { ListWindowsAnswer, parseAnswer, TOOL, WindowStateAnswer } from "./tools.ts";
import {
  buildTree,
  CUA_DEGRADED_MAX_ELEMENTS,
  type CuaTree,
  type CuaWindowTree,
  findAgain,
  readFacts,
} from "./tree.ts";
import { appsFrom, type CuaWindow, isStaleWindow, ReadHistory } from "./windows.ts";

/** Engine settings. */
export interface CuaOptions {
  /** How to start Cua; undefined: not installed (the engine then says so). */
  command?: CuaCommand;
  /** Deadline of each tool call (reads are one call each). Default 10 s. */
  callTimeoutMs?: number;
  /** Spawn + initialize + list tools. Default 15 s. */
  startTimeoutMs?: number;
  /** Waits between restarts (tests shorten them). */
  backoffMs?: readonly number[];
}

/** Cua Driver over MCP. */
export class CuaEngine implements Engine {
  readonly name = "cua";
  /** Cua is polled: the live map keeps its windows degraded and reads them on the timer. */
  readonly notifies = false;
  readonly #sup: CuaSupervisor | undefined;
  readonly #callTimeoutMs: number;
  readonly #startTimeoutMs: number;
  readonly #windows = new Map<string, CuaWindow>();
  readonly #reads = new ReadHistory();
  #tools: ReadonlySet<string> = new Set();
  #ops: readonly string[] = [];
  #seq = 0;
  #walks = 0;

  /** Nothing is spawned until the first call (or {@link availability}). */
  constructor(options: CuaOptions = {}) {
    this.#callTimeoutMs = options.callTimeoutMs ?? 10_000;
    this.#startTimeoutMs = options.startTimeoutMs ?? 15_000;
    if (options.command) {
      this.#sup = new CuaSupervisor(options.command, {
        startTimeoutMs: this.#startTimeoutMs,
        ...(options.backoffMs ? { backoffMs: options.backoffMs } : {}),
      });
      this.#sup.onSession((s) => {
        this.#tools = s.tools;
        this.#ops = deriveOps(s.tools);
      });
    }
  }

  /** An engine for the `cua-driver` that `ALLTERNIT_CUA_DRIVER` or `PATH` names. */
  static fromEnvironment(env?: Env, options: Omit<CuaOptions, "command"> = {}): CuaEngine {
    const command = locateCuaDriver(env);
    return new CuaEngine({ ...options, ...(command ? { command } : {}) });
  }

  /** Ops the running Cua serves (empty before its tools were listed). */
  get ops(): readonly string[] {
    return this.#ops;
  }

  /** Tools the running Cua listed. */
  get tools(): ReadonlySet<string> {
    return this.#tools;
  }

  /** The supervisor's state, restarts and the child's pid (tests, `hello`). */
  status(): CuaStatus {
    return this.#sup?.status() ??
      { state: "not_found", restarts: 0, reason: "cua_driver_not_found" };
  }

  async availability(): Promise<Availability> {
    const s = this.#sup;
    if (!s) return { available: false, reason: "cua_driver_not_found" };
    // Only the first attempt is waited for: a Cua that keeps failing is retried behind.
    if (s.state === "idle") await s.firstAttempt();
    if (s.state === "ready") return { available: true };
    return { available: false, reason: s.reason ?? `cua_${s.state}` };
  }

  /** Calls `tool` on the running Cua, under the caller's deadline and the engine's timeout. */
  async #call(tool: string, args: Record<string, unknown>, signal: AbortSignal) {
    if (!this.#sup) {
      throw new DriverError("driver_unavailable", "Cua Driver is not installed", {
        reason: "cua_driver_not_found",
      });
    }
    const session = await this.#sup.session(signal, this.#startTimeoutMs);
    return await session.call(tool, args, { signal, timeoutMs: this.#callTimeoutMs });
  }

  /** A call about one window: Cua's refusal of a closed one is `window_not_found`. */
  async #onWindow(
    window: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ) {
    try {
      return await this.#call(tool, args, signal);
    } catch (err) {
      if (!isStaleWindow(err)) throw err;
      this.#windows.delete(window);
      this.#reads.retain(this.#windows);
      throw new DriverError("window_not_found", `Window "${window}" is gone`, { version: 0 }, {
        cause: err,
      });
    }
  }

  async listApps(signal: AbortSignal): Promise<AppInfo[]> {
    const result = await this.#call(TOOL.listWindows, { on_screen_only: true }, signal);
    const answer = parseAnswer(TOOL.listWindows, ListWindowsAnswer, result.structuredContent);
    this.#windows.clear();
    const apps = appsFrom(answer.windows, this.#windows);
    this.#reads.retain(this.#windows);
    return apps;
  }

  async #window(id: string, signal: AbortSignal): Promise<CuaWindow> {
    if (!this.#windows.has(id)) await this.listApps(signal);
    const w = this.#windows.get(id);
    if (!w) throw new DriverError("window_not_found", `No window "${id}"`, { version: 0 });
    return w;
  }

  async #read(
    window: string,
    budget: ReadBudget,
  ): Promise<{ tree: CuaTree; truncated: boolean; why?: string }> {
    const w = await this.#window(window, budget.signal);
    const result = await this.#onWindow(window, TOOL.getWindowState, {
      pid: w.pid,
      window_id: w.windowId,
      include_screenshot: false,
      max_elements: budget.maxElements,
    }, budget.signal);
    const answer = parseAnswer(TOOL.getWindowState, WindowStateAnswer, result.structuredContent);
    const seq = ++this.#seq;
    const tree = buildTree(answer, w, seq, this.#tools);
    this.#reads.record(window, seq, tree.addresses);
    return { tree, ...readFacts(answer, budget.maxElements) };
  }

  async readWindow(window: string, budget: ReadBudget): Promise<CuaWindowTree> {
    const started = performance.now();
    this.#walks++;
    const { tree, truncated, why } = await this.#read(window, budget);
    return {
      root: tree.root,
      nodes: tree.nodes,
      ms: performance.now() - started,
      truncated,
      ...(why !== undefined ? { degradedReason: why } : {}),
    };
  }

  /** Cua reads whole windows only: one read, then each requested node found by its key. */
  async readNodes(
    window: string,
    requests: readonly NodeRequest[],
    budget: ReadBudget,
  ): Promise<Map<string, RawNode | null>> {
    const keyed = requests.map((r) => ({ ...r, key: this.#reads.keyOf(window, r.handle) }));
    const { tree } = await this.#read(window, budget);
    return findAgain(tree.root, keyed);
  }

  async childCount(window: string, signal: AbortSignal): Promise<number> {
    const { tree } = await this.#read(window, { maxElements: CUA_DEGRADED_MAX_ELEMENTS, signal });
    return tree.root.children.length;
  }

  /** Cua's answers carry no focus: there is no focused element to compare. */
  focusedHandle(_window: string, _signal: AbortSignal): Promise<string | null> {
    return Promise.resolve(null);
  }

  async act(
    window: string,
    node: RawNode,
    action: ActionName,
    value: string | undefined,
    signal: AbortSignal,
    _gate?: InputGate,
    options?: ActOptions,
  ): Promise<ActOutcome> {
    refuseOptions(this.name, node, options);
    const w = await this.#window(window, signal);
    const call = actionCall(w, this.#reads.address(window, node.handle), node, action, value);
    return outcomeOf(call.tool, await this.#onWindow(window, call.tool, call.args, signal));
  }

  async input(input: PixelInput, signal: AbortSignal, window?: string): Promise<void> {
    refuseAimedKeys(this.name, input, window);
    for (const { tool, args } of inputCalls(input)) await this.#call(tool, args, signal);
  }

  async capture(window: string | undefined, signal: AbortSignal): Promise<Capture> {
    if (window === undefined) {
      return await captureVia((t, a) => this.#call(t, a, signal), undefined);
    }
    const w = await this.#window(window, signal);
    return await captureVia((t, a) => this.#onWindow(window, t, a, signal), w);
  }

  /** Cua has no change notifications: the live map reads its windows on the degraded timer. */
  subscribe(_listener: (event: EngineEvent) => void): Promise<() => Promise<void>> {
    return Promise.reject(
      new DriverError("driver_unavailable", "Cua Driver sends no change notifications", {
        reason: "no_notifications",
      }),
    );
  }

  stats(): EngineStats {
    return { calls: this.#sup?.calls ?? 0, walks: this.#walks };
  }

  async close(): Promise<void> {
    await this.#sup?.close();
  }
}
