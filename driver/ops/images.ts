/**
 * `screenshot` and `zoom`: PNGs of a window or the screen.
 *
 * @module
 */
import { cropCapture, encodePng } from "../../model/png.ts";
import type { Capture } from "../../model/engine.ts";
import type { HandlerResultOf, ParamsOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { DriverCore } from "../core.ts";

function b64(bytes: Uint8Array): string {
  let s = "";
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    s += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(s);
}

function answer(c: Capture, engine: string) {
  return { png: b64(encodePng(c)), width: c.width, height: c.height, scale: c.scale, engine };
}

/** Serves `screenshot`. */
export async function screenshot(
  core: DriverCore,
  p: ParamsOf<"screenshot">,
  ctx: CallContext,
): Promise<HandlerResultOf<"screenshot">> {
  const engine = core.engine(ctx.engine);
  return answer(await engine.capture(p.window, ctx.signal), engine.name);
}

/** Serves `zoom`: the region in screen points (or window points with `window`), scaled. */
export async function zoom(
  core: DriverCore,
  p: ParamsOf<"zoom">,
  ctx: CallContext,
): Promise<HandlerResultOf<"zoom">> {
  const engine = core.engine(ctx.engine);
  const shot = await engine.capture(p.window, ctx.signal);
  const r = p.region;
  // With a window the region is relative to the window's corner, as element bounds
  // minus the window's are; without one it is in screen points.
  const at = p.window === undefined ? { x: 0, y: 0 } : shot.origin;
  const part = cropCapture(shot, { x: at.x + r.x, y: at.y + r.y, w: r.w, h: r.h });
  const scale = p.scale ?? 1;
  const out = scale === 1 ? part : resample(part, scale);
  return answer(out, engine.name);
}

/** Nearest-neighbour scaling: zoom is for reading small text, not for beauty. */
function resample(c: Capture, scale: number): Capture {
  const width = Math.max(1, Math.round(c.width * scale));
  const height = Math.max(1, Math.round(c.height * scale));
  const rgba = new Uint8Array(width * height * 4);
  const src = new Uint32Array(c.rgba.buffer, c.rgba.byteOffset, c.width * c.height);
  const dst = new Uint32Array(rgba.buffer);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(c.height - 1, Math.floor(y / scale)) * c.width;
    for (let x = 0; x < width; x++) {
      dst[y * width + x] = src[sy + Math.min(c.width - 1, Math.floor(x / scale))]!;
    }
  }
  return { width, height, scale: c.scale * scale, origin: c.origin, rgba };
}
