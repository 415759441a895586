/**
 * Window extents a toolkit does not give. Java's ATK wrapper answers -1 for a frame's
 * extents, which would make its window uncapturable and cut every pointer input aimed
 * inside it; its screen rectangle then comes from X: the viewable top-level window of the
 * same process with the same title (the only one of the process when no title matches).
 *
 * @module
 */
import type { Bounds } from "../../protocol/element.ts";
import { topLevelWindows, windowBounds, type X11Display } from "../../platform/x11/mod.ts";
import { log } from "../../util/log.ts";
import { isEmpty } from "./uncover.ts";

/**
 * `b` when it is a window's real extents, else the bounds of process `pid`'s X window
 * titled `title`; `b` as it is when X has no such window.
 */
export function windowBoundsOr(
  b: Bounds,
  display: () => X11Display,
  pid: number,
  title: string,
): Bounds {
  if (!isEmpty(b)) return b;
  try {
    const mine = topLevelWindows(display()).filter((w) => w.pid === pid);
    const match = mine.find((w) => w.title === title) ?? (mine.length === 1 ? mine[0] : undefined);
    return match ? windowBounds(display(), match.xid) : b;
  } catch (err) {
    log("debug", "no window bounds from X", { pid, title, error: String(err) });
    return b;
  }
}
