/**
 * Rectangle helpers of AT-SPI pointer input, and the uncover check every engine shares
 * (platform/x11/uncover.ts): a pixel click lands on whatever window is on top at its
 * point, so the element's window is raised first, or the input refused with `obscured`.
 *
 * @module
 */
import type { Bounds } from "../../protocol/element.ts";

export { uncover } from "../../platform/x11/mod.ts";

/** Is `b` no area: a point or a line, or the -1 extents of a toolkit that gives none? */
export const isEmpty = (b: Bounds): boolean => b.w <= 0 || b.h <= 0;

/** The part of `b` inside `clip` (empty when they do not meet). */
export function visiblePart(b: Bounds, clip: Bounds): Bounds {
  const x = Math.max(b.x, clip.x);
  const y = Math.max(b.y, clip.y);
  const right = Math.min(b.x + b.w, clip.x + clip.w);
  const bottom = Math.min(b.y + b.h, clip.y + clip.h);
  return { x, y, w: Math.max(0, right - x), h: Math.max(0, bottom - y) };
}
