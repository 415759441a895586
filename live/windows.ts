/**
 * The watched windows: each window's element map, the app it belongs to, when it was last
 * used and what the live map knows of its freshness. Bounded: past the limit the least
 * recently used is dropped (design document: at most 8 watched).
 *
 * @module
 */
import { guessLabels } from "./label_guess.ts";
import { buildSnapshot, WindowMap } from "../map/mod.ts";
import type { PatchScope, RawNode, WindowTree } from "../model/engine.ts";
import type { Motion } from "./motion.ts";
import { DriverError } from "../protocol/errors.ts";
import type { Covering } from "../protocol/results.ts";

/** One watched window. */
export interface Watched {
  /** Window id. */
  window: string;
  /** Engine app id (AT-SPI: bus name). */
  app: string;
  /** App name. */
  appName: string;
  /** Process id. */
  pid: number;
  /** The element map. */
  map: WindowMap;
  /**
   * Last read or action by a caller, `performance.now()`; `-Infinity` before the first.
   * Background patches and probes are not uses: only callers keep a window active.
   */
  used: number;
  /** When the window was first read, `performance.now()`. */
  watchedAt: number;
  /** The last read was cut by the element budget. */
  truncated: boolean;
  /** The app's notification count when the map was last read. */
  seen: number;
  /** When the map was last read from the app, `performance.now()`. */
  readAt: number;
  /** Last time the map was known to match the app: a read or a passing probe. */
  verifiedAt: number;
  /** Why the window is read on a timer instead of trusted between notifications. */
  degraded: string | undefined;
  /** What the last probe saw, to compare with the next one. */
  probe: { childCount: number; focused: string | null; seen: number } | undefined;
  /** Probes that caught a change no notification announced. */
  misses: number;
  /**
   * Since when (`performance.now()`) the app has not answered a probe or a read in time:
   * it is hung or stopped, and the map is only what it showed before.
   */
  notResponding: number | undefined;
  /** The engine's tree behind the current map, kept to apply patches to. */
  tree: RawNode;
  /** Engine handles of every node in `tree`: which notifications concern this window. */
  handles: Set<string>;
  /** Nodes announced changed since the last read, with how much of each to read again. */
  pending: Map<string, PatchScope>;
  /** Structural notifications in the pending burst. */
  structural: number;
  /** Only a full read will do (first sight, window-level change, burst, probe miss). */
  needsFull: boolean;
  /** The engine said its last full read of this window is unusable, and why. */
  treeDegraded: string | undefined;
  /** Windows on top of part of it at the last full read (vision leaves their parts out). */
  covered: Covering[] | undefined;
  /** Elements were seen moving after an action: the map is read again until they stop. */
  motion: Motion | undefined;
}

function handlesOf(root: RawNode): Set<string> {
  const out = new Set<string>();
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    out.add(n.handle);
    stack.push(...n.children);
  }
  return out;
}

/** Where a window's read came from. */
export interface Origin {
  /** Engine app id. */
  app: string;
  /** App name. */
  appName: string;
  /** Process id. */
  pid: number;
  /** Engine name. */
  engine: string;
}

/** Window id → watched window, least recently used first. */
export class WindowStore {
  readonly #windows = new Map<string, Watched>();
  readonly #limit: number;
  readonly #keep: number;

  /** At most `limit` windows, `keep` versions each. */
  constructor(limit: number, keep: number) {
    this.#limit = limit;
    this.#keep = keep;
  }

  /** Windows watched now. */
  get size(): number {
    return this.#windows.size;
  }

  /** The watched window, or `window_not_found` when it was never read (or was dropped). */
  get(window: string): Watched {
    const w = this.#windows.get(window);
    if (!w) {
      throw new DriverError(
        "window_not_found",
        `Window "${window}" has no map: read it with read_ui first`,
        { version: 0 },
      );
    }
    this.#touch(w);
    return w;
  }

  /** The watched window if there is one. */
  peek(window: string): Watched | undefined {
    return this.#windows.get(window);
  }

  /** Folds a new read into the window's map (making the map on first sight). */
  record(
    window: string,
    origin: Origin,
    tree: WindowTree,
    seen: number,
  ): { watched: Watched; changed: boolean } {
    guessLabels(tree.root);
    const snapshot = buildSnapshot(tree.root);
    let w = this.#windows.get(window);
    let changed = true;
    if (w) {
      changed = w.map.update(snapshot, origin.engine).changed;
      w.truncated = tree.truncated;
      w.seen = seen;
      w.readAt = w.verifiedAt = performance.now();
      w.probe = undefined;
      w.tree = tree.root;
      w.handles = handlesOf(tree.root);
      w.treeDegraded = tree.degradedReason;
      w.covered = tree.covered;
    } else {
      w = {
        window,
        app: origin.app,
        appName: origin.appName,
        pid: origin.pid,
        map: new WindowMap(window, origin.engine, snapshot, { keep: this.#keep }),
        used: -Infinity,
        watchedAt: performance.now(),
        truncated: tree.truncated,
        seen,
        readAt: performance.now(),
        verifiedAt: performance.now(),
        degraded: undefined,
        probe: undefined,
        misses: 0,
        notResponding: undefined,
        tree: tree.root,
        handles: handlesOf(tree.root),
        pending: new Map(),
        structural: 0,
        needsFull: false,
        treeDegraded: tree.degradedReason,
        covered: tree.covered,
        motion: undefined,
      };
      this.#windows.set(window, w);
      this.#evict();
    }
    return { watched: w, changed };
  }

  /** A caller read or acted on `window`: it counts as used (no-op when not watched). */
  use(window: string): void {
    const w = this.#windows.get(window);
    if (w) this.#touch(w);
  }

  /** Every watched window, least recently used first. */
  all(): Watched[] {
    return [...this.#windows.values()];
  }

  /** Drops a window (closed, or its app quit). */
  drop(window: string): void {
    this.#windows.delete(window);
  }

  /** Drops every window of an app. */
  dropApp(app: string): void {
    for (const [id, w] of this.#windows) if (w.app === app) this.#windows.delete(id);
  }

  #touch(w: Watched): void {
    w.used = performance.now();
    // Re-insert so Map order is least recently used first.
    this.#windows.delete(w.window);
    this.#windows.set(w.window, w);
  }

  #evict(): void {
    while (this.#windows.size > this.#limit) {
      const oldest = this.#windows.keys().next().value!;
      this.#windows.delete(oldest);
    }
  }
}
