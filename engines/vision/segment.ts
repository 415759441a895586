/**
 * Non-text controls from pixels: connected regions of uniform fill closed by an edge
 * (buttons, fields, panels), found by a flood fill over the capture's luma.
 *
 * A region grows over 4-connected neighbours whose luma differs by at most `tolerance`
 * from the pixel it is reached from (and by at most 16 times that from its seed, which
 * bounds the drift along a long ramp), so a button's gentle gradient stays one region
 * while the steeper steps of anti-aliased glyph edges do not join it. A region
 * is a box when it does not touch the capture's edge (that is the window background), is
 * at least `minSide` pixels both ways, fills at least a quarter of its bounding rectangle
 * (text and nested controls are holes in it), owns at least 85 % of that rectangle's
 * outline (a rectangle, not a glyph's counter or a gap between shapes), and is closed by
 * an edge: the ring just outside the rectangle differs from the fill. The edge's
 * thickness (the rings that keep differing, up to {@link MAX_FRAME}) is kept so OCR can
 * paint the frame out: Tesseract reads a glyph next to a border line as part of it.
 *
 * @module
 */

/** A rectangle in capture pixels. */
export interface PixelRect {
  /** Left column. */
  x: number;
  /** Top row. */
  y: number;
  /** Width. */
  w: number;
  /** Height. */
  h: number;
}

/** A uniform region closed by an edge. */
export interface Box {
  /** The fill's bounding rectangle (inside the frame). */
  rect: PixelRect;
  /** Edge thickness around `rect`, in pixels (1 to {@link MAX_FRAME}). */
  frame: number;
  /** Mean luma of the fill (0 to 255). */
  fill: number;
}

/** Tunables of {@link findBoxes}. */
export interface SegmentOptions {
  /** Largest luma step between neighbours of one region (default 3). */
  tolerance?: number;
  /** Smallest box side, in pixels (default 8). */
  minSide?: number;
}

/** Thickest frame painted out (pixels). */
export const MAX_FRAME = 8;
const MIN_SOLIDITY = 0.25;
const MIN_OUTLINE = 0.85;
const MIN_EDGE = 0.6;
/** A region strays at most this many tolerances from its seed's luma. */
const SEED_SPREAD = 16;

/**
 * Rec. 601 luma of every pixel, 0 to 255.
 *
 * @param rgba `width * height * 4` bytes, RGBA.
 * @param pixels `width * height`.
 */
export function lumaOf(rgba: Uint8Array, pixels: number): Uint8Array {
  const out = new Uint8Array(pixels);
  for (let i = 0, p = 0; i < pixels; i++, p += 4) {
    out[i] = (299 * rgba[p]! + 587 * rgba[p + 1]! + 114 * rgba[p + 2]! + 500) / 1000;
  }
  return out;
}

/**
 * The boxes of one image, in row-major order of their top-left corners.
 *
 * @param luma One byte per pixel (see {@link lumaOf}).
 * @param width Pixels per row.
 * @param height Rows.
 */
export function findBoxes(
  luma: Uint8Array,
  width: number,
  height: number,
  options: SegmentOptions = {},
): Box[] {
  const tol = options.tolerance ?? 3;
  const minSide = options.minSide ?? 8;
  const labels = new Int32Array(width * height).fill(-1);
  const stack = new Int32Array(width * height);
  const boxes: Box[] = [];
  let next = 0;
  for (let seed = 0; seed < labels.length; seed++) {
    if (labels[seed] !== -1) continue;
    const id = next++;
    const base = luma[seed]!;
    let minX = width, minY = height, maxX = -1, maxY = -1, count = 0, sum = 0;
    let top = 0;
    stack[top++] = seed;
    labels[seed] = id;
    while (top > 0) {
      const p = stack[--top]!;
      const v = luma[p]!;
      const x = p % width;
      const y = (p - x) / width;
      count++;
      sum += v;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      // Inlined for speed: this loop runs once per pixel of the window.
      if (x > 0 && labels[p - 1] === -1 && joins(luma[p - 1]!, v, base, tol)) {
        labels[p - 1] = id;
        stack[top++] = p - 1;
      }
      if (x < width - 1 && labels[p + 1] === -1 && joins(luma[p + 1]!, v, base, tol)) {
        labels[p + 1] = id;
        stack[top++] = p + 1;
      }
      if (y > 0 && labels[p - width] === -1 && joins(luma[p - width]!, v, base, tol)) {
        labels[p - width] = id;
        stack[top++] = p - width;
      }
      if (y < height - 1 && labels[p + width] === -1 && joins(luma[p + width]!, v, base, tol)) {
        labels[p + width] = id;
        stack[top++] = p + width;
      }
    }
    const w = maxX - minX + 1;
    const h = maxY - minY + 1;
    if (w < minSide || h < minSide) continue;
    if (minX === 0 || minY === 0 || maxX === width - 1 || maxY === height - 1) continue;
    if (count < MIN_SOLIDITY * w * h) continue;
    const rect = { x: minX, y: minY, w, h };
    if (outlineShare(labels, width, rect, id) < MIN_OUTLINE) continue;
    const fill = sum / count;
    const frame = frameOf(luma, width, height, rect, fill, tol);
    if (frame > 0) boxes.push({ rect, frame, fill });
  }
  return absorbFrames(boxes).sort((a, b) => a.rect.y - b.rect.y || a.rect.x - b.rect.x);
}

