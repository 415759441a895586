/**
 * Window operations on a client window: focus, raise, move, resize, minimize, maximize,
 * fullscreen, restore and close, each with and without a window manager, and the
 * window's state read back from X.
 *
 * With a window manager the window is its to place: each change is asked of it by EWMH
 * (`_NET_MOVERESIZE_WINDOW`, `_NET_WM_STATE`, `_NET_ACTIVE_WINDOW`) or ICCCM
 * (`WM_CHANGE_STATE` by `XIconifyWindow`), and its answer is what X shows afterwards.
 * Without one (a container's bare X server) nobody else places windows: the driver moves
 * and maps them itself, and remembers the size a maximized or fullscreen window had so
 * that `restore` can give it back (nothing in X keeps it then).
 *
 * @module
 */
import { checkX } from "../../ffi/linux_x11.ts";
import type { Bounds } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import { type X11Display, type X11Handle, x11Handle } from "./display.ts";
import { atomOf, clientMessage } from "./client_message.ts";
import { focusHolder, focusTarget, holds, requestFocus } from "./focus.ts";
import { activate, stackingOrder, windowManager } from "./stacking.ts";
import { attributes, longs, property } from "./window_props.ts";
import { windowBounds } from "./windows.ts";

/** What can be done to a window. */
export type WindowAction =
  | "focus"
  | "raise"
  | "move"
  | "resize"
  | "minimize"
  | "maximize"
  | "fullscreen"
  | "restore"
  | "close";

/** One window operation: the action, the place or size it needs, and `force` for close. */
export interface WindowRequest {
  action: WindowAction;
  /** New left and top of the window's inside (move). */
  x?: number | undefined;
  y?: number | undefined;
  /** New inside width and height (resize). */
  w?: number | undefined;
  h?: number | undefined;
  /** close: kill the window's X client instead of asking it to close. */
  force?: boolean | undefined;
}

/** A window's state as X shows it. */
export interface WindowFacts {
  /** The window still exists. */
  exists: boolean;
  /** Its inside, in screen points (zeros once it is gone). */
  bounds: Bounds;
  /** How it shows. */
  state: "normal" | "minimized" | "maximized" | "fullscreen";
  /** It holds the keyboard focus. */
  focused: boolean;
  /** Its place among the painted top-level windows: 0 on top; -1 when not painted. */
  stacking: number;
}

/** How a window was placed before the driver maximized it without a window manager. */
const unmanaged = new Map<string, { state: "maximized" | "fullscreen"; before: Bounds }>();
const keyOf = (display: X11Display, xid: number) => `${display.name}#${xid}`;

/** `_NET_WM_STATE` actions and `_NET_MOVERESIZE_WINDOW` flags (EWMH). */
const REMOVE = 0n;
const ADD = 1n;
const SOURCE_PAGER = 2n;
const STATIC_GRAVITY = 10n;

/** Reads window `xid`'s state from X. */
export function windowFacts(display: X11Display, xid: number): WindowFacts {
  const h = x11Handle(display);
  const attrs = attributes(h, BigInt(xid));
  const gone: WindowFacts = {
    exists: false,
    bounds: { x: 0, y: 0, w: 0, h: 0 },
    state: "normal",
    focused: false,
    stacking: -1,
  };
  if (!attrs) {
    settle(h);
    return gone;
  }
  // A closing window can vanish between two reads: that is an answer, not an error.
  let bounds: Bounds;
  try {
    bounds = windowBounds(display, xid);
  } catch (e) {
    if (attributes(h, BigInt(xid))) throw e;
    settle(h);
    return gone;
  }
  const states = netStates(h, xid);
  const own = unmanaged.get(keyOf(display, xid));
  const state = !attrs.viewable || states.has("_NET_WM_STATE_HIDDEN")
    ? "minimized"
    : states.has("_NET_WM_STATE_FULLSCREEN")
    ? "fullscreen"
    : states.has("_NET_WM_STATE_MAXIMIZED_VERT") && states.has("_NET_WM_STATE_MAXIMIZED_HORZ")
    ? "maximized"
    : own?.state ?? "normal";
  return {
    exists: true,
    bounds,
    state,
    focused: attrs.viewable && holds(focusHolder(display), focusTarget(display, xid)),
    stacking: stackingOrder(display).findIndex((w) => w.xid === xid),
  };
}

/** The names of the atoms in window `xid`'s `_NET_WM_STATE`. */
function netStates(h: X11Handle, xid: number): Set<string> {
  const value = property(h, BigInt(xid), atomOf(h, "_NET_WM_STATE"));
  const names = ["HIDDEN", "FULLSCREEN", "MAXIMIZED_VERT", "MAXIMIZED_HORZ"].map((n) =>
    `_NET_WM_STATE_${n}`
  );
  const held = new Set(value ? longs(value) : []);
  return new Set(names.filter((n) => held.has(atomOf(h, n))));
}

/** Drops the error a vanished window leaves behind. */
function settle(h: X11Handle): void {
  try {
    checkX(h.x11, h.dpy, "read a window");
  } catch {
    // The window is gone: that is the answer.
  }
}

/**
 * Sends `req` for client window `xid`. Does not wait: {@link windowFacts} tells when the
 * window (or its window manager) did it.
 */
