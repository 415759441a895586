/**
 * Scripted engines for the driver's unit tests (never a stand-in for a real engine in
 * integration tests): a name and ops you choose, apps with windows whose trees you set,
 * counters of what was asked (walks, acts, input), failures on demand, and a way to post
 * notifications as the app would.
 *
 * @module
 */
import type { EngineEntry } from "../engines/registry.ts";
import type {
  ActOutcome,
  AppInfo,
  AppLiveState,
  Availability,
  Capture,
  Engine,
  EngineEvent,
  EngineStats,
  NodeRequest,
  PixelInput,
  RawNode,
  ReadBudget,
  WindowTree,
} from "../model/engine.ts";
import type { ActionName } from "../protocol/element.ts";
import { DriverError } from "../protocol/errors.ts";

/** A pressable, named leaf. */
export function button(handle: string, name = handle, x = 0): RawNode {
  return {
    handle,
    role: "AXButton",
    name,
    bounds: { x, y: 40, w: 60, h: 20 },
    enabled: true,
    focused: false,
    actions: ["press"],
    children: [],
  };
}

/** A window node with `children`. */
export function windowNode(handle: string, title: string, children: RawNode[] = []): RawNode {
  return {
    handle,
    role: "AXWindow",
    name: title,
    bounds: { x: 0, y: 0, w: 400, h: 300 },
    enabled: true,
    focused: true,
    actions: [],
    children,
  };
}

/** A blank leaf (no name, value or action) covering the whole window: a canvas. */
export function canvas(handle: string): RawNode {
  return {
    handle,
    role: "AXGroup",
    name: "",
    bounds: { x: 0, y: 0, w: 400, h: 300 },
    enabled: true,
    focused: false,
    actions: [],
    children: [],
  };
}

/** One window of a scripted app. */
export interface ScriptedWindow {
  /** Window id. */
  window: string;
  /** Active window. */
  focused?: boolean;
  /** What the window shows now; edit it, then post a notification. */
  tree: RawNode;
}

/** A scripted app. */
export interface ScriptedApp {
  /** Engine app id. */
  app: string;
  /** App name. */
  name: string;
  /** Process id (use `Deno.pid`: cached answers check that the process lives). */
  pid: number;
  /** Top-level windows. */
  windows: ScriptedWindow[];
  /** Listed from memory: it did not answer (the AT-SPI engine's stand-in). */
  live?: AppLiveState;
}

/** One call of {@link ScriptedEngine.act}. */
export interface ActCall {
  /** Window acted in. */
  window: string;
  /** Handle of the node the driver passed. */
  handle: string;
  /** Action asked for. */
  action: ActionName;
  /** Text, for set_value and type_text. */
  value: string | undefined;
}

/** Methods {@link ScriptedEngine.failOnce} can make fail. */
export type Failing = "listApps" | "readWindow" | "act" | "input" | "capture";

/** Options of a scripted engine. */
export interface ScriptedOptions {
  /** Ops it declares (default: none). */
  ops?: readonly string[];
  /** Apps it sees. */
  apps?: ScriptedApp[];
  /** False for an engine that cannot announce changes (as vision). */
  notifies?: boolean;
}

/** A scripted engine with a configurable name, ops and apps. */
export class ScriptedEngine implements Engine {
  readonly name: string;
  readonly ops: readonly string[];
  readonly notifies: boolean;
  /** Apps it sees now. */
  apps: ScriptedApp[];
  /** What {@link availability} answers. */
  availabilityNow: Availability = { available: true };
  /** Full reads made, in order, by window. */
  walked: string[] = [];
  /** listApps calls made. */
  listCalls = 0;
  /** Patch requests made. */
  patches: NodeRequest[][] = [];
  /** act calls made, in order (failed ones included). */
  acts: ActCall[] = [];
  /** input calls made, in order. */
  inputs: PixelInput[] = [];
  /** act and input calls in the order made: `act:<handle>` and `input:<kind>`. */
  order: string[] = [];
  /** Runs inside act, after recording it: change the tree and post here. */
  onAct: ((call: ActCall) => void) | undefined;
  /** What act answers for a call, when not the default `{ via: "action" }`. */
  actOutcome: ((call: ActCall) => Promise<ActOutcome>) | undefined;
  /** An error act throws for a call (after recording it), or undefined to succeed. */
  actError: ((call: ActCall) => Error | undefined) | undefined;
  /** subscribe calls made. */
  subscribes = 0;
  /** close calls made. */
  closes = 0;
  readonly #once = new Map<Failing, Error>();
  #listener: ((e: EngineEvent) => void) | undefined;

  /** An engine called `name`. */
  constructor(name: string, options: ScriptedOptions = {}) {
    this.name = name;
    this.ops = [...(options.ops ?? [])];
    this.apps = options.apps ?? [];
    this.notifies = options.notifies ?? true;
  }

  /** Full reads made. */
  get walks(): number {
    return this.walked.length;
  }

  /** Full reads of `window` made. */
  walksOf(window: string): number {
    return this.walked.filter((w) => w === window).length;
  }

  /** The next call of `method` throws `err`. */
  failOnce(method: Failing, err: Error): void {
    this.#once.set(method, err);
  }

