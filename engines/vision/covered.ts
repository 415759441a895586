/**
 * Reading only the visible part of a window. A capture is a piece of the screen, so
 * where another window lies on top it holds the cover's pixels: read as they are, the
 * cover's buttons and text would be listed as the window's own, and clicking them would
 * click the cover. The covered parts are painted over with the window's own background
 * before the analysis (so no line of text runs on into the cover's, and the cache keys
 * on what is visible), and any proposal that still reaches into them is left out.
 *
 * @module
 */
import type { Bounds } from "../../protocol/element.ts";
import type { Capture } from "../../model/engine.ts";
import type { Proposal } from "./regions.ts";
import type { PixelRect } from "./segment.ts";

/** Screen rectangles to capture pixels, clipped to the capture; empty ones dropped. */
export function toPixels(
  parts: readonly Bounds[],
  capture: Pick<Capture, "origin" | "scale" | "width" | "height">,
): PixelRect[] {
  const out: PixelRect[] = [];
  for (const b of parts) {
    // Outward rounding: a half-covered pixel shows some of the cover.
    const x0 = Math.max(0, Math.floor((b.x - capture.origin.x) * capture.scale));
    const y0 = Math.max(0, Math.floor((b.y - capture.origin.y) * capture.scale));
    const x1 = Math.min(capture.width, Math.ceil((b.x + b.w - capture.origin.x) * capture.scale));
    const y1 = Math.min(capture.height, Math.ceil((b.y + b.h - capture.origin.y) * capture.scale));
    if (x1 > x0 && y1 > y0) out.push({ x: x0, y: y0, w: x1 - x0, h: y1 - y0 });
  }
  return out;
}

/** Is pixel (x, y) inside one of `rects`? */
const inside = (rects: readonly PixelRect[], x: number, y: number) =>
  rects.some((r) => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h);

/**
 * The commonest colour of the pixels outside `rects` (RGBA as one number): the window's
 * background, which a painted-over part then blends into, proposing nothing.
 */
export function backgroundOf(capture: Capture, rects: readonly PixelRect[]): number {
  // A Uint32Array view needs 4-byte alignment; a capture cut from a larger buffer may lack it.
  const bytes = capture.rgba.byteOffset % 4 === 0 ? capture.rgba : capture.rgba.slice();
  const px = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  const counts = new Map<number, number>();
  let best = 0;
  let most = 0;
  for (let y = 0; y < capture.height; y++) {
    for (let x = 0; x < capture.width; x++) {
      if (rects.length && inside(rects, x, y)) continue;
      const c = px[y * capture.width + x]!;
      const n = (counts.get(c) ?? 0) + 1;
      counts.set(c, n);
      if (n > most) [best, most] = [c, n];
    }
  }
  return best;
}

/** A copy of `capture` with `rects` painted in its background colour. */
export function maskCovered(capture: Capture, rects: readonly PixelRect[]): Capture {
  if (rects.length === 0) return capture;
  const rgba = capture.rgba.slice();
  const px = new Uint32Array(rgba.buffer);
  const fill = backgroundOf(capture, rects);
  for (const r of rects) {
    for (let y = r.y; y < r.y + r.h; y++) {
      px.fill(fill, y * capture.width + r.x, y * capture.width + r.x + r.w);
    }
  }
  return { ...capture, rgba };
}

/** Do two pixel rectangles share any pixel? */
const meets = (a: PixelRect, b: PixelRect) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * `proposals` without what reaches into `rects`: a leaf that does is dropped (its centre,
 * where a click goes, may be under the cover, and its name may be cut); a container
 * keeps its visible children and stays while it still holds one.
 */
export function dropCovered(
  proposals: readonly Proposal[],
  rects: readonly PixelRect[],
): Proposal[] {
  if (rects.length === 0) return [...proposals];
  const out: Proposal[] = [];
  for (const p of proposals) {
    if (!rects.some((r) => meets(p.rect, r))) {
      out.push(p);
      continue;
    }
    const children = dropCovered(p.children, rects);
    if (children.length > 0) out.push({ ...p, children });
  }
  return out;
}
