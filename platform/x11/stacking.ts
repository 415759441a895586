/**
 * Which window is on top at a screen point, and raising one: a pixel click lands on
 * whatever is on top, so the engine checks the point belongs to the element's app first.
 *
 * @module
 */
import { checkX } from "../../ffi/linux_x11.ts";
import type { Bounds } from "../../protocol/element.ts";
import { type X11Display, x11Handle } from "./display.ts";
import { type TopLevelWindow, topLevelWindows } from "./top_level.ts";
import { windowBounds } from "./windows.ts";

/** A top-level window with its screen rectangle. */
export interface PlacedWindow extends TopLevelWindow {
  /** Screen rectangle. */
  bounds: Bounds;
}

const contains = (b: Bounds, x: number, y: number) =>
  x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h;

/** The viewable top-level windows at screen point (x, y), the one on top first. */
export function windowsAt(display: X11Display, x: number, y: number): PlacedWindow[] {
  const out: PlacedWindow[] = [];
  const all = topLevelWindows(display);
  for (let i = all.length - 1; i >= 0; i--) {
    const w = all[i]!;
    let bounds: Bounds;
    try {
      bounds = windowBounds(display, w.xid);
    } catch {
      continue; // Gone since it was listed.
    }
    if (contains(bounds, x, y)) out.push({ ...w, bounds });
  }
  return out;
}

/** Puts window `xid` on top of its siblings. */
export function raiseWindow(display: X11Display, xid: number): void {
  const { x11, dpy } = x11Handle(display);
  x11.XRaiseWindow(dpy, BigInt(xid));
  checkX(x11, dpy, `raise window ${xid}`);
}
