/**
 * Pixel helpers for {@link Capture}s: cropping, scaling and base64, without the PNG
 * encoder (model/png.ts).
 *
 * @module
 */
import { DriverError } from "../protocol/errors.ts";
import type { Bounds } from "../protocol/element.ts";
import type { Capture } from "./engine.ts";

/**
 * The part of `capture` inside `rect` (screen points), clipped to the capture. Throws
 * `invalid_params` when they do not overlap.
 */
export function cropCapture(capture: Capture, rect: Bounds): Capture {
  const { scale, origin } = capture;
  // Screen points -> capture pixels, widened outwards so a fractional edge is kept.
  const left = Math.max(0, Math.floor((rect.x - origin.x) * scale));
  const top = Math.max(0, Math.floor((rect.y - origin.y) * scale));
  const right = Math.min(capture.width, Math.ceil((rect.x + rect.w - origin.x) * scale));
  const bottom = Math.min(capture.height, Math.ceil((rect.y + rect.h - origin.y) * scale));
  if (right <= left || bottom <= top) {
    throw new DriverError(
      "invalid_params",
      `Cannot crop ${rect.w}x${rect.h} at (${rect.x}, ${rect.y}): it is outside the capture`,
      { issues: [{ path: ["region"], message: "does not overlap the captured area" }] },
    );
  }
  const width = right - left;
  const height = bottom - top;
  const rgba = new Uint8Array(width * height * 4);
  const rowBytes = width * 4;
  for (let y = 0; y < height; y++) {
    const from = ((top + y) * capture.width + left) * 4;
    rgba.set(capture.rgba.subarray(from, from + rowBytes), y * rowBytes);
  }
  return {
    width,
    height,
    scale,
    origin: { x: origin.x + left / scale, y: origin.y + top / scale },
    rgba,
  };
}

/** Nearest-neighbour scaling by `factor`: zoom is for reading small text, not for beauty. */
export function scaleCapture(c: Capture, factor: number): Capture {
  const width = Math.max(1, Math.round(c.width * factor));
  const height = Math.max(1, Math.round(c.height * factor));
  const rgba = new Uint8Array(width * height * 4);
  const src = new Uint32Array(c.rgba.buffer, c.rgba.byteOffset, c.width * c.height);
  const dst = new Uint32Array(rgba.buffer);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(c.height - 1, Math.floor(y / factor)) * c.width;
    for (let x = 0; x < width; x++) {
      dst[y * width + x] = src[sy + Math.min(c.width - 1, Math.floor(x / factor))]!;
    }
  }
  return { width, height, scale: c.scale * factor, origin: c.origin, rgba };
}

/** Base64 of `bytes`, in slices so no argument list grows with the image. */
export function base64(bytes: Uint8Array): string {
  let s = "";
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    s += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(s);
}
