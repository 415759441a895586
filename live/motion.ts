/**
 * Layout that moves with no notification. An action that starts an animation (an
 * accordion sliding open, a page scrolling smoothly) changes bounds no toolkit announces:
 * Chromium and Gecko post nothing while CSS animates, and Chromium publishes new bounds
 * only every ~100 ms. A map read once after the action would keep the first frame's
 * geometry for as long as nothing else happens.
 *
 * So an action whose read shows elements moved leaves its window "in motion": its map is
 * fresh for {@link MOTION_READ_MS} after each read, then read again in full, until a read
 * at least {@link MOTION_STILL_MS} after the last move finds every element where it was,
 * or {@link MOTION_MAX_MS} have passed. Answers say `live.moving: true` meanwhile.
 *
 * @module
 */
import type { RawNode } from "../model/engine.ts";

/** How long a map in motion is trusted before it is read again. */
export const MOTION_READ_MS = 100;

/**
 * How long nothing must have moved for motion to end: Chromium publishes the bounds of an
 * animating page every 130–170 ms (measured on a CSS accordion), so a read sooner than
 * that can find nothing moved in the middle of an animation.
 */
export const MOTION_STILL_MS = 200;

/** How long after the action motion is followed at most (longer animations are left). */
export const MOTION_MAX_MS = 2_000;

/** A window whose elements were seen moving, `performance.now()` times. */
export interface Motion {
  /** When a read last found an element moved. */
  lastMove: number;
  /** When following stops whatever the reads find. */
  until: number;
}

/** A sliver is at most this thick (points): an animation's first frames. */
const SLIVER = 2;

const key = (n: RawNode) => `${n.bounds.x},${n.bounds.y},${n.bounds.w},${n.bounds.h}`;

/** Each node's bounds by handle, as a tree has them now (patches change trees in place). */
export type BoundsIndex = ReadonlyMap<string, string>;

/** The bounds index of `tree`, to compare a later read with. */
export function boundsOf(tree: RawNode): BoundsIndex {
  const was = new Map<string, string>();
  const collect = (n: RawNode) => {
    was.set(n.handle, key(n));
    n.children.forEach(collect);
  };
  collect(tree);
  return was;
}

/** True when a node present in both trees (same handle) has other bounds in `after`. */
export function moved(before: RawNode, after: RawNode): boolean {
  const was = boundsOf(before);
  const differs = (n: RawNode): boolean => {
    const then = was.get(n.handle);
    return (then !== undefined && then !== key(n)) || n.children.some(differs);
  };
  return differs(after);
}

/**
 * A container a sliver thick whose children are larger: something opening (an accordion's
 * panel at 1 pt, its text at full height). Chromium may not have moved anything else yet.
 */
function opening(n: RawNode): boolean {
  const { w, h } = n.bounds;
  if (w <= 0 || h <= 0 || (w > SLIVER && h > SLIVER)) return false;
  return n.children.some((c) =>
    (h <= SLIVER && c.bounds.h > h + SLIVER) || (w <= SLIVER && c.bounds.w > w + SLIVER)
  );
}

/**
 * True when an action's read (`after`; `was` indexes the tree it planned on) shows the start of
 * a move: an element that was there has other bounds, or a new one is opening.
 */
export function startsMoving(was: BoundsIndex, after: RawNode): boolean {
  const starts = (n: RawNode): boolean => {
    const then = was.get(n.handle);
    if (then === undefined ? opening(n) : then !== key(n)) return true;
    return n.children.some(starts);
  };
  return starts(after);
}

/** Motion that starts now, when an action's read found elements moved. */
export function startMotion(now: number): Motion {
  return { lastMove: now, until: now + MOTION_MAX_MS };
}

/**
 * Motion after a read at `now` that found elements `didMove`; undefined once it ended: the
 * read came {@link MOTION_STILL_MS} after the last move and found nothing moved, or time
 * is up.
 */
export function nextMotion(m: Motion, didMove: boolean, now: number): Motion | undefined {
  if (now >= m.until) return undefined;
  if (didMove) return { ...m, lastMove: now };
  return now - m.lastMove >= MOTION_STILL_MS ? undefined : m;
}

/** True when the map of a window in motion, read at `readAt`, is due to be read again. */
export function motionDue(m: Motion | undefined, readAt: number, now: number): boolean {
  return m !== undefined && now < m.until && now - readAt >= MOTION_READ_MS;
}
