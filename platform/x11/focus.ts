/**
 * The keyboard focus: X sends keys to the focused window (or, with no window manager and
 * no focus set, to the window under the pointer), whichever app that is. Before keys
 * meant for a window are sent, that window is made the focus and the focus is read back;
 * while a long text is typed it is read back before every key. When the focus cannot be had,
 * or moves elsewhere meanwhile, the keys stop with `focus_denied`, naming who holds it:
 * keys meant for one app are never typed into another.
 *
 * With a window manager the request is EWMH's `_NET_ACTIVE_WINDOW` from a pager (source
 * indication 2): the window manager raises and focuses the window, and its own rules
 * decide (a modal dialog keeps the focus of its parent). `XSetInputFocus` behind its back
 * would be undone, or fight its stacking. With none, the window is raised and focused
 * with `XSetInputFocus` directly.
 *
 * @module
 */
import { checkX, cString } from "../../ffi/linux_x11.ts";
import { DriverError } from "../../protocol/errors.ts";
import { type X11Display, type X11Handle, x11Handle } from "./display.ts";
import { longs, property, queryTree } from "./window_props.ts";
import { activate, windowManager } from "./stacking.ts";
import { topLevelWindows } from "./top_level.ts";
import { windowBounds } from "./windows.ts";
import type { Bounds } from "../../protocol/element.ts";

/** The top-level client window keys are meant for. */
export interface FocusTarget {
  /** Its X window id (the client window, inside any frame). */
  xid: number;
  /** Its process, for the refusal's words. */
  pid: number;
  /** Its title, for the refusal's words. */
  title: string;
}

/** Who holds the keyboard: the top-level client window with the focus. */
export interface FocusHolder {
  /** The client window's X id; 0 when nothing holds the focus. */
  xid: number;
  /** `_NET_WM_PID`; 0 when unknown. */
  pid: number;
  /** Its title ("" when untitled or none). */
  title: string;
}

/** How long a focus request is waited for before the keys are refused. */
const FOCUS_WAIT_MS = 1_500;
const REVERT_TO_PARENT = 2;
const POINTER_ROOT = 1n;

/** The top-level client window that holds the keyboard focus now. */
export function focusHolder(display: X11Display): FocusHolder {
  const h = x11Handle(display);
  const focus = new BigUint64Array(1);
  h.x11.XGetInputFocus(h.dpy, focus, new Int32Array(1));
  let win = focus[0]!;
  // PointerRoot, or the root itself (where RevertToParent leaves the focus once a focused
  // top level is gone): X sends keys to the window under the pointer.
  if (win === POINTER_ROOT || win === h.root) win = underPointer(h);
  const client = win > POINTER_ROOT ? clientOf(h, win) : undefined;
  return client ?? { xid: 0, pid: 0, title: "" };
}

/** Client window `xid` as a focus target, named as X names it. */
export function focusTarget(display: X11Display, xid: number): FocusTarget {
  const named = clientOf(x11Handle(display), BigInt(xid));
  return { xid, pid: named?.pid ?? 0, title: named?.title ?? "" };
}

/** Does `holder` take keys meant for `target`? */
export function holds(holder: FocusHolder, target: FocusTarget): boolean {
  return holder.xid === target.xid;
}

/**
 * Makes `target` the keyboard focus and proves it, waiting at most
 * {@link FOCUS_WAIT_MS} (and the caller's deadline); throws `focus_denied` naming the
 * holder when the focus does not come.
 */
export async function takeFocus(
  display: X11Display,
  target: FocusTarget,
  signal: AbortSignal,
): Promise<void> {
  if (holds(focusHolder(display), target)) return;
  requestFocus(display, target.xid);
  const deadline = performance.now() + FOCUS_WAIT_MS;
  for (let pause = 2; performance.now() < deadline; pause = Math.min(pause * 2, 25)) {
    await new Promise((r) => setTimeout(r, pause));
    signal.throwIfAborted();
    if (holds(focusHolder(display), target)) return;
  }
  throw focusDenied(target, focusHolder(display), "it was asked for and did not come");
}

/**
 * A check to run before every key of a long input: throws `focus_denied` once `target` no
 * longer holds the focus. Checked between chunks of 64 keys only, a focus taken right
 * after a check sent the whole next chunk to the other app (64 keys into zenity). Each
 * check is one round trip while the focus stays where it was proven (two under
 * PointerRoot: the window under the pointer counts); the holder is worked out again only
 * when that changed.
 */
export function focusGuard(display: X11Display, target: FocusTarget): () => void {
  let proven: string | undefined;
  return () => {
    const now = focusKey(display);
    if (now === proven) return;
    const holder = focusHolder(display);
    if (!holds(holder, target)) throw focusDenied(target, holder, "it moved away while typing");
    proven = now;
  };
}

/** Where keys go now, as cheaply as X says it: the focus window, or the pointer's top level. */
function focusKey(display: X11Display): string {
  const h = x11Handle(display);
  const focus = new BigUint64Array(1);
  h.x11.XGetInputFocus(h.dpy, focus, new Int32Array(1));
  if (focus[0] !== POINTER_ROOT && focus[0] !== h.root) return `focus ${focus[0]}`;
  return `pointer ${topUnderPointer(h)}`;
}

