/**
 * Layout that moves with no notification. An action that starts an animation (an
 * accordion sliding open, a page scrolling smoothly) changes bounds no toolkit announces:
 * Chromium and Gecko post nothing while CSS animates, and Chromium publishes new bounds
 * only every ~100 ms. A map read once after the action would keep the first frame's
 * geometry for as long as nothing else happens.
 *
 * So an action whose read shows a container cut short of its content, or elements moved
 * with nothing resized, added or gone to explain it, leaves its window "in motion": its
 * map is fresh for {@link MOTION_READ_MS} after each read, then read again in full, until
 * a read at least {@link MOTION_STILL_MS} after the last move finds every element where it
 * was, or {@link MOTION_MAX_MS} have passed. Answers say `live.moving: true` meanwhile.
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

/**
 * How long nothing must have moved to end motion that a change of content may explain (see
 * {@link startMotion}): one read this much later tells a jump from a slide. Gecko reports
 * bounds as they are at each call, and a CSS transition moves a few points in this time.
 */
export const MOTION_CONFIRM_MS = 60;

/** How long after the action motion is followed at most (longer animations are left). */
export const MOTION_MAX_MS = 2_000;

/** A window whose elements were seen moving, `performance.now()` times. */
export interface Motion {
  /** When a read last found an element moved. */
  lastMove: number;
  /** When following stops whatever the reads find. */
  until: number;
  /**
   * How long nothing must move for motion to end: {@link MOTION_STILL_MS} once it is sure to
   * be an animation, {@link MOTION_CONFIRM_MS} while a change of content may explain it.
   */
  stillMs: number;
}

/** What a read shows changed in the layout since an earlier one. */
export interface Moves {
  /** A container that is new or changed is cut short of its content: a reflow under way. */
  reflow: boolean;
  /** An element that was there has other bounds. */
  moved: boolean;
  /** An element appeared or went, or one that was there changed size. */
  reshaped: boolean;
}

/** A sliver is at most this thick (points): an animation's first frames. */
const SLIVER = 2;
/** How far past a container's right edge (a share of its width) content shows it cut short. */
const OVERFLOW_SHARE = 0.25;

const key = (n: RawNode) => `${n.bounds.x},${n.bounds.y},${n.bounds.w},${n.bounds.h}`;
const size = (k: string) => k.split(",").slice(2).join(",");

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

/**
 * True when `n` is cut short of its content, as a panel is while its height is animated:
 * a child reaches past its bottom by more than a sliver or past its right edge by more than
 * a quarter of its width, or it is itself a sliver (Chromium shows an opening panel's first frame at 1–2 pt with its content not yet
 * exposed). A separator is thin by nature.
 */
function cutShort(n: RawNode): boolean {
  const { x, y, w, h } = n.bounds;
  if (w <= 0 || h <= 0) return false;
  if ((h <= SLIVER) !== (w <= SLIVER) && n.role !== "AXSplitter") return true;
  // Static layouts overflow sideways by a few points (a tab's link 4 pt past its tab): only
  // content reaching well past the right edge is a panel cut short. Height is what panels
  // animate, and Gecko's frames may show one cut short by little: any depth counts there.
  const right = Math.max(SLIVER, w * OVERFLOW_SHARE);
  return n.children.some((c) =>
    c.bounds.w > 0 && c.bounds.h > 0 &&
    (c.bounds.y + c.bounds.h > y + h + SLIVER || c.bounds.x + c.bounds.w > x + w + right)
  );
}

/**
 * What `after` shows changed since the tree `was` indexes. A container that clipped before
 * and did not change is a scrolled list, not a reflow.
 */
export function movesSince(was: BoundsIndex, after: RawNode): Moves {
  const moves: Moves = { reflow: false, moved: false, reshaped: false };
  let kept = 0;
  const visit = (n: RawNode) => {
    const then = was.get(n.handle);
    if (then === undefined) moves.reshaped = true;
    else kept++;
    const changed = then !== undefined && then !== key(n);
    if (changed) {
      moves.moved = true;
      if (size(then) !== size(key(n))) moves.reshaped = true;
    }
    if ((then === undefined || changed) && !moves.reflow && cutShort(n)) moves.reflow = true;
    n.children.forEach(visit);
  };
  visit(after);
  if (kept < was.size) moves.reshaped = true;
  return moves;
}

/**
 * Motion that starts at `now` when an action's read shows `moves` (see {@link movesSince}),
 * or undefined when nothing moved. A container cut short of its content, or elements that
 * moved with nothing to explain it, are an animation's first frame. Elements moved while
 * content appeared, went or changed size may be either: most often the layout jumped to
 * where it rests (a form grown around the text that appeared in it), but a panel may be
 * sliding open with its content not yet exposed (Gecko). That motion is confirmed by one
 * read {@link MOTION_CONFIRM_MS} later rather than waited out in full, so a jump holds
 * pointer input back by one read, not by an animation's worth.
 */
export function startMotion(moves: Moves, now: number): Motion | undefined {
  if (!moves.reflow && !moves.moved) return undefined;
  const sure = moves.reflow || !moves.reshaped;
  return {
    lastMove: now,
    until: now + MOTION_MAX_MS,
    stillMs: sure ? MOTION_STILL_MS : MOTION_CONFIRM_MS,
  };
}

/**
 * Motion after a read at `now` that found `moves`; undefined once it ended: the read came
 * the motion's still span after the last move and found nothing moved, or time is up. A
 * move seen again makes the motion sure.
 */
export function nextMotion(m: Motion, moves: Moves, now: number): Motion | undefined {
  if (now >= m.until) return undefined;
  if (moves.reflow || moves.moved) return { ...m, lastMove: now, stillMs: MOTION_STILL_MS };
  return now - m.lastMove >= m.stillMs ? undefined : m;
}

/** How long after a read at `readAt` the map of a window in motion `m` is read again. */
function readEvery(m: Motion): number {
  return Math.min(MOTION_READ_MS, m.stillMs);
}

/** True when the map of a window in motion, read at `readAt`, is due to be read again. */
export function motionDue(m: Motion | undefined, readAt: number, now: number): boolean {
  return m !== undefined && now < m.until && now - readAt >= readEvery(m);
}

/** How long from `now` until the map of a window in motion, read at `readAt`, is due. */
export function motionWaitMs(m: Motion, readAt: number, now: number): number {
  return Math.max(0, readAt + readEvery(m) - now);
}