/**
 * A thick border is itself a closed uniform ring, so it passes as a box around the box it
 * frames. Such a ring is dropped and its width added to the inner box's frame.
 */
function absorbFrames(boxes: Box[]): Box[] {
  const dropped = new Set<Box>();
  for (const inner of boxes) {
    for (const outer of boxes) {
      if (outer === inner || dropped.has(outer)) continue;
      const o = outer.rect, r = inner.rect;
      const gap = Math.max(r.x - o.x, r.y - o.y, o.x + o.w - r.x - r.w, o.y + o.h - r.y - r.h);
      const inside = r.x >= o.x && r.y >= o.y && r.x + r.w <= o.x + o.w &&
        r.y + r.h <= o.y + o.h;
      if (!inside || gap > inner.frame + MAX_FRAME) continue;
      const covered = ((r.w + 2 * inner.frame) * (r.h + 2 * inner.frame)) / (o.w * o.h);
      if (covered < 0.9) continue;
      dropped.add(outer);
      inner.frame = Math.min(MAX_FRAME, Math.max(inner.frame, gap));
    }
  }
  return boxes.filter((b) => !dropped.has(b));
}

function joins(n: number, v: number, base: number, tol: number): boolean {
  return Math.abs(n - v) <= tol && Math.abs(n - base) <= SEED_SPREAD * tol;
}

/** Share of the rectangle's outline pixels that belong to region `id`. */
function outlineShare(labels: Int32Array, width: number, r: PixelRect, id: number): number {
  let own = 0;
  const bottom = (r.y + r.h - 1) * width;
  for (let x = r.x; x < r.x + r.w; x++) {
    if (labels[r.y * width + x] === id) own++;
    if (labels[bottom + x] === id) own++;
  }
  for (let y = r.y + 1; y < r.y + r.h - 1; y++) {
    if (labels[y * width + r.x] === id) own++;
    if (labels[y * width + r.x + r.w - 1] === id) own++;
  }
  return own / (2 * r.w + 2 * Math.max(0, r.h - 2));
}

/** How many rings around `r` keep differing from the fill (0: the region has no edge). */
function frameOf(
  luma: Uint8Array,
  width: number,
  height: number,
  r: PixelRect,
  fill: number,
  tol: number,
): number {
  let frame = 0;
  for (let t = 1; t <= MAX_FRAME; t++) {
    let differ = 0;
    let seen = 0;
    const visit = (x: number, y: number) => {
      if (x < 0 || y < 0 || x >= width || y >= height) return;
      seen++;
      if (Math.abs(luma[y * width + x]! - fill) > 2 * tol) differ++;
    };
    const left = r.x - t, right = r.x + r.w - 1 + t, top = r.y - t, bottom = r.y + r.h - 1 + t;
    for (let x = left; x <= right; x++) {
      visit(x, top);
      visit(x, bottom);
    }
    for (let y = top + 1; y < bottom; y++) {
      visit(left, y);
      visit(right, y);
    }
    if (seen === 0 || differ < MIN_EDGE * seen) break;
    frame = t;
  }
  return frame;
}

/**
 * A copy of `luma` with every box's frame painted in its fill, so text inside a box
 * stands alone for OCR.
 */
export function paintFrames(
  luma: Uint8Array,
  width: number,
  height: number,
  boxes: readonly Box[],
): Uint8Array {
  const out = luma.slice();
  for (const { rect: r, frame, fill } of boxes) {
    const v = Math.round(fill);
    const x0 = Math.max(0, r.x - frame), x1 = Math.min(width - 1, r.x + r.w - 1 + frame);
    const y0 = Math.max(0, r.y - frame), y1 = Math.min(height - 1, r.y + r.h - 1 + frame);
    for (let y = y0; y <= y1; y++) {
      const inside = y >= r.y && y < r.y + r.h;
      for (let x = x0; x <= x1; x++) {
        if (inside && x >= r.x && x < r.x + r.w) continue;
        out[y * width + x] = v;
      }
    }
  }
  return out;
}
