/**
 * Bounds-notification bookkeeping for one bus: drops repeats and spots floods.
 *
 * Animated widgets (spinners, pulsing progress bars) make GTK post `BoundsChanged`
 * every frame, often with the very rect it posted last time. A repeat carries no news,
 * so it never dirties a window. A sustained flood still costs the driver a wake-up per
 * signal, so an app that keeps it up is muted for a while (its windows read as
 * degraded) instead of taxing every idle second.
 *
 * Pure logic with an injected clock: the engine owns the match rules and timers.
 *
 * @module
 */

/** Tunables; the defaults suit a driver that must idle under 0.5 % CPU. */
export interface FloodLimits {
  /** Bounds signals per second above which a second counts as flooded. */
  perSecond: number;
  /** Flooded seconds in a row before the app is muted. */
  seconds: number;
  /** Rects remembered per app before the oldest half is forgotten. */
  remember: number;
}

/** Defaults: 100 signals/s for 2 s in a row; 4,096 rects per app. */
export const FLOOD_LIMITS: FloodLimits = { perSecond: 100, seconds: 2, remember: 4_096 };

interface AppState {
  rects: Map<string, string>;
  bucketStart: number;
  count: number;
  flooded: number;
}

/** What one bounds signal means. */
export type BoundsVerdict = "news" | "repeat" | "flood";

/** Per-app memory of the last rect each node posted, and of the signal rate. */
export class BoundsFilter {
  readonly #apps = new Map<string, AppState>();
  /** The limits in force. */
  readonly limits: FloodLimits;
  readonly #now: () => number;

  /** `now` is a millisecond clock (injected for tests). */
  constructor(limits: FloodLimits = FLOOD_LIMITS, now: () => number = () => performance.now()) {
    this.limits = limits;
    this.#now = now;
  }

  /**
   * Classifies a `BoundsChanged` from `app` about `node` carrying `rect` (any stable
   * string form). `flood` is answered once, when the app crosses the limit; the caller
   * mutes it and calls {@link forget}.
   */
  see(app: string, node: string, rect: string): BoundsVerdict {
    const now = this.#now();
    let s = this.#apps.get(app);
    if (!s) {
      s = { rects: new Map(), bucketStart: now, count: 0, flooded: 0 };
      this.#apps.set(app, s);
    }
    if (now - s.bucketStart >= 1_000) {
      // A gap of more than one second breaks the run.
      const flooded = s.count > this.limits.perSecond && now - s.bucketStart < 2_000;
      s.flooded = flooded ? s.flooded + 1 : 0;
      s.bucketStart = now;
      s.count = 0;
    }
    s.count++;
    if (s.flooded >= this.limits.seconds) return "flood";
    if (s.rects.get(node) === rect) return "repeat";
    if (s.rects.size >= this.limits.remember) {
      let drop = s.rects.size / 2;
      for (const k of s.rects.keys()) {
        if (drop-- <= 0) break;
        s.rects.delete(k);
      }
    }
    s.rects.set(node, rect);
    return "news";
  }

  /**
   * Forgets what `app` posted. Needed whenever signals may have been missed (muted,
   * not followed, quit): a remembered rect would otherwise hide a real move back to it.
   */
  forget(app: string): void {
    this.#apps.delete(app);
  }
}
