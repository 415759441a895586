/**
 * X's stacking order as the screen shows it: which window is on top at a point, which
 * windows cover part of another, and raising one. A pixel click lands on whatever is on
 * top, and a capture of a covered window shows the cover, so engines check here first.
 *
 * Under a reparenting window manager (openbox) a client window sits inside a frame, a
 * child of the root: frames are what is stacked, and a frame's title bar covers too. So
 * the stack is read from the root's children, each with the client it holds, and a raise
 * asks the window manager (`_NET_ACTIVE_WINDOW`) rather than restacking the client inside
 * its own frame, which changes nothing on screen.
 *
 * @module
 */
import { checkX, cString } from "../../ffi/linux_x11.ts";
import type { Bounds } from "../../protocol/element.ts";
import { isDriverError } from "../../protocol/errors.ts";
import { type X11Display, type X11Handle, x11Handle } from "./display.ts";
import { type TopLevelWindow, topLevelWindows } from "./top_level.ts";
import { attributes, geometry, longs, property, queryTree } from "./window_props.ts";
import { windowBounds } from "./windows.ts";
import { overlap } from "./stacking_geometry.ts";
import { clientMessage } from "./client_message.ts";

export { overlap } from "./stacking_geometry.ts";

/** A top-level window with the screen rectangle it paints. */
export interface PlacedWindow extends TopLevelWindow {
  /** Screen rectangle of its frame (its own, without a window manager). */
  bounds: Bounds;
  /** The root's child that holds it: its frame, or the window itself without a WM. */
  frame: number;
}

/** A window stacked above another and the part of the other it hides. */
export interface Cover {
  /** The covering window (a client, or a frame-less root child with no client). */
  window: PlacedWindow;
  /** The covered part of the window below, screen points. */
  part: Bounds;
}

const contains = (b: Bounds, x: number, y: number) =>
  x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h;

/** Root -> frame -> (wrapper ->) client: how deep a root child's client is looked for. */
const CLIENT_DEPTH = 3;

/** Paints pixels: viewable and not InputOnly (a WM's invisible input catchers). */
function paints(h: X11Handle, win: bigint): boolean {
  const attrs = attributes(h, win);
  return attrs !== undefined && attrs.viewable && !attrs.inputOnly;
}

/**
 * The screen rectangle root child `win` paints, its border included (an xterm's 1-pixel
 * border covers what is below it too); `undefined` when it is gone.
 */
function paintedBounds(h: X11Handle, win: bigint): Bounds | undefined {
  const g = geometry(h, win);
  // A root child's x, y are screen points of its border's outer corner.
  return g && { x: g.x, y: g.y, w: g.w + 2 * g.border, h: g.h + 2 * g.border };
}

/** The first window in `clients` at or below `win`, at most `depth` levels down. */
function clientIn(
  h: X11Handle,
  win: bigint,
  clients: Map<number, TopLevelWindow>,
  depth: number,
): TopLevelWindow | undefined {
  const found = clients.get(Number(win));
  if (found || depth === 0) return found;
  for (const child of queryTree(h, win)?.children ?? []) {
    const c = clientIn(h, child, clients, depth - 1);
    if (c) return c;
  }
  return undefined;
}

/**
 * Every root child that paints, top first, with the client window it holds (a root child
 * holding none, such as an override-redirect popup without `WM_CLASS`, stands for itself,
 * untitled, with the `_NET_WM_PID` it sets or 0: Chromium's drop-down sets only that, and
 * read as pid 0 its option counted as covered by a stranger's window, which raising the
 * browser below could not help). Windows that vanish while being listed are left out.
 */
export function stackingOrder(display: X11Display): PlacedWindow[] {
  const h = x11Handle(display);
  const clients = new Map(topLevelWindows(display).map((w) => [w.xid, w]));
  const out: PlacedWindow[] = [];
  const children = queryTree(h, h.root)?.children ?? [];
  for (let i = children.length - 1; i >= 0; i--) {
    const frame = children[i]!;
    if (!paints(h, frame)) continue;
    const client = clientIn(h, frame, clients, CLIENT_DEPTH) ??
      { xid: Number(frame), title: "", instance: "", className: "", pid: pidOn(h, frame) };
    const bounds = paintedBounds(h, frame);
    if (bounds) out.push({ ...client, bounds, frame: Number(frame) });
  }
  settle(h, "list the stacking order");
  return out;
}

