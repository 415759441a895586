/**
 * A scripted engine for unit tests of the live map's own logic (never a stand-in for a
 * real engine in integration tests): a tree you set, counters of what was asked, and a
 * way to post notifications.
 *
 * @module
 */
import type {
  AppInfo,
  Availability,
  Capture,
  Engine,
  EngineEvent,
  EngineStats,
  NodeRequest,
  RawNode,
  WindowTree,
} from "../model/engine.ts";

/** A node for scripted trees. */
export function node(handle: string, name = handle, children: RawNode[] = []): RawNode {
  return {
    handle,
    role: "AXButton",
    name,
    bounds: { x: 0, y: 0, w: 10, h: 10 },
    enabled: true,
    focused: false,
    actions: ["press"],
    children,
  };
}

/** The scripted engine. */
export class FakeEngine implements Engine {
  readonly name = "fake";
  readonly ops = ["read_ui"];
  /** What the app shows now. */
  tree: RawNode = node("w", "Window", [node("a", "A"), node("b", "B")]);
  /** What the probe sees as the window's child count. */
  children = 2;
  /** Full reads made. */
  walks = 0;
  /** Patch requests made. */
  patches: NodeRequest[][] = [];
  /** Reads carry child counts, so the live map's child-list check runs (off by default). */
  countsChildren = false;
  /** Child counts asked for, per call. */
  countCalls: string[][] = [];
  /** Make subscribe fail. */
  noNotifications = false;
  /** Every follow list asked for, with the walk count when it was asked. */
  follows: { apps: string[]; walks: number }[] = [];
  #listener: ((e: EngineEvent) => void) | undefined;
  /** Told the windows to watch for placement (unset: the engine does not watch). */
  watchPlacement?: (windows: readonly string[]) => void;
  /** Asked to deliver what it heard (unset: nothing to deliver). */
  flushEvents?: () => void;

  availability(): Promise<Availability> {
    return Promise.resolve({ available: true });
  }
  listApps(): Promise<AppInfo[]> {
    return Promise.resolve([]);
  }
  readWindow(): Promise<WindowTree> {
    this.walks++;
    return Promise.resolve({ root: this.#read(this.tree), nodes: 3, ms: 0, truncated: false });
  }
  /** A copy as an engine reads it: with child counts when it counts children. */
  #read(n: RawNode): RawNode {
    const copy = structuredClone(n);
    if (!this.countsChildren) return copy;
    const count = (x: RawNode) => {
      x.childCount = x.children.length;
      x.children.forEach(count);
    };
    count(copy);
    return copy;
  }
  #find(n: RawNode, h: string): RawNode | undefined {
    return n.handle === h ? n : n.children.map((c) => this.#find(c, h)).find(Boolean);
  }
  readNodes(_w: string, requests: readonly NodeRequest[]): Promise<Map<string, RawNode | null>> {
    this.patches.push([...requests]);
    const read = (h: string) => {
      const found = this.#find(this.tree, h);
      return found ? this.#read(found) : null;
    };
    return Promise.resolve(new Map(requests.map((r) => [r.handle, read(r.handle)])));
  }
  childCounts(_w: string, handles: readonly string[]): Promise<Map<string, number | null>> {
    this.countCalls.push([...handles]);
    return Promise.resolve(
      new Map(handles.map((h) => [h, this.#find(this.tree, h)?.children.length ?? null])),
    );
  }
  childCount(): Promise<number> {
    return Promise.resolve(this.children);
  }
  focusedHandle(): Promise<string | null> {
    return Promise.resolve(null);
  }
  act(): Promise<{ via: "action" }> {
    return Promise.resolve({ via: "action" });
  }
  input(): Promise<void> {
    return Promise.resolve();
  }
  capture(): Promise<Capture> {
    return Promise.reject(new Error("no pixels"));
  }
  subscribe(listener: (e: EngineEvent) => void): Promise<() => Promise<void>> {
    if (this.noNotifications) return Promise.reject(new Error("registry refused"));
    this.#listener = listener;
    return Promise.resolve(() => Promise.resolve());
  }
  follow(apps: readonly string[]): Promise<void> {
    this.follows.push({ apps: [...apps], walks: this.walks });
    return Promise.resolve();
  }
  /** Posts a notification as the app would. */
  post(e: EngineEvent): void {
    this.#listener?.(e);
  }
  stats(): EngineStats {
    return { calls: 0, walks: this.walks };
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}