/** Asks for the focus on `xid`: from the window manager when one runs, else from X. */
export function requestFocus(display: X11Display, xid: number): void {
  const h = x11Handle(display);
  if (windowManager(display) !== undefined) {
    activate(h, xid);
  } else {
    h.x11.XRaiseWindow(h.dpy, BigInt(xid));
    h.x11.XSetInputFocus(h.dpy, BigInt(xid), REVERT_TO_PARENT, 0n);
  }
  checkX(h.x11, h.dpy, `focus window 0x${xid.toString(16)}`);
}

/**
 * Process `pid`'s viewable client window that overlaps `b` (an accessibility API's
 * extents of the window) the most: for a window whose title X and the toolkit give
 * differently. Undefined when none overlaps.
 */
export function clientWindowAt(
  display: X11Display,
  pid: number,
  b: Bounds,
  title = "",
): number | undefined {
  const mine = topLevelWindows(display).filter((w) => w.pid === pid);
  // Qt titles its X window "Dialog — App" where the tree says "Dialog": such a one first.
  const named = title === "" ? [] : mine.filter((w) => w.title.startsWith(`${title} `));
  if (named.length === 1) return named[0]!.xid;
  let best: { xid: number; area: number } | undefined;
  for (const w of mine) {
    let at: Bounds;
    try {
      at = windowBounds(display, w.xid);
    } catch {
      continue; // Gone since it was listed.
    }
    const dx = Math.min(at.x + at.w, b.x + b.w) - Math.max(at.x, b.x);
    const dy = Math.min(at.y + at.h, b.y + b.h) - Math.max(at.y, b.y);
    const area = Math.max(0, dx) * Math.max(0, dy);
    if (area > 0 && (!best || area > best.area)) best = { xid: w.xid, area };
  }
  return best?.xid;
}

function focusDenied(target: FocusTarget, holder: FocusHolder, why: string): DriverError {
  const who = holder.xid === 0
    ? "no window"
    : `"${holder.title}"` + (holder.pid ? ` (pid ${holder.pid})` : "");
  return new DriverError(
    "focus_denied",
    `Cannot send keys to "${target.title}" (pid ${target.pid}): the keyboard focus is held by ` +
      `${who}; ${why}`,
    {
      holder: {
        x11_window: `0x${holder.xid.toString(16)}`,
        title: holder.title,
        pid: holder.pid,
      },
    },
  );
}

/** The root's child under the pointer (the top level, or its frame). */
function topUnderPointer(h: X11Handle): bigint {
  const child = new BigUint64Array(1);
  const out = new Int32Array(2);
  const ok = h.x11.XQueryPointer(
    h.dpy,
    h.root,
    new BigUint64Array(1),
    child,
    out.subarray(0, 1),
    out.subarray(1, 2),
    new Int32Array(1),
    new Int32Array(1),
    new Uint32Array(1),
  );
  return ok ? child[0]! : 0n;
}

/** The deepest window under the pointer (where PointerRoot focus sends keys). */
function underPointer(h: X11Handle): bigint {
  let win = h.root;
  const child = new BigUint64Array(1);
  const out = new Int32Array(2);
  for (let depth = 0; depth < 8; depth++) {
    const ok = h.x11.XQueryPointer(
      h.dpy,
      win,
      new BigUint64Array(1),
      child,
      out.subarray(0, 1),
      out.subarray(1, 2),
      new Int32Array(1),
      new Int32Array(1),
      new Uint32Array(1),
    );
    if (!ok || child[0] === 0n) break;
    win = child[0]!;
  }
  return win;
}

/**
 * The client window (`WM_CLASS`) that `win` is or lies in. Toolkits focus a child of
 * their top level (Java's focus proxy), and under a window manager the focus can rest on
 * a frame, whose client is its child.
 */
function clientOf(h: X11Handle, win: bigint): FocusHolder | undefined {
  const atom = (name: string) => h.x11.XInternAtom(h.dpy, cString(name), 0);
  const wmClass = atom("WM_CLASS");
  const isClient = (w: bigint) => property(h, w, wmClass) !== undefined;
  let client: bigint | undefined;
  for (let w = win; w !== 0n && w !== h.root;) {
    if (isClient(w)) client = w; // The outermost one: a toolkit may name inner windows too.
    const links = queryTree(h, w);
    if (!links) break;
    if (links.parent === h.root) {
      // `w` is a top level: a frame holds its client as a child.
      client ??= queryTree(h, w)?.children.find(isClient);
      break;
    }
    w = links.parent;
  }
  if (client === undefined) return undefined;
  const net = property(h, client, atom("_NET_WM_NAME"));
  const title = new TextDecoder().decode(
    net?.bytes ?? property(h, client, atom("WM_NAME"))?.bytes ?? new Uint8Array(),
  );
  const pid = property(h, client, atom("_NET_WM_PID"));
  return { xid: Number(client), pid: Number((pid && longs(pid)[0]) ?? 0n), title };
}
