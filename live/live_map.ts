/**
 * The live element map (design document, "Live element map"): keeps each watched
 * window's map as fresh as the app's notifications say, so re-reads cost no
 * accessibility call and no read answers older than the last notification.
 *
 * - A notification about a node of a watched window queues that node; a window-level
 *   change, a focus move to an unknown element, or more than `burst_limit` structural
 *   notifications queue a full read instead. For windows a caller read in the last
 *   `active_ms`, a background patch runs at most every `patch_interval_ms`; other
 *   windows are patched when read. A patch reads only the queued nodes (with their
 *   children for structural changes) and rebuilds the map from the kept tree.
 * - A clean window is answered from memory (`cached: true`).
 * - A staleness probe (window child count and state, two calls) runs every `probe_ms`
 *   per active window; a change no notification announced queues a full read, and
 *   twice sends it to degraded: then its map is reused for at most `degraded_reuse_ms`.
 * - Windows unused for `unwatch_ms` are dropped; at most `watch_limit` are kept (LRU).
 *
 * It knows the engine interface and the map, nothing of RPC or of any OS.
 *
 * @module
 */
import type { Engine, EngineEvent, PatchScope, RawNode } from "../model/engine.ts";
import { DriverError } from "../protocol/errors.ts";
import type { DriverConfig } from "../model/config.ts";
import { log } from "../util/log.ts";
import { EventHub } from "./events.ts";
import { type Origin, type Watched, WindowStore } from "./windows.ts";
import { applyPatch, containersToCheck, listsToCheck, widerScope } from "./patch.ts";
import { Following } from "./follow.ts";
import { PLACED_SETTLE_MS, Placements } from "./placed.ts";
import { processAlive } from "../util/process.ts";
import {
  type BoundsIndex,
  boundsOf,
  motionDue,
  movesSince,
  nextMotion,
  startMotion,
} from "./motion.ts";

/** Live-map state as answers report it. */
export interface LiveReport {
  /** `live` when notifications keep the map fresh, else `degraded`. */
  state: "live" | "degraded";
  /** Why degraded. */
  reason?: string;
  /** With `app_not_responding`: how old the map is, in ms. */
  age_ms?: number;
  /** Elements were still moving after an action when the map was read. */
  moving?: true;
}

/** A window to read and where it lives. */
export type Target = Omit<Origin, "engine"> & { window: string };

/** Serialises walks of one window; the driver passes its window locks here. */
export type WalkGate = <T>(
  window: string,
  walk: () => Promise<T>,
  signal: AbortSignal,
) => Promise<T>;

const direct: WalkGate = (_w, walk) => walk();