export function requestWindow(display: X11Display, xid: number, req: WindowRequest): void {
  const h = x11Handle(display);
  const win = BigInt(xid);
  const managed = windowManager(display) !== undefined;
  const key = keyOf(display, xid);
  const now = windowFacts(display, xid);
  if (!now.exists) {
    throw new DriverError("window_not_found", `X window 0x${xid.toString(16)} is gone`);
  }
  const what = `${req.action} window 0x${xid.toString(16)}`;
  switch (req.action) {
    case "focus":
      requestFocus(display, xid);
      return;
    case "raise":
      if (managed) activate(h, xid);
      else h.x11.XRaiseWindow(h.dpy, win);
      break;
    case "move":
    case "resize": {
      const b = now.bounds;
      const [x, y] = req.action === "move" ? [req.x!, req.y!] : [b.x, b.y];
      const [w, hh] = req.action === "resize" ? [req.w!, req.h!] : [b.w, b.h];
      if (managed) {
        // Static gravity: x and y are the client's own corner, not its frame's.
        const flags = STATIC_GRAVITY | (0xfn << 8n) | (SOURCE_PAGER << 12n);
        clientMessage(h, xid, "_NET_MOVERESIZE_WINDOW", [flags, ...[x, y, w, hh].map(BigInt)]);
      } else {
        h.x11.XMoveResizeWindow(h.dpy, win, x, y, w, hh);
        unmanaged.delete(key);
      }
      break;
    }
    case "minimize":
      if (managed) h.x11.XIconifyWindow(h.dpy, win, h.screen);
      else h.x11.XUnmapWindow(h.dpy, win);
      break;
    case "maximize":
    case "fullscreen":
      if (managed) {
        const atoms = req.action === "maximize"
          ? ["_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"]
          : ["_NET_WM_STATE_FULLSCREEN", ""];
        clientMessage(h, xid, "_NET_WM_STATE", [
          ADD,
          ...atoms.map((a) => a === "" ? 0n : atomOf(h, a)),
          SOURCE_PAGER,
        ]);
      } else {
        // No decorations and no panels: both fill the screen.
        const before = unmanaged.get(key)?.before ?? now.bounds;
        const w = h.x11.XDisplayWidth(h.dpy, h.screen);
        const hh = h.x11.XDisplayHeight(h.dpy, h.screen);
        h.x11.XMoveResizeWindow(h.dpy, win, 0, 0, w, hh);
        unmanaged.set(key, {
          state: req.action === "maximize" ? "maximized" : "fullscreen",
          before,
        });
      }
      break;
    case "restore":
      if (managed) {
        if (now.state === "minimized") activate(h, xid);
        for (
          const pair of [
            ["_NET_WM_STATE_FULLSCREEN", ""],
            ["_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"],
          ]
        ) {
          clientMessage(h, xid, "_NET_WM_STATE", [
            REMOVE,
            ...pair.map((a) => a === "" ? 0n : atomOf(h, a)),
            SOURCE_PAGER,
          ]);
        }
      } else {
        if (now.state === "minimized") h.x11.XMapRaised(h.dpy, win);
        const own = unmanaged.get(key);
        if (own) {
          const b = own.before;
          h.x11.XMoveResizeWindow(h.dpy, win, b.x, b.y, b.w, b.h);
          unmanaged.delete(key);
        }
      }
      break;
    case "close":
      if (req.force) {
        // The client's connection is closed by the server: the app may exit or not.
        h.x11.XKillClient(h.dpy, win);
      } else {
        if (!takesDelete(h, xid)) {
          throw new DriverError(
            "action_not_supported",
            `Window 0x${xid.toString(16)} takes no polite close (its WM_PROTOCOLS lack ` +
              `WM_DELETE_WINDOW); force: true closes its X connection instead`,
          );
        }
        clientMessage(h, xid, "WM_PROTOCOLS", [atomOf(h, "WM_DELETE_WINDOW"), 0n], "client");
      }
      unmanaged.delete(key);
      break;
  }
  checkX(h.x11, h.dpy, what);
}

/** Does window `xid` list `WM_DELETE_WINDOW` in its `WM_PROTOCOLS` (ICCCM 4.1.2.7)? */
function takesDelete(h: X11Handle, xid: number): boolean {
  const value = property(h, BigInt(xid), atomOf(h, "WM_PROTOCOLS"));
  return value !== undefined && longs(value).includes(atomOf(h, "WM_DELETE_WINDOW"));
}

/** Has window `xid` reached what `req` asked, by `facts`? */
export function reached(req: WindowRequest, facts: WindowFacts): boolean {
  switch (req.action) {
    case "close":
      return !facts.exists;
    case "focus":
      return facts.focused;
    case "raise":
      return facts.stacking === 0;
    case "move":
      return facts.bounds.x === req.x && facts.bounds.y === req.y;
    case "resize":
      return facts.bounds.w === req.w && facts.bounds.h === req.h;
    case "minimize":
      return facts.state === "minimized";
    case "maximize":
      return facts.state === "maximized";
    case "fullscreen":
      return facts.state === "fullscreen";
    case "restore":
      return facts.state === "normal";
  }
}

/** How long a window operation is given to show in X (a window manager's turn, an app's). */
const SHOW_MS = 2_000;

/**
 * Sends `req` for client window `xid` and reads the window until it shows the change or
 * {@link SHOW_MS} pass: its state then, and whether it came to what was asked.
 */
export async function operateWindow(
  display: X11Display,
  xid: number,
  req: WindowRequest,
): Promise<{ state: WindowFacts; reached: boolean }> {
  requestWindow(display, xid, req);
  const until = performance.now() + SHOW_MS;
  while (true) {
    const state = windowFacts(display, xid);
    if (reached(req, state) || performance.now() >= until) {
      return { state, reached: reached(req, state) };
    }
    // The window manager and the app answer on their own turns: polled, never slept.
    await new Promise((r) => setTimeout(r, 20));
  }
}
