/**
 * Which apps the engine listens to closely, and which it has stopped hearing in part.
 *
 * The live map asks the engine for element-level notifications only for apps with a
 * watched window ({@link Engine.follow}): an app nobody reads costs nothing. An app is
 * followed before its first read starts, so nothing between that read and the watch
 * goes unheard, and let go once its last window is dropped. An engine that mutes part
 * of an app (a bounds flood) or cannot follow it makes the app's windows degraded
 * with the reason, until it hears the app again.
 *
 * The same goes for windows: the engine is told which windows are watched
 * ({@link Engine.watchPlacement}), a window from before its first read starts, so that a
 * window manager placing it during that read is heard.
 *
 * @module
 */
import type { Engine } from "../model/engine.ts";
import { log } from "../util/log.ts";
import type { Watched } from "./windows.ts";

/**
 * Whether notifications of the engine named `notifier` concern a map read by `reader`:
 * its own maps, and those of engines composed over it (`atspi+vision` reads its tree
 * through atspi, so the tree's changes are announced as atspi's).
 */
function heardBy(reader: string, notifier: string): boolean {
  return reader === notifier || reader.startsWith(`${notifier}+`);
}

/** The live map's follow list over its notifying engine. */
export class Following {
  readonly #engine: () => Engine | undefined;
  readonly #windows: () => readonly Watched[];
  readonly #followed = new Set<string>();
  /** First reads under way, per app: their app must stay followed. */
  readonly #reading = new Map<string, number>();
  readonly #muted = new Map<string, string>();
  /** Apps muted because following them failed (the engine's bus was gone, say). */
  readonly #followFailed = new Set<string>();
  /** First reads under way, per window: it must be watched for placement meanwhile. */
  readonly #readingWindows = new Map<string, number>();
  /** The windows the engine was last told to watch for placement, as one key. */
  #placed = "";

  /**
   * `engine()` is the engine that delivers notifications, or undefined if none does;
   * `windows()` the watched windows.
   */
  constructor(engine: () => Engine | undefined, windows: () => readonly Watched[]) {
    this.#engine = engine;
    this.#windows = windows;
  }

  /** Why `app`'s windows cannot stay live, while the engine does not hear all of it. */
  mutedReason(app: string): string | undefined {
    return this.#muted.get(app);
  }

  /**
   * Records that the engine stopped (`reason`) or resumed (`undefined`) hearing all of
   * `app`, and marks its windows: degraded, or back to live with a full read owed for
   * what was missed.
   */
  setMuted(app: string, reason: string | undefined): void {
    const was = this.#muted.get(app);
    if (reason === undefined) this.#muted.delete(app);
    else this.#muted.set(app, reason);
    for (const w of this.#windows()) {
      if (w.app !== app) continue;
      if (reason !== undefined) {
        w.degraded ??= reason;
      } else if (w.degraded !== undefined && w.degraded === was) {
        w.degraded = undefined;
        w.misses = 0;
        w.needsFull = true;
      }
    }
  }

  /**
   * Runs `read` (a full read of `app`'s window `window` through `engine`) with the app
   * followed and the window watched for placement from before it starts; afterwards,
   * lets go of apps and windows that are no longer watched.
   */
  async reading<T>(
    app: string,
    engine: Engine,
    read: () => Promise<T>,
    window?: string,
  ): Promise<T> {
    const heard = window !== undefined && this.#hears(engine.name);
    this.#reading.set(app, (this.#reading.get(app) ?? 0) + 1);
    if (heard) this.#readingWindows.set(window, (this.#readingWindows.get(window) ?? 0) + 1);
    try {
      await this.#follow(app, engine);
      if (heard) this.#place();
      return await read();
    } finally {
      count(this.#reading, app);
      if (heard) count(this.#readingWindows, window);
      this.sync();
    }
  }

  /** Are maps read through the engine named `name` kept live by the notifying engine? */
  #hears(name: string): boolean {
    const engine = this.#engine();
    return engine !== undefined && heardBy(name, engine.name);
  }

  /** Tells the engine which windows to watch for placement, when that changed. */
  #place(): void {
    const engine = this.#engine();
    if (!engine?.watchPlacement) return;
    const ids = new Set(this.#readingWindows.keys());
    for (const w of this.#windows()) if (heardBy(w.map.engine, engine.name)) ids.add(w.window);
    const key = [...ids].sort().join(" ");
    if (key === this.#placed) return;
    this.#placed = key;
    try {
      engine.watchPlacement([...ids]);
    } catch (err) {
      // Moves the apps announce are still heard; only silent ones would be missed.
      log("debug", "could not watch window placement", { error: String(err) });
    }
  }

  async #follow(app: string, engine: Engine): Promise<void> {
    if (engine !== this.#engine() || !engine.follow || this.#followed.has(app)) return;
    this.#followed.add(app);
    try {
      await engine.follow([...this.#followed]);
    } catch (err) {
      this.#followed.delete(app);
      this.#followFailed.add(app);
      this.#muted.set(app, `no_notifications: ${err instanceof Error ? err.message : err}`);
      return;
    }
    // Followed at last (the engine's bus came back): what the failure muted is heard again.
    if (this.#followFailed.delete(app)) this.setMuted(app, undefined);
  }

  /** Lets the engine stop hearing apps that have no watched window left. */
  sync(): void {
    this.#place();
    const engine = this.#engine();
    if (!engine?.follow) return;
    const keep = new Set(this.#reading.keys());
    for (const w of this.#windows()) if (heardBy(w.map.engine, engine.name)) keep.add(w.app);
    for (const app of this.#muted.keys()) if (!keep.has(app)) this.#muted.delete(app);
    for (const app of this.#followFailed) if (!keep.has(app)) this.#followFailed.delete(app);
    const drop = [...this.#followed].filter((app) => !keep.has(app));
    if (drop.length === 0) return;
    for (const app of drop) this.#followed.delete(app);
    engine.follow([...this.#followed]).catch((err) =>
      log("debug", "could not stop following apps", { apps: drop, error: String(err) })
    );
  }
}

/** Counts one use of `key` in `uses` as done. */
function count(uses: Map<string, number>, key: string): void {
  const n = (uses.get(key) ?? 1) - 1;
  if (n > 0) uses.set(key, n);
  else uses.delete(key);
}
