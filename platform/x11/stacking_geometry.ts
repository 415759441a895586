/**
 * Rectangle arithmetic of the stacking checks, kept apart from X so it is unit-tested
 * without a display.
 *
 * @module
 */
import type { Bounds } from "../../protocol/element.ts";

/** The part `a` and `b` share, or `undefined` when they share no area. */
export function overlap(a: Bounds, b: Bounds): Bounds | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.w, b.x + b.w);
  const bottom = Math.min(a.y + a.h, b.y + b.h);
  return right > x && bottom > y ? { x, y, w: right - x, h: bottom - y } : undefined;
}
