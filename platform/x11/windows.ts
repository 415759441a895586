/**
 * X window lookups the capture and the app list need: a window's absolute bounds, and
 * the viewable windows a process owns (`_NET_WM_PID`).
 *
 * @module
 */
import { checkStatus, checkX } from "../../ffi/linux_x11.ts";
import type { Bounds } from "../../protocol/element.ts";
import { type X11Display, x11Handle } from "./display.ts";
import { topLevelWindows } from "./top_level.ts";
import { geometry, screenOrigin } from "./window_props.ts";

/**
 * Screen rectangle of window `xid` (inside its border), in screen points. Throws
 * `window_not_found` when the window does not exist.
 */
export function windowBounds(display: X11Display, xid: number): Bounds {
  const h = x11Handle(display);
  const win = BigInt(xid);
  const inParent = geometry(h, win);
  const at = inParent && screenOrigin(h, win);
  checkX(h.x11, h.dpy, `read the geometry of window 0x${xid.toString(16)}`);
  checkStatus(at ? 1 : 0, `read the geometry of window 0x${xid.toString(16)}`);
  return { x: at!.x, y: at!.y, w: inParent!.w, h: inParent!.h };
}

/**
 * Viewable client windows of process `pid` (by `_NET_WM_PID`), in stacking order. Apps
 * that do not set the property (xcalc) are not found this way.
 */
export function windowsForPid(display: X11Display, pid: number): number[] {
  return topLevelWindows(display).filter((w) => w.pid === pid).map((w) => w.xid);
}