/** `_NET_WM_PID` of `win`; 0 when it sets none. */
function pidOn(h: X11Handle, win: bigint): number {
  const pid = property(h, win, h.x11.XInternAtom(h.dpy, cString("_NET_WM_PID"), 0));
  return Number((pid && longs(pid)[0]) ?? 0n);
}

/** Drops X errors about windows that vanished meanwhile; throws any other. */
function settle(h: X11Handle, what: string): void {
  try {
    checkX(h.x11, h.dpy, what);
  } catch (err) {
    if (!isDriverError(err, "window_not_found")) throw err;
  }
}

/** The windows that paint at screen point (x, y), the one on top first. */
export function windowsAt(display: X11Display, x: number, y: number): PlacedWindow[] {
  return stackingOrder(display).filter((w) => contains(w.bounds, x, y));
}

/**
 * The windows stacked above client window `xid` that hide part of it, top first, each
 * with the part it hides. Empty when nothing covers it, or when `xid` is not on screen.
 */
export function coversOf(display: X11Display, xid: number): Cover[] {
  const stack = stackingOrder(display);
  const at = stack.findIndex((w) => w.xid === xid);
  if (at < 0) return [];
  const own = windowBounds(display, xid);
  const out: Cover[] = [];
  for (const w of stack.slice(0, at)) {
    const part = overlap(own, w.bounds);
    if (part) out.push({ window: w, part });
  }
  return out;
}

/** What {@link raiseWindow} waits for, and how long. */
export interface RaiseOptions {
  /** Raised enough (default: nothing covers the window any more). */
  until?: () => boolean;
  /** How long to wait for it, ms (default 1000). */
  timeoutMs?: number;
}

/**
 * Puts client window `xid` on top and waits (polling, up to the deadline) until the
 * stacking shows it there. With a window manager the raise is asked of it through
 * `_NET_ACTIVE_WINDOW` (source 2: a pager, which openbox obeys at once), and the frame is
 * raised directly if that did not do it by half time; without one, the window is raised.
 *
 * @returns whether `until` held before the deadline.
 */
export async function raiseWindow(
  display: X11Display,
  xid: number,
  options: RaiseOptions = {},
): Promise<boolean> {
  const h = x11Handle(display);
  const done = options.until ?? (() => coversOf(display, xid).length === 0);
  const timeoutMs = options.timeoutMs ?? 1000;
  const started = performance.now();
  const frame = stackingOrder(display).find((w) => w.xid === xid)?.frame ?? xid;
  const managed = windowManager(display) !== undefined;
  if (managed) activate(h, xid);
  else h.x11.XRaiseWindow(h.dpy, BigInt(frame));
  checkX(h.x11, h.dpy, `raise window 0x${xid.toString(16)}`);
  let framed = !managed;
  while (!done()) {
    const spent = performance.now() - started;
    if (spent >= timeoutMs) return false;
    if (!framed && spent >= timeoutMs / 2) {
      // A WM that ignores the request (a focus-stealing rule) may still honour a restack.
      framed = true;
      h.x11.XRaiseWindow(h.dpy, BigInt(frame));
      settle(h, `raise the frame of window 0x${xid.toString(16)}`);
    }
    // The WM restacks when it reads the request: poll, never a fixed sleep.
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

/**
 * The window manager's check window (`_NET_SUPPORTING_WM_CHECK` on the root, pointing at
 * a window that names itself the same way), or `undefined` when no EWMH WM runs: a stale
 * property left by a WM that exited points at a window that is gone.
 */
export function windowManager(display: X11Display): number | undefined {
  const h = x11Handle(display);
  const atom = h.x11.XInternAtom(h.dpy, cString("_NET_SUPPORTING_WM_CHECK"), 1);
  if (atom === 0n) return undefined;
  const onRoot = property(h, h.root, atom);
  const check = onRoot && longs(onRoot)[0];
  if (!check) return undefined;
  const self = property(h, check, atom);
  settle(h, "find the window manager");
  return self && longs(self)[0] === check ? Number(check) : undefined;
}

/** `_NET_ACTIVE_WINDOW` source indication: a pager, i.e. the user's own request. */
const SOURCE_PAGER = 2n;

/** Asks the window manager to activate (raise and focus) client window `xid`. */
export function activate(h: X11Handle, xid: number): void {
  // data.l[1], the timestamp, stays 0 (CurrentTime): a pager's request is not judged by it.
  clientMessage(h, xid, "_NET_ACTIVE_WINDOW", [SOURCE_PAGER]);
}
