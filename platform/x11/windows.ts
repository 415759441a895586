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

/**
 * Screen rectangle of window `xid` (inside its border), in screen points. Throws
 * `window_not_found` when the window does not exist.
 */
export function windowBounds(display: X11Display, xid: number): Bounds {
  const { x11, dpy, root } = x11Handle(display);
  const win = BigInt(xid);
  const geometryRoot = new BigUint64Array(1);
  const ints = new Int32Array(2);
  const sizes = new Uint32Array(4);
  const ok = x11.XGetGeometry(
    dpy,
    win,
    geometryRoot,
    ints.subarray(0, 1),
    ints.subarray(1, 2),
    sizes.subarray(0, 1),
    sizes.subarray(1, 2),
    sizes.subarray(2, 3),
    sizes.subarray(3, 4),
  );
  const abs = new Int32Array(2);
  const child = new BigUint64Array(1);
  const onScreen = ok &&
    x11.XTranslateCoordinates(dpy, win, root, 0, 0, abs.subarray(0, 1), abs.subarray(1, 2), child);
  checkX(x11, dpy, `read the geometry of window 0x${xid.toString(16)}`);
  checkStatus(onScreen, `read the geometry of window 0x${xid.toString(16)}`);
  return { x: abs[0]!, y: abs[1]!, w: sizes[0]!, h: sizes[1]! };
}

/**
 * Viewable client windows of process `pid` (by `_NET_WM_PID`), in stacking order. Apps
 * that do not set the property (xcalc) are not found this way.
 */
export function windowsForPid(display: X11Display, pid: number): number[] {
  return topLevelWindows(display).filter((w) => w.pid === pid).map((w) => w.xid);
}
