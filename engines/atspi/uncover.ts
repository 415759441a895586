/**
 * A pixel click lands on whatever window is on top at its point. Before the engine sends
 * pointer input for an element, it checks the X stacking order at that point: when
 * another app's window covers it, the element's own window is raised and the point
 * checked again; when it is still covered, the input is refused with `obscured`, naming
 * the cover, rather than clicking the cover and calling it done.
 *
 * @module
 */
import type { PixelInput } from "../../model/engine.ts";
import type { Bounds } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import { raiseWindow, windowsAt, type X11Display } from "../../platform/x11/mod.ts";

/** The screen point pointer input lands on, when it has one. */
function pointOf(input: PixelInput): { x: number; y: number } | undefined {
  switch (input.kind) {
    case "click":
    case "move":
      return { x: input.x, y: input.y };
    case "drag":
      return input.from;
    default:
      return undefined;
  }
}

/**
 * Makes sure pointer `input` lands on a window of process `pid`: raises its window when
 * another app's covers the point, throws `obscured` when that does not help.
 */
export function uncover(display: X11Display, input: PixelInput, pid: number): void {
  const point = pointOf(input);
  if (!point) return;
  const at = windowsAt(display, point.x, point.y);
  const top = at[0];
  if (!top || top.pid === pid) return;
  const own = at.find((w) => w.pid === pid);
  // A window without _NET_WM_PID (plain Xt apps) on top of one that has none either: who
  // owns what cannot be told, and the click goes ahead as before.
  if (!own && top.pid === 0) return;
  if (own) {
    raiseWindow(display, own.xid);
    if (windowsAt(display, point.x, point.y)[0]?.pid === pid) return;
  }
  throw new DriverError(
    "obscured",
    `The element at (${point.x}, ${point.y}) is covered by "${top.title || top.instance}"` +
      (top.pid ? ` (pid ${top.pid})` : ""),
    // The cover's X window id, as xwininfo and xdotool print it.
    { covering: { x11_window: `0x${top.xid.toString(16)}`, title: top.title, pid: top.pid } },
  );
}

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