/** The live map over one engine. */
export class LiveMap {
  /** Watched windows. */
  readonly windows: WindowStore;
  /** Per-app notification counters. */
  readonly events: EventHub = new EventHub();
  readonly #engine: (name?: string) => Engine;
  readonly #cfg: DriverConfig;
  readonly #timers: ReturnType<typeof setInterval>[] = [];
  readonly #patching = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #lastPatch = new Map<string, number>();
  #gate: WalkGate = direct;
  /** First reads under way, per window, and whether the window was placed meanwhile. */
  readonly #firstReads = new Map<string, { placed: boolean }>();
  /** Windows the window system placed lately (`placed.ts`). */
  readonly #placements = new Placements();
  /** Reads and patches under way, per window: its map is about to be replaced. */
  readonly #inFlight = new Map<string, number>();
  #unsubscribe: (() => Promise<void>) | undefined;
  #subscribeError: string | undefined;
  /** Apps the engine hears closely, and those it stopped hearing in part. */
  readonly #following = new Following(
    () => this.#subscribeError === undefined ? this.#engine() : undefined,
    () => this.windows.all(),
  );
  #closed = false;

  /** Watches windows read through `engine()` with the tunables in `config`. */
  constructor(engine: (name?: string) => Engine, config: DriverConfig) {
    this.#engine = engine;
    this.#cfg = config;
    this.windows = new WindowStore(config.watch_limit, config.versions);
  }

  /** Routes every walk through `gate` (one walk per window at a time). */
  setWalkGate(gate: WalkGate): void {
    this.#gate = gate;
  }

  /** Subscribes to the engine's notifications and starts the probe and sweeper. */
  async start(): Promise<void> {
    try {
      this.#unsubscribe = await this.#engine().subscribe(this.#onEvent);
    } catch (err) {
      this.#subscribeError = `no_notifications: ${err instanceof Error ? err.message : err}`;
      log("warn", "notifications unavailable; every window is degraded", {
        error: this.#subscribeError,
      });
    }
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(fn, ms);
      Deno.unrefTimer(t); // Timers must never keep a stopping driver alive.
      this.#timers.push(t);
    };
    every(Math.max(50, this.#cfg.probe_ms), () => void this.#probeAll());
    every(Math.max(1_000, Math.min(30_000, this.#cfg.unwatch_ms / 4)), () => this.#sweep());
  }

  readonly #onEvent = (e: EngineEvent): void => {
    if (e.kind === "gone") return this.#forgetApp(e.app);
    if (e.kind === "muted" || e.kind === "unmuted") {
      const reason = e.kind === "muted" ? e.detail ?? "notifications_muted" : undefined;
      return this.#following.setMuted(e.app, reason);
    }
    if (e.kind === "placed") return this.#placed(e);
    this.events.onEvent(e);
    const now = performance.now();
    for (const w of this.windows.all()) {
      if (w.app !== e.app || !this.#route(w, e)) continue;
      // A degraded window is read in full when asked for, never in the background.
      if (now - w.used <= this.#cfg.active_ms && !w.degraded) this.#schedulePatch(w);
    }
  };

  /**
   * The window system moved, resized or reparented a window: every bound in it may have
   * moved, with no notification from the app, so it is read in full. Not counted as the
   * app's notification: the app did nothing, and an action's settle waits on the app.
   */
  #placed(e: EngineEvent): void {
    if (e.window === undefined) return;
    const now = performance.now();
    this.#placements.mark(e.window, now);
    const w = this.windows.peek(e.window);
    if (!w) {
      // Placed while its first read ran: that read may show it from before.
      const first = this.#firstReads.get(e.window);
      if (first) first.placed = true;
      return;
    }
    w.needsFull = true;
    if (now - w.used > this.#cfg.active_ms || w.degraded) return;
    this.#schedulePatch(w);
    // And the confirming read, once a lagging toolkit has caught up.
    const t = setTimeout(() => {
      if (this.#placements.at(w.window) === now && !this.#closed) this.#schedulePatch(w);
    }, PLACED_SETTLE_MS);
    Deno.unrefTimer(t);
  }

  /** Was `w`'s map read too soon after a placement to trust, and is that time over? */
  #placementDue(w: Watched): boolean {
    return this.#placements.due(w.window, w.readAt, performance.now());
  }

  /** Counts a read or patch of `window` as under way until `work` ends. */
  async #busy<T>(window: string, work: () => Promise<T>): Promise<T> {
    this.#inFlight.set(window, (this.#inFlight.get(window) ?? 0) + 1);
    try {
      return await work();
    } finally {
      const n = (this.#inFlight.get(window) ?? 1) - 1;
      if (n > 0) this.#inFlight.set(window, n);
      else this.#inFlight.delete(window);
    }
  }

  /** Queues what `e` means for window `w`; true when `w` needs reading again. */
  #route(w: Watched, e: EngineEvent): boolean {
    const h = e.handle;
    if (e.kind === "window" || h === undefined) {
      w.needsFull = true;
      return true;
    }
    if (w.handles.has(h)) {
      const structural = e.kind === "structure";
      const scope = structural || inherited(e)
        ? "subtree"
        : e.kind === "bounds"
        ? "bounds"
        : "node";
      w.pending.set(h, widerScope(w.pending.get(h), scope));
      if (structural && ++w.structural > this.#cfg.burst_limit) w.needsFull = true;
      return true;
    }
    // A node the map does not hold: only focus landing on it, or it coming on screen,
    // can change what the window shows (its parent announces new children itself). GTK 4
    // says only that a flipped-in page's nodes got a size: that is them coming on screen.
    if (
      e.kind === "focus" ||
      (e.kind === "state" && (e.detail === "showing" || e.detail === "visible")) ||
      (e.kind === "bounds" && e.detail === "sized")
    ) {
      w.needsFull = true;
      return true;
    }
    return false;
  }

  #schedulePatch(w: Watched): void {
    if (this.#closed || this.#patching.has(w.window)) return;
    const since = performance.now() - (this.#lastPatch.get(w.window) ?? -Infinity);
    const wait = Math.max(0, this.#cfg.patch_interval_ms - since);
    const t = setTimeout(() => {
      this.#patching.delete(w.window);
      this.#lastPatch.set(w.window, performance.now());
      if (this.isFresh(w) || this.windows.peek(w.window) !== w) return;
      const signal = AbortSignal.timeout(this.#cfg.request_timeout_ms);
      this.refresh(w, signal).catch((err) =>
        log("debug", "background patch failed", { window: w.window, error: String(err) })
      );
    }, wait);
    Deno.unrefTimer(t);
    this.#patching.set(w.window, t);
  }

  /**
   * Queues node `handle` of `w` to be read on its next refresh: the caller just acted on
   * it, and the answer must show what the element is now, whether or not (or however
   * late) the app announces it (Chromium sends a check box's new state after its focus).
   */
  touch(w: Watched, handle: string): void {
    w.pending.set(handle, widerScope(w.pending.get(handle), "node"));
  }

  /**
   * Queues for `w`'s next refresh every list and table whose child count changed since it
   * was read (one call each, at most `child_checks`): the check after an action, for apps
   * that add rows with no notification (Qt's tables and trees). True when one changed.
   */
  async checkLists(w: Watched, signal: AbortSignal): Promise<boolean> {
    const engine = this.#engine(w.map.engine);
    if (!engine.childCounts) return false;
    const lists = listsToCheck(w.tree, this.#cfg.child_checks);
    if (lists.length === 0) return false;
    let changed = false;
    const counts = await engine.childCounts(w.window, lists.map((c) => c.handle), {
      maxElements: 1,
      signal,
      callTimeoutMs: this.#cfg.app_timeout_ms,
    });
    for (const list of lists) {
      const now = counts.get(list.handle);
      if (now !== undefined && now !== null && now !== list.childCount) {
        w.pending.set(list.handle, "subtree");
        changed = true;
      }
    }
    return changed;
  }

  /** Live state of a window for answers. */
  state(w: Watched | undefined): LiveReport {
    if (w?.notResponding !== undefined) {
      const age = Math.round(performance.now() - w.readAt);
      return { state: "degraded", reason: "app_not_responding", age_ms: age };
    }
    if (this.#subscribeError) return { state: "degraded", reason: this.#subscribeError };
    if (w?.degraded) return { state: "degraded", reason: w.degraded };
    return { state: "live", ...(this.moving(w) ? { moving: true as const } : {}) };
  }

  /** Were `w`'s elements still moving after an action when its map was last read? */
  moving(w: Watched | undefined): boolean {
    return w?.motion !== undefined && performance.now() < w.motion.until;
  }

  /**
   * After an action: when `w` (just read) shows, since `before` (the bounds of the tree
   * the action was planned on), a container cut short of its content or elements moved
   * with nothing resized, added or gone to explain it, the window is followed in motion
   * (see `motion.ts`): it may be the first frame of an animation no notification will
   * announce the rest of.
   */
  followMotion(w: Watched, before: BoundsIndex): void {
    w.motion = startMotion(movesSince(before, w.tree), performance.now()) ?? w.motion;
  }

  /** Does the map of `w` match the app, as far as notifications and the probe tell? */
  isFresh(w: Watched): boolean {
    // A notification outdates any map, a degraded one too (the tree half of a merged
    // read, or an app whose bounds alone are muted, still announces its other changes).
    if (w.needsFull || w.pending.size > 0) return false;
    // A read under way cleared what it owed when it began; its map is not in yet.
    if (this.#inFlight.has(w.window) || this.#placementDue(w)) return false;
    if (motionDue(w.motion, w.readAt, performance.now())) return false;
    const age = performance.now() - w.readAt;
    if (this.#subscribeError || w.degraded) return age < this.#cfg.degraded_reuse_ms;
    // Without a recent read or passing probe (an idle window is not probed), read again.
    return performance.now() - w.verifiedAt < this.#cfg.probe_ms * 1.5;
  }

  /**
   * The window's map brought up to date: from memory when fresh; for a window nothing is
   * owed for but that no probe checked lately (an idle one is not probed in the
   * background), from memory once the probe's two calls pass; else read again.
   */
  async current(w: Watched, signal: AbortSignal): Promise<{ watched: Watched; cached: boolean }> {
    this.windows.use(w.window); // only callers ask for the current map
    // Moves the window system made and the engine has not passed on yet (no app call).
    if (this.#subscribeError === undefined) this.#engine().flushEvents?.();
    const checkable = !w.needsFull && w.pending.size === 0 && !w.degraded &&
      !this.#inFlight.has(w.window) && !this.#placementDue(w) &&
      !this.#subscribeError && !motionDue(w.motion, w.readAt, performance.now());
    // An app that did not answer lately is asked again first (a probe: two cheap calls).
    if (w.notResponding !== undefined || (!this.isFresh(w) && checkable)) await this.#probe(w);
    if (w.notResponding === undefined && this.isFresh(w)) return this.#cached(w);
    try {
      const readBefore = w.readAt;
      const watched = await this.refresh(w, signal);
      // Only a read that reached the app proves it answers (with nothing owed, refresh
      // returns the map as it is).
      if (watched.readAt > readBefore) watched.notResponding = undefined;
      return { watched, cached: false };
    } catch (err) {
      // A busy app (starting, loading a page) is read once it answers; one that does not
      // answer at all gets its last map back, said to be stale (`app_not_responding`),
      // rather than an error for every read. A walk gives up at its first timed-out call.
      const timedOut = err instanceof DriverError && err.code === "timeout" && !signal.aborted;
      if (!timedOut || this.windows.peek(w.window) !== w) throw err;
      w.notResponding ??= performance.now();
      return this.#cached(w);
    }
  }

  /** `w`'s map as it is, unless its app has quit meanwhile. */
  #cached(w: Watched): { watched: Watched; cached: boolean } {
    if (!processAlive(w.pid)) {
      // Exited before its exit reached us as a signal: forget it, and say so.
      this.#forgetApp(w.app);
      throw new DriverError("app_not_running", `"${w.appName}" (pid ${w.pid}) has quit`);
    }
    return { watched: w, cached: true };
  }

  /**
   * Brings `target`'s map up to date (one read per window at a time): a patch of the
   * queued nodes when that is enough, else a full read. `full` forces the full read.
   */
  async refresh(
    target: Target,
    signal: AbortSignal,
    full = false,
    engineName?: string,
  ): Promise<Watched> {
    const readAt = this.windows.peek(target.window)?.readAt;
    return await this.#gate(target.window, async () => {
      const w = this.windows.peek(target.window);
      // A read that finished while this one waited already holds what the app shows.
      if (w && readAt !== undefined && w.readAt > readAt && this.isFresh(w)) return w;
      try {
        // Without notifications (degraded) nothing is ever queued: only a read tells.
        const degraded = this.#subscribeError !== undefined || w?.degraded !== undefined;
        const moving = w !== undefined && motionDue(w.motion, w.readAt, performance.now());
        if (!w || full || w.needsFull || degraded || moving || this.#placementDue(w)) {
          return await this.#busy(target.window, () => this.#walk(target, w, signal, engineName));
        }
        if (w.pending.size === 0) return w;
        return await this.#busy(target.window, () => this.#patch(target, w, signal));
      } catch (err) {
        this.#forgetIfGone(target, err);
        throw err;
      }
    }, signal);
  }

  async #walk(
    target: Target,
    w: Watched | undefined,
    signal: AbortSignal,
    engineName = w?.map.engine,
  ): Promise<Watched> {
    const engine = this.#engine(engineName);
    // Taken before the read: what arrives during it stays queued for the next one.
    const before = w?.tree;
    if (w) {
      w.needsFull = false;
      w.pending = new Map();
      w.structural = 0;
    }
    const first = w ? undefined : { placed: false };
    if (first) this.#firstReads.set(target.window, first);
    return await this.#following.reading(target.app, engine, async () => {
      const seen = this.events.count(target.app);
      const tree = await engine.readWindow(target.window, {
        maxElements: this.#cfg.max_elements,
        signal,
        callTimeoutMs: w ? this.#cfg.app_timeout_ms : this.#cfg.default_app_timeout_ms,
      }).finally(() => {
        if (this.#firstReads.get(target.window) === first) this.#firstReads.delete(target.window);
      });
      const read =
        this.windows.record(target.window, { ...target, engine: engine.name }, tree, seen)
          .watched;
      if (first?.placed) read.needsFull = true;
      // The probe's baseline is what the app said right after this read, not what the next
      // probe sees: a change made silently before that probe is caught too.
      if (engine.notifies === false) {
        read.degraded ??= `no_notifications_from_${engine.name}`;
      } else {
        const baseline = await this.#probeCalls(read, signal).catch(() => undefined);
        if (baseline) read.probe = { childCount: baseline[0], focused: baseline[1], seen };
      }
      const muted = this.#following.mutedReason(target.app);
      if (muted !== undefined) read.degraded ??= muted;
      if (read.motion && before) {
        read.motion = nextMotion(
          read.motion,
          movesSince(boundsOf(before), read.tree),
          performance.now(),
        );
      }
      return read;
    }, target.window);
  }

  async #patch(target: Target, w: Watched, signal: AbortSignal): Promise<Watched> {
    const engine = this.#engine(w.map.engine);
    const pending = w.pending;
    w.pending = new Map();
    w.structural = 0;
    const seen = this.events.count(target.app);
    const started = performance.now();
    let reads: Map<string, RawNode | null>;
    try {
      await this.#checkChildLists(engine, target.window, w.tree, pending, signal);
      reads = await engine.readNodes(
        target.window,
        [...pending].map(([handle, scope]) => ({ handle, scope })),
        { maxElements: this.#cfg.max_elements, signal, callTimeoutMs: this.#cfg.app_timeout_ms },
      );
    } catch (err) {
      // Still owed: put the queue back so the next read tries again.
      for (const [h, s] of pending) w.pending.set(h, widerScope(w.pending.get(h), s));
      throw err;
    }
    const patched = applyPatch(w.tree, reads, pending);
    if (patched.windowGone) return await this.#walk(target, w, signal);
    const tree = {
      root: patched.root,
      nodes: patched.nodes,
      ms: performance.now() - started,
      truncated: w.truncated,
      // A patch keeps what the last full read said of the tree.
      ...(w.treeDegraded !== undefined ? { degradedReason: w.treeDegraded } : {}),
      ...(w.covered !== undefined ? { covered: w.covered } : {}),
    };
    const read = this.windows.record(target.window, { ...target, engine: engine.name }, tree, seen)
      .watched;
    // The record may have pushed out the least recently used window.
    this.#following.sync();
    return read;
  }

  /**
   * The child-list check (design document, "Patching"): the containers around what the
   * patch reads are asked for their child count, and one that changed with no
   * notification saying so is read again with its subtree, in this same patch.
   */
  async #checkChildLists(
    engine: Engine,
    window: string,
    tree: RawNode,
    pending: Map<string, PatchScope>,
    signal: AbortSignal,
  ): Promise<void> {
    if (!engine.childCounts) return;
    const containers = containersToCheck(tree, pending, this.#cfg.child_checks);
    if (containers.length === 0) return;
    const counts = await engine.childCounts(window, containers.map((c) => c.handle), {
      maxElements: 1,
      signal,
      callTimeoutMs: this.#cfg.app_timeout_ms,
    });
    for (const c of containers) {
      const now = counts.get(c.handle);
      if (now !== undefined && now !== c.childCount) pending.set(c.handle, "subtree");
    }
  }

  /** The app quit: its maps describe nothing any more (a relaunch is a new watch). */
  #forgetApp(app: string): void {
    this.windows.dropApp(app);
    this.events.drop(app);
    this.#following.sync();
  }

  #forgetIfGone(target: Target, err: unknown): void {
    if (!(err instanceof DriverError)) return;
    if (err.code === "app_not_running") {
      this.#forgetApp(target.app);
    } else if (err.code === "window_not_found") {
      this.windows.drop(target.window);
      this.#following.sync();
    }
  }

  /** The staleness probe: two cheap calls per active window. */
  async #probeAll(): Promise<void> {
    const now = performance.now();
    await Promise.all(
      this.windows.all().map(async (w) => {
        if (now - w.used > this.#cfg.active_ms || w.degraded || w.needsFull) return;
        await this.#probe(w);
      }),
    );
  }

  /**
   * Two cheap calls, the window's child count and the app's focus, compared with what they
   * were when its map was read (the baseline {@link #walk} takes): a difference with no
   * notification since is a change the map missed, and the window is read in full.
   */
  async #probe(w: Watched): Promise<void> {
    const signal = AbortSignal.timeout(this.#cfg.app_timeout_ms);
    try {
      const seen = this.events.count(w.app);
      const [childCount, focused] = await this.#probeCalls(w, signal);
      const before = w.probe;
      w.probe = { childCount, focused, seen };
      const silent = before && before.seen === seen && seen === w.seen;
      if (silent && (before.childCount !== childCount || before.focused !== focused)) {
        w.needsFull = true;
        w.misses++;
        if (w.misses >= 2) w.degraded = "probe_caught_unannounced_changes";
        log("info", "probe caught a change no notification announced", {
          window: w.window,
          misses: w.misses,
        });
      } else if (!w.needsFull) {
        w.verifiedAt = performance.now();
      }
      w.notResponding = undefined;
    } catch (err) {
      this.#forgetIfGone(w, err);
      if (err instanceof DriverError && err.code === "timeout") {
        w.notResponding ??= performance.now();
      }
    }
  }

  #probeCalls(w: Watched, signal: AbortSignal): Promise<[number, string | null]> {
    const engine = this.#engine(w.map.engine);
    return Promise.all([
      engine.childCount(w.window, signal),
      engine.focusedHandle(w.window, signal),
    ]);
  }

  /** Drops windows no caller used for `unwatch_ms` (counted from first sight if never). */
  #sweep(): void {
    const now = performance.now();
    for (const w of this.windows.all()) {
      if (now - Math.max(w.used, w.watchedAt) > this.#cfg.unwatch_ms) this.windows.drop(w.window);
    }
    // Windows dropped by the LRU limit or an app's exit leave their patch times behind.
    for (const id of this.#lastPatch.keys()) {
      if (!this.windows.peek(id)) this.#lastPatch.delete(id);
    }
    this.#placements.sweep(
      (id) => this.windows.peek(id)?.readAt,
      (id) => this.#firstReads.has(id),
    );
    this.#following.sync();
  }

  /** Stops timers and notifications; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const t of this.#timers) clearInterval(t);
    for (const t of this.#patching.values()) clearTimeout(t);
    await this.#unsubscribe?.().catch(() => {});
  }
}

/**
 * States a container's children take from it without a word of their own: GTK 3 announces
 * `sensitive` and `enabled` only for the box whose sensitivity changed, and the spin
 * button inside it stayed disabled in the map (set_value refused) though it was enabled.
 */
const INHERITED_STATES: ReadonlySet<string> = new Set(["sensitive", "enabled"]);

/** Does `e` change a state the node's whole subtree follows? */
export function inherited(e: Pick<EngineEvent, "kind" | "detail">): boolean {
  return e.kind === "state" && e.detail !== undefined && INHERITED_STATES.has(e.detail);
}
