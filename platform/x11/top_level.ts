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
import { attributes, longs, property, queryTree } from "./window_props.ts";

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
  /** `WM_TRANSIENT_FOR`: the window a dialog or popup belongs to, when it says. */
  transientFor?: number;
  /**
   * `_NET_WM_STATE` holds `_NET_WM_STATE_MODAL`: the client asked for a modal window. Qt
   * sets it on a dialog it runs modal, while its accessibility bridge never says MODAL.
   */
  modal?: true;
  /** Not viewable (listed only when asked for, see {@link topLevelWindows}). */
  unmapped?: true;
}

/** Root -> (WM frame ->) client: two levels below the root cover reparenting WMs. */
const MAX_DEPTH = 3;

/**
 * Viewable client windows, in stacking order (bottom first). Vanishing windows are skipped.
 * With `unmapped`, the others too, marked so: an app's window is on the accessibility bus
 * before the window manager has framed and mapped it.
 */
export function topLevelWindows(
  display: X11Display,
  options: { unmapped?: boolean } = {},
): TopLevelWindow[] {
  const h = x11Handle(display);
  const atom = (name: string) => h.x11.XInternAtom(h.dpy, cString(name), 0);
  const atoms = {
    wmClass: atom("WM_CLASS"),
    wmName: atom("WM_NAME"),
    netName: atom("_NET_WM_NAME"),
    pid: atom("_NET_WM_PID"),
    transientFor: atom("WM_TRANSIENT_FOR"),
    state: atom("_NET_WM_STATE"),
    modal: atom("_NET_WM_STATE_MODAL"),
  };
  const found: TopLevelWindow[] = [];
  const walk = (win: bigint, depth: number) => {
    for (const child of queryTree(h, win)?.children ?? []) {
      const shown = viewable(h, child);
      if (!shown && !options.unmapped) continue;
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
      const owner = property(h, child, atoms.transientFor);
      const transientFor = owner && longs(owner)[0];
      const state = property(h, child, atoms.state);
      const modal = state !== undefined && longs(state).includes(atoms.modal);
      found.push({
        xid: Number(child),
        title,
        instance,
        className,
        pid: Number((pid && longs(pid)[0]) ?? 0n),
        ...(transientFor ? { transientFor: Number(transientFor) } : {}),
        ...(modal ? { modal: true as const } : {}),
        ...(shown ? {} : { unmapped: true as const }),
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

/**
 * The root's children (top levels, or the frames around them), mapped or not: one round
 * trip, where {@link topLevelWindows} asks each window (15-20 ms under a window manager).
 * A window that appears shows here as a new id.
 */
export function rootChildren(display: X11Display): number[] {
  const h = x11Handle(display);
  return (queryTree(h, h.root)?.children ?? []).map(Number);
}

/**
 * The client windows (`WM_CLASS`) that root children `tops` are or hold: a top level
 * itself, or the client a window manager's frame holds a level or two down.
 */
export function clientsOf(display: X11Display, tops: readonly number[]): number[] {
  const h = x11Handle(display);
  const wmClass = h.x11.XInternAtom(h.dpy, cString("WM_CLASS"), 0);
  const out: number[] = [];
  const find = (win: bigint, depth: number): void => {
    if (property(h, win, wmClass) !== undefined) {
      out.push(Number(win));
      return;
    }
    if (depth === 0) return;
    for (const child of queryTree(h, win)?.children ?? []) find(child, depth - 1);
  };
  for (const top of tops) find(BigInt(top), MAX_DEPTH - 1);
  return out;
}

/** The window the window manager marks active (`_NET_ACTIVE_WINDOW`), when there is one. */
export function activeWindow(display: X11Display): number | undefined {
  const h = x11Handle(display);
  const atom = h.x11.XInternAtom(h.dpy, cString("_NET_ACTIVE_WINDOW"), 1);
  if (atom === 0n) return undefined;
  const value = property(h, h.root, atom);
  const xid = Number((value && longs(value)[0]) ?? 0n);
  return xid === 0 ? undefined : xid;
}

function latin1(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}

function viewable(h: X11Handle, win: bigint): boolean {
  return attributes(h, win)?.viewable === true;
}
