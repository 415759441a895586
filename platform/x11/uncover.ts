/**
 * Input only where it is meant: a pixel click lands on whatever window is on top at its
 * point, and keys on whatever holds the keyboard focus. Before an engine sends pointer
 * input for an element it checks the stacking at that point; when another window covers
 * it, the element's own window is raised and the point checked again; when it is still
 * covered, the input is refused with `obscured`, naming the cover, rather than clicking
 * the cover and calling it done. (Keys are the keyboard focus's business: focus.ts.) One
 * implementation for every engine (AT-SPI, vision).
 *
 * @module
 */
import type { PixelInput } from "../../model/engine.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { X11Display } from "./display.ts";
import { type PlacedWindow, raiseWindow, stackingOrder, windowsAt } from "./stacking.ts";

/**
 * Whose input it is: a process (an app's every window: AT-SPI knows the pid), or one X
 * window (vision: Xt and Tk apps set no `_NET_WM_PID`, so only the window says).
 */
export type InputOwner = { pid: number } | { xid: number };

/** The screen point pointer input lands on, when it has one. */
export function pointOf(input: PixelInput): { x: number; y: number } | undefined {
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

/** Is `w` the owner's window? A window of the owner's process counts, when it has one. */
export function owns(owner: InputOwner, w: PlacedWindow, ownerPid = 0): boolean {
  if ("pid" in owner) return w.pid === owner.pid;
  return w.xid === owner.xid || (ownerPid > 0 && w.pid === ownerPid);
}

/** The `obscured` error naming `cover`. */
export function obscured(what: string, cover: PlacedWindow): DriverError {
  return new DriverError(
    "obscured",
    `${what} "${cover.title || cover.instance || "an untitled window"}"` +
      (cover.pid ? ` (pid ${cover.pid})` : ""),
    // The cover's X window id, as xwininfo and xdotool print it.
    { covering: coverFacts(cover) },
  );
}

/** What a caller is told of a covering window. */
export function coverFacts(w: PlacedWindow): { x11_window: string; title: string; pid: number } {
  return { x11_window: `0x${w.xid.toString(16)}`, title: w.title, pid: w.pid };
}

/** The pid of vision owner `xid`'s window (0 when it set none). */
function pidOf(display: X11Display, owner: InputOwner): number {
  if ("pid" in owner) return owner.pid;
  return stackingOrder(display).find((w) => w.xid === owner.xid)?.pid ?? 0;
}

/**
 * Makes sure pointer `input` lands on a window of `owner`: raises its window when another
 * covers the point, throws `obscured` when that does not help. Input without a point
 * (keys, scrolls) passes.
 */
export async function uncover(
  display: X11Display,
  input: PixelInput,
  owner: InputOwner,
  timeoutMs = 1000,
): Promise<void> {
  const point = pointOf(input);
  if (!point) return;
  const ownerPid = pidOf(display, owner);
  const mine = (w: PlacedWindow | undefined) => w !== undefined && owns(owner, w, ownerPid);
  const at = windowsAt(display, point.x, point.y);
  const top = at[0];
  if (!top || mine(top)) return;
  const own = at.find(mine);
  // A window without _NET_WM_PID (plain Xt apps) on top of an app's that has none either:
  // who owns what cannot be told, and the click goes ahead as before.
  if (!own && top.pid === 0 && "pid" in owner) return;
  if (own) {
    const until = () => mine(windowsAt(display, point.x, point.y)[0]);
    if (await raiseWindow(display, own.xid, { until, timeoutMs })) return;
  }
  const cover = windowsAt(display, point.x, point.y)[0] ?? top;
  throw obscured(`The element at (${point.x}, ${point.y}) is covered by`, cover);
}
