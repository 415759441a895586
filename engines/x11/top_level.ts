/**
 * The client windows on screen, from X itself: what lists apps that have no
 * accessibility tree (plain Xt/Athena apps such as xcalc, terminals, games). A client
 * window is one with `WM_CLASS`; under a reparenting window manager it sits below a frame,
 * so frames without the property are searched a few levels down.
 *
 * @module
 */
import { checkX, cString } from "../../ffi/linux_x11.ts";
import { isDriverError } from "../../protocol/errors.ts";
import { type X11Display, type X11Handle, x11Handle } from "./display.ts";

/** A top-level client window as X describes it. */
export interface TopLevelWindow {
  /** The X window id. */
  xid: number;
  /** `_NET_WM_NAME`, else `WM_NAME` ("" when neither is set). */
  title: string;
  /** `WM_CLASS` instance name (`xcalc`), what a caller types to name the app. */
  instance: string;
  /** `WM_CLASS` class name (`XCalc`). */
  className: string;
  /** `_NET_WM_PID`; 0 when the client did not set it (Xt apps don't). */
  pid: number;
}

const ANY_TYPE = 0n;
const IS_VIEWABLE = 2;
/** `map_state` in XWindowAttributes on x86_64 (after 6 ints, Visual*, root, 4 ints, 3 longs, colormap, Bool). */
const MAP_STATE_OFFSET = 92;
/** sizeof(XWindowAttributes) is 136 on x86_64; room to spare. */
const ATTRIBUTES_SIZE = 160;
/** Root -> (WM frame ->) client: two levels below the root cover reparenting WMs. */
const MAX_DEPTH = 3;
/** Longest property read, in 32-bit units (titles longer than 4 KiB are cut). */
const MAX_PROPERTY = 1024n;

/** Viewable client windows, in stacking order (bottom first). Vanishing windows are skipped. */
export function topLevelWindows(display: X11Display): TopLevelWindow[] {
  const h = x11Handle(display);
  const atom = (name: string) => h.x11.XInternAtom(h.dpy, cString(name), 0);
  const atoms = {
    wmClass: atom("WM_CLASS"),
    wmName: atom("WM_NAME"),
    netName: atom("_NET_WM_NAME"),
    pid: atom("_NET_WM_PID"),
  };
  const found: TopLevelWindow[] = [];
  const walk = (win: bigint, depth: number) => {
    for (const child of children(h, win)) {
      if (!viewable(h, child)) continue;
      const cls = property(h, child, atoms.wmClass);
      if (cls === undefined) {
        if (depth < MAX_DEPTH) walk(child, depth + 1);
        continue;
      }
      const [instance = "", className = ""] = latin1(cls.bytes).split("\0");
      const net = property(h, child, atoms.netName);
      const title = net !== undefined
        ? new TextDecoder().decode(net.bytes)
        : latin1(property(h, child, atoms.wmName)?.bytes ?? new Uint8Array());
      const pid = property(h, child, atoms.pid);
      found.push({
        xid: Number(child),
        title,
        instance,
        className,
        pid: pid !== undefined && pid.format === 32 && pid.bytes.length >= 8
          ? Number(new DataView(pid.bytes.buffer).getBigUint64(0, true))
          : 0,
      });
    }
  };
  walk(h.root, 1);
  try {
    checkX(h.x11, h.dpy, "list top-level windows");
  } catch (err) {
    if (!isDriverError(err, "window_not_found")) throw err;
  }
  return found;
}

/** The window the window manager marks active (`_NET_ACTIVE_WINDOW`), when there is one. */
export function activeWindow(display: X11Display): number | undefined {
  const h = x11Handle(display);
  const atom = h.x11.XInternAtom(h.dpy, cString("_NET_ACTIVE_WINDOW"), 1);
  if (atom === 0n) return undefined;
  const value = property(h, h.root, atom);
  if (value === undefined || value.format !== 32 || value.bytes.length < 8) return undefined;
  const xid = Number(new DataView(value.bytes.buffer).getBigUint64(0, true));
  return xid === 0 ? undefined : xid;
}

function latin1(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
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

/**
 * A property's raw items. Format-32 items arrive as C longs (8 bytes each on x86_64);
 * format-8 items as bytes. `undefined` when the window lacks it.
 */
function property(
  { x11, dpy }: X11Handle,
  win: bigint,
  atom: bigint,
): { format: number; bytes: Uint8Array } | undefined {
  const type = new BigUint64Array(1);
  const format = new Int32Array(1);
  const counts = new BigUint64Array(2);
  const prop = new BigUint64Array(1);
  const status = x11.XGetWindowProperty(
    dpy,
    win,
    atom,
    0n,
    MAX_PROPERTY,
    0,
    ANY_TYPE,
    type,
    format,
    counts.subarray(0, 1),
    counts.subarray(1, 2),
    prop,
  );
  const ptr = Deno.UnsafePointer.create(prop[0]!);
  if (ptr === null) return undefined;
  try {
    if (status !== 0 || type[0] === 0n) return undefined;
    const unit = format[0] === 32 ? 8 : format[0] === 16 ? 2 : 1;
    const bytes = new Uint8Array(Number(counts[0]!) * unit);
    Deno.UnsafePointerView.copyInto(ptr, bytes);
    return { format: format[0]!, bytes };
  } finally {
    x11.XFree(ptr);
  }
}
