/**
 * Pointer input only where the element has come to rest. A click standing in for an
 * element's action lands at the element's bounds as the map has them; while the window is
 * still moving after an earlier action (see live/motion.ts), those bounds are a frame of an
 * animation, and the click would hit whatever passes there (a MiniWoB accordion: the wrong
 * link). So pointer input on a moving window first waits for the motion to end; when the
 * element then rests elsewhere, the engine is asked again with where it is.
 *
 * @module
 */
import type { Bounds } from "../../protocol/element.ts";
import type { RawNode } from "../../model/engine.ts";
import type { Watched } from "../../live/windows.ts";
import { motionWaitMs } from "../../live/motion.ts";
import type { DriverCore } from "../core.ts";

/** The element came to rest elsewhere than the planned input aimed: act again on `node`. */
export class MovedWhileAiming extends Error {
  /** The element where it rests. */
  readonly node: RawNode;

  /** `node` is the element as the still window reads it. */
  constructor(node: RawNode) {
    super("The element moved while the input was aimed at it");
    this.node = node;
  }
}

/**
 * Reads `w` again as its motion asks until it is still, or `leftMs()` runs short of the
 * wait for the next read (the request's deadline comes first: the input goes where things
 * are).
 */
export async function untilStill(
  core: DriverCore,
  w: Watched,
  signal: AbortSignal,
  leftMs: () => number,
): Promise<Watched> {
  while (w.motion && core.live.moving(w) && !signal.aborted) {
    const wait = motionWaitMs(w.motion, w.readAt, performance.now());
    if (leftMs() <= wait) break;
    await new Promise((done) => setTimeout(done, wait));
    w = (await core.live.current(w, signal)).watched;
  }
  return w;
}

/** True when `a` and `b` are the same rectangle. */
export function sameBounds(a: Bounds, b: Bounds): boolean {
  return a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
}
