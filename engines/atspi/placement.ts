/**
 * Window moves the apps do not announce, heard from X and passed on as `placed` events.
 *
 * Under a window manager a window is reparented into a frame and moved with no
 * accessibility notification (GTK 3 and Qt 5 post none for a move): a cached map would
 * keep every bound from before. Why X events and not the staleness probe comparing the
 * window's extents: the probe runs every 2 s and only on windows read lately, so a move
 * just before a read of an idle window would still be answered from memory; and it would
 * be a third call per probe on every toolkit. X tells of each move as it happens, for
 * watched windows only, at no accessibility call at all.
 *
 * The watched windows' X events are read without waiting on a modest timer (`TICK_MS`),
 * so a window an agent reads in the background is read again within that, and at once,
 * with one X round trip, when the live map is about to answer from memory
 * ({@link WindowPlacement.flush}).
 * *
 * @module
 */
import type { EngineEvent } from "../../model/engine.ts";
import type { PlacementWatch } from "../../platform/x11/placement.ts";
import { log } from "../../util/log.ts";

/** How often X events of watched windows are read when nobody asks. */
export const TICK_MS = 100;
/** A window X does not show yet is looked for again this often, this many times. */
const RETRY_MS = 250;
const RETRIES = 20;

/** What the engine knows of a window: its app's bus name, pid and title. */
export interface PlacedEntry {
  /** The app's bus name (the event's `app`). */
  app: string;
  /** Process id, to find its X window. */
  pid: number;
  /** Title, to tell its X windows apart. */
  title: string;
}

/** The engine's watch of its watched windows' places on screen. */
export class WindowPlacement {
  readonly #listener: (e: EngineEvent) => void;
  readonly #open: () => PlacementWatch;
  readonly #entry: (id: string) => PlacedEntry | undefined;
  #watch: PlacementWatch | null | undefined;
  readonly #xidOf = new Map<string, number>();
  readonly #idOf = new Map<number, string>();
  /** Windows X did not show yet: next try (performance.now()) and tries left. */
  readonly #missing = new Map<string, { next: number; left: number }>();
  #timer: ReturnType<typeof setInterval> | undefined;

  /**
   * `listener` gets the events, `open` makes the X watch (on first use), `entry` answers
   * what the engine knows of a window id.
   */
  constructor(
    listener: (e: EngineEvent) => void,
    open: () => PlacementWatch,
    entry: (id: string) => PlacedEntry | undefined,
  ) {
    this.#listener = listener;
    this.#open = open;
    this.#entry = entry;
  }

  /** Watches exactly `windows` from now on: their place now is the baseline. */
  watch(windows: readonly string[]): void {
    const want = new Set(windows);
    for (const id of [...this.#xidOf.keys(), ...this.#missing.keys()]) {
      if (!want.has(id)) this.#drop(id);
    }
    for (const id of want) {
      if (!this.#xidOf.has(id) && !this.#missing.has(id)) this.#add(id, false);
    }
    this.#schedule();
  }

  /** Delivers at once every move X has made so far (one round trip). */
  flush(): void {
    if (this.#xidOf.size > 0) this.#deliver(true);
  }

  /** Stops the timer and closes the X connection; idempotent. */
  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#watch?.close();
    this.#watch = null;
    this.#xidOf.clear();
    this.#idOf.clear();
    this.#missing.clear();
  }

  #connection(): PlacementWatch | undefined {
    if (this.#watch === undefined) {
      try {
        this.#watch = this.#open();
      } catch (err) {
        // No X here (a Wayland-only session): apps' own notifications are all there is.
        log("debug", "window placement not watched", { error: String(err) });
        this.#watch = null;
      }
    }
    return this.#watch ?? undefined;
  }

  /** Finds and watches window `id`; `late` when its map may predate the watch. */
  #add(id: string, late: boolean): void {
    const x = this.#connection();
    const entry = this.#entry(id);
    if (!x || !entry || entry.pid <= 0) return void this.#missing.delete(id);
    const xid = x.clientOf(entry.pid, entry.title);
    if (xid === undefined || this.#idOf.has(xid) || !x.add(xid)) {
      const was = this.#missing.get(id);
      const left = (was?.left ?? RETRIES) - 1;
      if (left > 0) this.#missing.set(id, { next: performance.now() + RETRY_MS, left });
      else this.#missing.delete(id);
      return;
    }
    this.#missing.delete(id);
    this.#xidOf.set(id, xid);
    this.#idOf.set(xid, id);
    // Found after the map was read: it may show the window from before its placement.
    if (late) this.#placed(entry.app, id);
  }

  #placed(app: string, id: string): void {
    this.#listener({ app, window: id, kind: "placed" });
  }

  #drop(id: string): void {
    this.#missing.delete(id);
    const xid = this.#xidOf.get(id);
    if (xid === undefined) return;
    this.#xidOf.delete(id);
    this.#idOf.delete(xid);
    this.#watch?.remove(xid);
  }

  #schedule(): void {
    const busy = this.#xidOf.size > 0 || this.#missing.size > 0;
    if (busy && this.#timer === undefined) {
      this.#timer = setInterval(() => this.#tick(), TICK_MS);
      Deno.unrefTimer(this.#timer); // never keeps a stopping driver alive
    } else if (!busy && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #tick(): void {
    try {
      this.#deliver(false);
      const now = performance.now();
      for (const [id, m] of this.#missing) if (now >= m.next) this.#add(id, true);
    } catch (err) {
      log("debug", "window placement check failed", { error: String(err) });
    }
    this.#schedule();
  }

  #deliver(sync: boolean): void {
    const x = this.#watch;
    if (!x) return;
    for (const xid of x.changed(sync)) {
      const id = this.#idOf.get(xid);
      const entry = id === undefined ? undefined : this.#entry(id);
      if (id !== undefined && entry) this.#placed(entry.app, id);
    }
    // A window X destroyed is no longer watched there: forget it here too.
    if (x.size === this.#idOf.size) return;
    const alive = new Set(x.watched);
    for (const [xid, id] of this.#idOf) {
      if (alive.has(xid)) continue;
      this.#idOf.delete(xid);
      this.#xidOf.delete(id);
    }
  }
}
