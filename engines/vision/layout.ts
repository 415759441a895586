/**
 * Where the text lines are, before any OCR: each pixel is given to the innermost box
 * whose fill contains it (or to the window background), "ink" is a pixel that differs
 * clearly from its owner's background, and each owner's ink is cut into lines by a
 * recursive XY cut: split at empty rows, then at wide empty columns, and again inside
 * each piece until neither splits. Every leaf is one line for Tesseract's single-line
 * mode, which reads the lone digits and operators of a keypad that its page layout
 * analysis drops as noise.
 *
 * @module
 */
import type { Box, PixelRect } from "./segment.ts";

/** One text line (or lone glyph) and the box it sits in. */
export interface TextLeaf {
  /** Tight bounds of its ink, in capture pixels. */
  rect: PixelRect;
  /** Index of its box in the boxes given, or -1 for the window background. */
  owner: number;
}

/** Owner of a frame pixel: neither background nor any box's fill. */
export const FRAME = -2;
/** Owner of a background pixel. */
export const BACKGROUND = -1;
/** Luma difference from the owner's background that makes a pixel ink. */
export const INK_CONTRAST = 48;
/** Bands thinner than this (pixels) are parts of glyphs: an i's dot, a bar of "=". */
const THIN_BAND = 4;
/** Largest gap (pixels) a thin band is joined across. */
const THIN_GAP = 3;
/** Lines taller than this (pixels) are pictures, not text. */
export const MAX_LINE_HEIGHT = 96;

/**
 * Each pixel's owner: the innermost box whose `rect` contains it, {@link FRAME} in a
 * box's frame, {@link BACKGROUND} elsewhere.
 */
export function ownerMap(width: number, height: number, boxes: readonly Box[]): Int32Array {
  const owners = new Int32Array(width * height).fill(BACKGROUND);
  // Outer boxes first, so inner ones overwrite them.
  const order = boxes.map((_, i) => i).sort((a, b) => area(boxes[b]!) - area(boxes[a]!));
  for (const i of order) {
    const { rect: r, frame } = boxes[i]!;
    const x0 = Math.max(0, r.x - frame), x1 = Math.min(width, r.x + r.w + frame);
    const y0 = Math.max(0, r.y - frame), y1 = Math.min(height, r.y + r.h + frame);
    for (let y = y0; y < y1; y++) {
      const inY = y >= r.y && y < r.y + r.h;
      for (let x = x0; x < x1; x++) {
        owners[y * width + x] = inY && x >= r.x && x < r.x + r.w ? i : FRAME;
      }
    }
  }
  return owners;
}

function area(b: Box): number {
  return (b.rect.w + 2 * b.frame) * (b.rect.h + 2 * b.frame);
}

/** The most common luma among background pixels (255 when there are none). */
export function backgroundLuma(luma: Uint8Array, owners: Int32Array): number {
  const counts = new Uint32Array(256);
  for (let i = 0; i < luma.length; i++) if (owners[i] === BACKGROUND) counts[luma[i]!]!++;
  let best = 255;
  for (let v = 0; v < 256; v++) if (counts[v]! > counts[best]!) best = v;
  return counts[best] === 0 ? 255 : best;
}

/** Ink runs at least this long (pixels) are rules and borders, not text. */
export const RULE_LENGTH = 48;

/** Per pixel, its owner when it is ink; and which pixels were rules. */
export interface InkMap {
  /** Owner index for ink pixels, -3 elsewhere. */
  ink: Int32Array;
  /** 1 where a rule (a long straight run of ink) was taken out. */
  rules: Uint8Array;
}

/**
 * Marks ink: pixels differing by more than {@link INK_CONTRAST} from their owner's
 * background, frames excepted. Straight runs of {@link RULE_LENGTH} or more are taken
 * out as rules: a window border or separator spanning every row and column would
 * otherwise leave the XY cut nothing to split.
 *
 * @param luma One byte per pixel.
 * @param width Pixels per row.
 * @param owners From {@link ownerMap}.
 * @param boxes The boxes `owners` was made from (their fill is their background).
 * @param background The window background's luma ({@link backgroundLuma}).
 */
