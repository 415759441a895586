/**
 * X window lookups the capture and the app list need: a window's absolute bounds, and
 * the viewable windows a process owns (`_NET_WM_PID`).
 *
 * @module
 */
import { checkStatus, checkX, cString } from "../../ffi/linux_x11.ts";
import { isDriverError } from "../../protocol/errors.ts";
import type { Bounds } from "../../protocol/element.ts";
import { type X11Display, type X11Handle, x11Handle } from "./display.ts";

const XA_CARDINAL = 6n;
const IS_VIEWABLE = 2;
/** `map_state` in XWindowAttributes on x86_64 (after 6 ints, Visual*, root, 4 ints, 3 longs, colormap, Bool). */
const MAP_STATE_OFFSET = 92;
/** sizeof(XWindowAttributes) is 136 on x86_64; room to spare. */
const ATTRIBUTES_SIZE = 160;
/** Root -> (WM frame ->) client: two levels below the root cover reparenting WMs. */
const MAX_DEPTH = 3;

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
 * Viewable windows whose `_NET_WM_PID` is `pid`, outermost first. Windows that vanish
 * during the walk are skipped. Empty when no client set the property.
 */
export function windowsForPid(display: X11Display, pid: number): number[] {
  const h = x11Handle(display);
  const atom = h.x11.XInternAtom(h.dpy, cString("_NET_WM_PID"), 1);
  if (atom === 0n) return [];
  const found: number[] = [];
  const walk = (win: bigint, depth: number) => {
    for (const child of children(h, win)) {
      if (!viewable(h, child)) continue;
      if (wmPid(h, child, atom) === pid) found.push(Number(child));
      else if (depth < MAX_DEPTH) walk(child, depth + 1);
    }
  };
  walk(h.root, 1);
  try {
    checkX(h.x11, h.dpy, "list windows");
  } catch (err) {
    if (!isDriverError(err, "window_not_found")) throw err;
  }
  return found;
}

function children({ x11, dpy }: X11Handle, win: bigint): bigint[] {
  const ids = new BigUint64Array(2);
  const list = new BigUint64Array(1);
  const count = new Uint32Array(1);
  const ok = x11.XQueryTree(dpy, win, ids.subarray(0, 1), ids.subarray(1, 2), list, count);
  const ptr = Deno.UnsafePointer.create(list[0]!);
  if (!ok || ptr === null) return [];
  try {
    const out = new BigUint64Array(count[0]!);
    Deno.UnsafePointerView.copyInto(ptr, out);
    return [...out];
  } finally {
    x11.XFree(ptr);
  }
}

function viewable({ x11, dpy }: X11Handle, win: bigint): boolean {
  const attrs = new Uint8Array(ATTRIBUTES_SIZE);
  if (!x11.XGetWindowAttributes(dpy, win, attrs)) return false;
  return new DataView(attrs.buffer).getInt32(MAP_STATE_OFFSET, true) === IS_VIEWABLE;
}

function wmPid({ x11, dpy }: X11Handle, win: bigint, atom: bigint): number | undefined {
  const type = new BigUint64Array(1);
  const format = new Int32Array(1);
  const counts = new BigUint64Array(2);
  const prop = new BigUint64Array(1);
  const status = x11.XGetWindowProperty(
    dpy,
    win,
    atom,
    0n,
    1n,
    0,
    XA_CARDINAL,
    type,
    format,
    counts.subarray(0, 1),
    counts.subarray(1, 2),
    prop,
  );
  const ptr = Deno.UnsafePointer.create(prop[0]!);
  if (ptr === null) return undefined;
  try {
    // Format-32 items are C longs in Xlib's buffer: 8 bytes each on x86_64.
    if (status !== 0 || format[0] !== 32 || counts[0] === 0n) return undefined;
    return Number(new Deno.UnsafePointerView(ptr).getBigUint64(0));
  } finally {
    x11.XFree(ptr);
  }
}
