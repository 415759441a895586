/**
 * Windows the window system placed (moved, resized, reparented into a frame) with no word
 * from their app: when, and whether the map read since can be trusted.
 *
 * The engine says so with a `placed` event (X's ConfigureNotify and ReparentNotify, heard
 * for watched windows only); the window is then read in full. A toolkit that keeps its
 * own copy of the window's place (Qt updates it when its event loop gets to the
 * ConfigureNotify, after X has already moved the window) may answer the old place for a
 * moment, so a map read within {@link PLACED_SETTLE_MS} of the placement is read once
 * more after that, when someone asks for it.
 *
 * @module
 */

/** How long after a placement a toolkit may still answer the window's old place. */
export const PLACED_SETTLE_MS = 150;

/** Window id → when it was last placed (`performance.now()`). */
export class Placements {
  readonly #at = new Map<string, number>();

  /** Records that `window` was placed at `now`. */
  mark(window: string, now: number): void {
    this.#at.set(window, now);
  }

  /** When `window` was last placed, if not confirmed since. */
  at(window: string): number | undefined {
    return this.#at.get(window);
  }

  /**
   * Is a map of `window` read at `readAt` owed one more read at `now`: read too soon
   * after the last placement to trust, and that time over?
   */
  due(window: string, readAt: number, now: number): boolean {
    const at = this.#at.get(window);
    return at !== undefined && readAt < at + PLACED_SETTLE_MS && now >= at + PLACED_SETTLE_MS;
  }

  /**
   * Forgets placements that a later read confirmed (`readAt` answers when a window's map
   * was read, undefined for a window no longer watched) and those of windows gone,
   * except the ones `keep` names (a first read under way).
   */
  sweep(readAt: (window: string) => number | undefined, keep: (window: string) => boolean): void {
    for (const [id, at] of this.#at) {
      const read = readAt(id);
      const confirmed = read !== undefined && read >= at + PLACED_SETTLE_MS;
      if (confirmed || (read === undefined && !keep(id))) this.#at.delete(id);
    }
  }
}