  /** The tree of `window` (throws when no app has it). */
  tree(window: string): RawNode {
    for (const a of this.apps) {
      const w = a.windows.find((x) => x.window === window);
      if (w) return w.tree;
    }
    throw new Error(`test bug: no scripted window ${window}`);
  }

  /** Posts a notification as the app would (if the driver subscribed). */
  post(e: EngineEvent): void {
    this.#listener?.(e);
  }

  #fail(method: Failing): void {
    const err = this.#once.get(method);
    if (err === undefined) return;
    this.#once.delete(method);
    throw err;
  }

  #find(n: RawNode, h: string): RawNode | undefined {
    return n.handle === h ? n : n.children.map((c) => this.#find(c, h)).find(Boolean);
  }

  #treeOrGone(window: string): RawNode {
    for (const a of this.apps) {
      const w = a.windows.find((x) => x.window === window);
      if (w) return w.tree;
    }
    throw new DriverError("window_not_found", `No window "${window}"`, { version: 0 });
  }

  availability(): Promise<Availability> {
    return Promise.resolve({ ...this.availabilityNow });
  }

  listApps(_signal: AbortSignal): Promise<AppInfo[]> {
    this.listCalls++;
    try {
      this.#fail("listApps");
    } catch (err) {
      return Promise.reject(err);
    }
    return Promise.resolve(this.apps.map((a) => ({
      app: a.app,
      pid: a.pid,
      name: a.name,
      windows: a.windows.map((w) => ({
        window: w.window,
        title: w.tree.name,
        bounds: { ...w.tree.bounds },
        focused: w.focused ?? false,
      })),
      ...(a.live ? { live: { ...a.live } } : {}),
    })));
  }

  readWindow(window: string, _budget: ReadBudget): Promise<WindowTree> {
    try {
      this.#fail("readWindow");
      const root = structuredClone(this.#treeOrGone(window));
      this.walked.push(window);
      let nodes = 0;
      const count = (n: RawNode): void => {
        nodes++;
        n.children.forEach(count);
      };
      count(root);
      return Promise.resolve({ root, nodes, ms: 0, truncated: false });
    } catch (err) {
      return Promise.reject(err);
    }
  }

  readNodes(
    window: string,
    requests: readonly NodeRequest[],
    _budget: ReadBudget,
  ): Promise<Map<string, RawNode | null>> {
    this.patches.push([...requests]);
    let tree: RawNode;
    try {
      // A window that closed is gone for a patch as for a walk (as the real engines say).
      tree = this.#treeOrGone(window);
    } catch (err) {
      return Promise.reject(err);
    }
    const read = (h: string) => {
      const found = this.#find(tree, h);
      return found ? structuredClone(found) : null;
    };
    return Promise.resolve(new Map(requests.map((r) => [r.handle, read(r.handle)])));
  }

  childCount(window: string, _signal: AbortSignal): Promise<number> {
    return Promise.resolve(this.tree(window).children.length);
  }

  focusedHandle(_window: string, _signal: AbortSignal): Promise<string | null> {
    return Promise.resolve(null);
  }

  act(
    window: string,
    node: RawNode,
    action: ActionName,
    value: string | undefined,
    _signal: AbortSignal,
  ): Promise<ActOutcome> {
    const call: ActCall = { window, handle: node.handle, action, value };
    this.acts.push(call);
    this.order.push(`act:${node.handle}`);
    try {
      this.#fail("act");
      const err = this.actError?.(call);
      if (err) throw err;
      this.onAct?.(call);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.actOutcome?.(call) ?? Promise.resolve({ via: "action" });
  }

  input(input: PixelInput, _signal: AbortSignal): Promise<void> {
    this.inputs.push(input);
    this.order.push(`input:${input.kind}`);
    try {
      this.#fail("input");
    } catch (err) {
      return Promise.reject(err);
    }
    return Promise.resolve();
  }

  capture(_window: string | undefined, _signal: AbortSignal): Promise<Capture> {
    try {
      this.#fail("capture");
    } catch (err) {
      return Promise.reject(err);
    }
    const rgba = new Uint8Array(4 * 4 * 4).fill(255);
    return Promise.resolve({ width: 4, height: 4, scale: 1, origin: { x: 0, y: 0 }, rgba });
  }

  subscribe(listener: (e: EngineEvent) => void): Promise<() => Promise<void>> {
    this.subscribes++;
    this.#listener = listener;
    return Promise.resolve(() => {
      this.#listener = undefined;
      return Promise.resolve();
    });
  }

  stats(): EngineStats {
    return { calls: this.listCalls, walks: this.walks };
  }

  close(): Promise<void> {
    this.closes++;
    return Promise.resolve();
  }
}

/** A registry entry that loads `engine` on this OS. */
export function entryOf(engine: Engine): EngineEntry {
  return {
    name: engine.name,
    os: [Deno.build.os],
    ops: engine.ops,
    load: () => Promise.resolve(engine),
  };
}

/** Polls `cond` until it holds, failing after `ms` (no fixed sleeps: a short poll tick). */
export async function until(cond: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}
