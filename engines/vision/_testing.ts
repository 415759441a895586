/**
 * Synthetic captures for the vision unit tests: a canvas, filled rectangles and frames.
 *
 * @module
 */
import type { Capture } from "../../model/engine.ts";
import type { PixelRect } from "./segment.ts";

/** A `width`×`height` capture of grey `v` at `origin`. */
export function canvas(
  width: number,
  height: number,
  v = 255,
  origin: { x: number; y: number } = { x: 0, y: 0 },
): Capture {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < rgba.length; i += 4) rgba.set([v, v, v, 255], i);
  return { width, height, scale: 1, origin, rgba };
}

/** Fills `r` with grey `v`. */
export function fill(c: Capture, r: PixelRect, v: number): void {
  for (let y = r.y; y < r.y + r.h; y++) {
    for (let x = r.x; x < r.x + r.w; x++) c.rgba.set([v, v, v, 255], (y * c.width + x) * 4);
  }
}

/** A box: `r` filled with `inside`, inside a frame `t` pixels thick of `edge`. */
export function box(c: Capture, r: PixelRect, t = 1, edge = 0, inside = 255): void {
  fill(c, { x: r.x - t, y: r.y - t, w: r.w + 2 * t, h: r.h + 2 * t }, edge);
  fill(c, r, inside);
}

/** The capture's luma (its grey level: the canvases here are grey). */
export function lumaOfCanvas(c: Capture): Uint8Array {
  const out = new Uint8Array(c.width * c.height);
  for (let i = 0; i < out.length; i++) out[i] = c.rgba[i * 4]!;
  return out;
}
