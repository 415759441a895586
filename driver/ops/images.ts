/**
 * `screenshot` and `zoom`: PNGs of a window or the screen, encoded by the image worker.
 *
 * @module
 */
import { cropCapture } from "../../model/capture.ts";
import type { HandlerResultOf, ParamsOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { DriverCore } from "../core.ts";

/** Serves `screenshot`. */
export async function screenshot(
  core: DriverCore,
  p: ParamsOf<"screenshot">,
  ctx: CallContext,
): Promise<HandlerResultOf<"screenshot">> {
  const engine = core.engine(ctx.engine);
  const take = () => engine.capture(p.window, ctx.signal);
  return { ...await core.images.encode(take, 1, ctx.signal), engine: engine.name };
}

/** Serves `zoom`: the region in screen points (or window points with `window`), scaled. */
export async function zoom(
  core: DriverCore,
  p: ParamsOf<"zoom">,
  ctx: CallContext,
): Promise<HandlerResultOf<"zoom">> {
  const engine = core.engine(ctx.engine);
  const take = async () => {
    const shot = await engine.capture(p.window, ctx.signal);
    const r = p.region;
    // With a window the region is relative to the window's corner, as element bounds
    // minus the window's are; without one it is in screen points.
    const at = p.window === undefined ? { x: 0, y: 0 } : shot.origin;
    return cropCapture(shot, { x: at.x + r.x, y: at.y + r.y, w: r.w, h: r.h });
  };
  return { ...await core.images.encode(take, p.scale ?? 1, ctx.signal), engine: engine.name };
}
