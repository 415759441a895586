/**
 * Toolkits that give extents relative to their window, not the screen. GTK 4 answers
 * `GetExtents` in screen coordinates with its window's own corner at (0, 0): it does not
 * know where its window is. Bare, the window sits at the screen's corner and nothing
 * shows; under a window manager the window is placed elsewhere, and every pointer input
 * aimed by those bounds hit the desktop (a GTK 4 menu never opened under openbox). The
 * window's place comes from X instead, and every bound the engine hands out for such a
 * window is moved by it.
 *
 * @module
 */
import type { RawNode } from "../../model/engine.ts";
import type { Bounds } from "../../protocol/element.ts";
import { clientWindowOf, windowBounds, type X11Display } from "../../platform/x11/mod.ts";
import { log } from "../../util/log.ts";

/** How far a window-relative bound moves to be a screen bound. */
export interface Shift {
  dx: number;
  dy: number;
}

/** Bounds this far left or up are the toolkits' "no place" (-2^31), not a place. */
const NOWHERE = -(2 ** 30);

/** `b` moved by `shift`; a "no place" or empty bound stays as it is. */
export function shifted(b: Bounds, shift: Shift): Bounds {
  if (b.x <= NOWHERE || b.y <= NOWHERE || b.w <= 0 || b.h <= 0) return b;
  return { ...b, x: b.x + shift.dx, y: b.y + shift.dy };
}

/** `node` and its subtree with every bound moved by `shift`. */
export function shiftTree(node: RawNode, shift: Shift): RawNode {
  if (shift.dx === 0 && shift.dy === 0) return node;
  return {
    ...node,
    bounds: shifted(node.bounds, shift),
    children: node.children.map((c) => shiftTree(c, shift)),
  };
}

/** Process `pid`'s X window titled `title` where X shows it; `b` when X shows none. */
export function placedByX(display: X11Display, pid: number, title: string, b: Bounds): Bounds {
  try {
    const xid = clientWindowOf(display, pid, title);
    return xid === undefined ? b : windowBounds(display, xid);
  } catch (err) {
    log("debug", "no window place from X", { pid, title, error: String(err) });
    return b;
  }
}

/** The shift of each window of a window-relative app, measured on its full reads. */
export class WindowOrigins {
  readonly #shifts = new Map<string, Shift>();

  /**
   * Measures window `window` (of process `pid`, titled `title`, whose own extents are
   * `own`) against its X window: the shift from then on. No shift when X shows no such
   * window.
   */
  measure(window: string, display: X11Display, pid: number, title: string, own: Bounds): Shift {
    const at = placedByX(display, pid, title, own);
    const shift = { dx: at.x - own.x, dy: at.y - own.y };
    this.#shifts.set(window, shift);
    return shift;
  }

  /** The window's shift as last measured (none before its first read). */
  of(window: string): Shift {
    return this.#shifts.get(window) ?? { dx: 0, dy: 0 };
  }

  /** Forgets windows not in `present` (closed, or of apps that left). */
  keep(present: (window: string) => boolean): void {
    for (const window of this.#shifts.keys()) if (!present(window)) this.#shifts.delete(window);
  }
}