export function inkMap(
  luma: Uint8Array,
  width: number,
  owners: Int32Array,
  boxes: readonly Box[],
  background: number,
): InkMap {
  const height = luma.length / width;
  const ink = new Int32Array(luma.length).fill(-3);
  for (let i = 0; i < luma.length; i++) {
    const o = owners[i]!;
    if (o === FRAME) continue;
    const bg = o === BACKGROUND ? background : boxes[o]!.fill;
    if (Math.abs(luma[i]! - bg) > INK_CONTRAST) ink[i] = o;
  }
  const rules = new Uint8Array(luma.length);
  const mark = (start: number, step: number, n: number) => {
    for (let k = 0, p = start; k < n; k++, p += step) rules[p] = 1;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width;) {
      let e = x;
      while (e < width && ink[y * width + e] !== -3) e++;
      if (e - x >= RULE_LENGTH) mark(y * width + x, 1, e - x);
      x = e + 1;
    }
  }
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height;) {
      let e = y;
      while (e < height && ink[e * width + x] !== -3) e++;
      if (e - y >= RULE_LENGTH) mark(y * width + x, width, e - y);
      y = e + 1;
    }
  }
  for (let i = 0; i < rules.length; i++) if (rules[i] === 1) ink[i] = -3;
  return { ink, rules };
}

/**
 * The text lines of every owner, in no particular order.
 *
 * @param ink From {@link inkMap}.
 * @param width Pixels per row.
 * @param boxes The boxes the owners index.
 */
export function findTextLeaves(ink: Int32Array, width: number, boxes: readonly Box[]): TextLeaf[] {
  const height = ink.length / width;
  const leaves: TextLeaf[] = [];
  const regions: [PixelRect, number][] = [[{ x: 0, y: 0, w: width, h: height }, BACKGROUND]];
  boxes.forEach((b, i) => regions.push([b.rect, i]));
  for (const [rect, owner] of regions) cut(ink, width, rect, owner, leaves);
  return leaves;
}

function cut(ink: Int32Array, width: number, r: PixelRect, owner: number, out: TextLeaf[]): void {
  const bands = runs(r.h, THIN_BAND, (i) => {
    const row = (r.y + i) * width + r.x;
    for (let x = 0; x < r.w; x++) if (ink[row + x] === owner) return true;
    return false;
  }, 0);
  if (bands.length === 0) return;
  if (bands.length > 1) {
    for (const [y0, y1] of bands) {
      cut(ink, width, { x: r.x, y: r.y + y0, w: r.w, h: y1 - y0 }, owner, out);
    }
    return;
  }
  const [b0, b1] = bands[0]!;
  const y = r.y + b0, h = b1 - b0;
  // Gaps wider than a line's height separate labels; narrower ones are spaces in a line.
  // A band too tall to be one line (a rule or picture beside text) splits at any gap.
  const joinGap = h <= MAX_LINE_HEIGHT ? Math.max(4, Math.round(1.2 * h)) : 2;
  const columns = runs(r.w, 0, (i) => {
    for (let k = 0; k < h; k++) if (ink[(y + k) * width + r.x + i] === owner) return true;
    return false;
  }, joinGap);
  if (columns.length > 1) {
    for (const [x0, x1] of columns) cut(ink, width, { x: r.x + x0, y, w: x1 - x0, h }, owner, out);
    return;
  }
  const [c0, c1] = columns[0]!;
  if (h <= MAX_LINE_HEIGHT) out.push({ rect: { x: r.x + c0, y, w: c1 - c0, h }, owner });
}

/**
 * Runs of indices `0..n` where `has` is true, as `[start, end)`. Runs closer than
 * `joinGap` empty indices are joined; a run shorter than `thin` is joined to its nearest
 * neighbour when that is at most {@link THIN_GAP} away.
 */
function runs(
  n: number,
  thin: number,
  has: (i: number) => boolean,
  joinGap: number,
): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= n; i++) {
    const on = i < n && has(i);
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      const last = out[out.length - 1];
      if (last && start - last[1] < joinGap) last[1] = i;
      else out.push([start, i]);
      start = -1;
    }
  }
  for (let k = 0; thin > 0 && k < out.length;) {
    const [s, e] = out[k]!;
    if (e - s >= thin || out.length === 1) {
      k++;
      continue;
    }
    const gapBefore = k > 0 ? s - out[k - 1]![1] : Infinity;
    const gapAfter = k < out.length - 1 ? out[k + 1]![0] - e : Infinity;
    if (Math.min(gapBefore, gapAfter) > THIN_GAP) {
      k++;
      continue;
    }
    if (gapBefore <= gapAfter) {
      out[k - 1]![1] = e;
      out.splice(k, 1);
      k = Math.max(0, k - 1);
    } else {
      out[k + 1]![0] = s;
      out.splice(k, 1);
    }
  }
  return out;
}
