/**
 * Crops: an 8×8 average hash of each element's pixels from one window capture
 * (`read_ui` with `crops: true`), and matching by it, so the vision fallback and replay
 * can recognise an element whose tree data changed.
 *
 * Hash: the element's bounds are mapped from screen points to capture pixels
 * (`(p - origin) * scale`) and clipped to the capture. The clipped rectangle is cut into
 * 8×8 equal cells (fractional at the edges) and each cell gets the exact area average of
 * its pixels' luma (Rec. 601: 0.299 R + 0.587 G + 0.114 B; alpha is ignored), kept in
 * 1/256 luma steps so equal cells compare equal despite float rounding. A cell's bit is 1
 * when its average is strictly above the mean of the 64 cells. Bits are row-major, top
 * row first, left to right, the first bit the most significant: 16 lowercase hex digits,
 * the first digit the top row's four left cells. A uniform element hashes to all zeros.
 *
 * @module
 */
import type { Capture } from "./engine.ts";
import type { Bounds, Element } from "../protocol/element.ts";

const CROP = /^[0-9a-f]{16}$/;

/**
 * Hashes many elements of one capture. Builds a summed-area table of luma once
 * (8 bytes per pixel, freed with the hasher), after which each hash costs 81 lookups
 * whatever the element's size.
 */
export class CropHasher {
  readonly #capture: Capture;
  /** Luma × 1000 summed over pixels above and left of each corner; (w+1)×(h+1). */
  readonly #sums: Float64Array;

  /**
   * @param capture One capture; `rgba` holds `width * height * 4` bytes.
   * @throws {RangeError} when `rgba` is shorter than the size says.
   */
  constructor(capture: Capture) {
    const { width, height, rgba } = capture;
    if (rgba.length < width * height * 4) {
      throw new RangeError(
        `Cannot hash crops: capture of ${width}×${height} has ${rgba.length} bytes`,
      );
    }
    this.#capture = capture;
    const stride = width + 1;
    const sums = new Float64Array(stride * (height + 1));
    for (let y = 0; y < height; y++) {
      let row = 0;
      let p = y * width * 4;
      const above = y * stride;
      const here = above + stride;
      for (let x = 0; x < width; x++, p += 4) {
        // Integer luma × 1000: sums stay exact in a double for any real screen.
        row += 299 * rgba[p]! + 587 * rgba[p + 1]! + 114 * rgba[p + 2]!;
        sums[here + x + 1] = sums[above + x + 1]! + row;
      }
    }
    this.#sums = sums;
  }

  /** Sum over pixels left of `x` and above `y`, for real coordinates (bilinear is exact). */
  #integral(x: number, y: number): number {
    const { width, height } = this.#capture;
    const i = Math.min(Math.floor(x), width - 1);
    const j = Math.min(Math.floor(y), height - 1);
    const fx = x - i;
    const fy = y - j;
    const s = this.#sums;
    const stride = width + 1;
    const top = j * stride + i;
    const bottom = top + stride;
    const upper = s[top]! + (s[top + 1]! - s[top]!) * fx;
    const lower = s[bottom]! + (s[bottom + 1]! - s[bottom]!) * fx;
    return upper + (lower - upper) * fy;
  }

  /**
   * The crop of a rectangle in screen points.
   *
   * @param bounds The element's bounds.
   * @returns 16 hex digits, or `undefined` when the rectangle is empty after clipping.
   */
  hash(bounds: Bounds): string | undefined {
    const { width, height, scale, origin } = this.#capture;
    if (!(bounds.w > 0 && bounds.h > 0)) return undefined;
    const x0 = Math.max(0, (bounds.x - origin.x) * scale);
    const y0 = Math.max(0, (bounds.y - origin.y) * scale);
    const x1 = Math.min(width, (bounds.x + bounds.w - origin.x) * scale);
    const y1 = Math.min(height, (bounds.y + bounds.h - origin.y) * scale);
    if (!(x1 > x0 && y1 > y0)) return undefined;
    const cw = (x1 - x0) / 8;
    const ch = (y1 - y0) / 8;
    const grid = new Float64Array(81);
    for (let r = 0; r <= 8; r++) {
      const y = r === 8 ? y1 : y0 + r * ch;
      for (let c = 0; c <= 8; c++) grid[r * 9 + c] = this.#integral(c === 8 ? x1 : x0 + c * cw, y);
    }
    // Averages in 1/256 luma: luma×1000 / area × 256 / 1000.
    const unit = 256 / 1000 / (cw * ch);
    const cells = new Int32Array(64);
    let total = 0;
    for (let r = 0; r < 8; r++) {
      for (let c = 0; c < 8; c++) {
        const k = r * 9 + c;
        const sum = grid[k + 10]! - grid[k + 9]! - grid[k + 1]! + grid[k]!;
        const v = Math.round(sum * unit);
        cells[r * 8 + c] = v;
        total += v;
      }
    }
    let hi = 0;
    let lo = 0;
    for (let k = 0; k < 64; k++) {
      // v > total / 64, kept in integers.
      const bit = cells[k]! * 64 > total ? 1 : 0;
      if (k < 32) hi = (hi << 1) | bit;
      else lo = (lo << 1) | bit;
    }
    return (hi >>> 0).toString(16).padStart(8, "0") + (lo >>> 0).toString(16).padStart(8, "0");
  }
}

/**
 * Elements with their crop from `capture`.
 *
 * @param elements Elements whose bounds are in the capture's screen points.
 * @param capture One capture of their window.
 * @returns New objects with `crop` for elements inside the capture; elements that are
 *   zero-sized or fully outside come back without `crop` (the same object when they had none).
 */
export function addCrops(elements: readonly Element[], capture: Capture): Element[] {
  const hasher = new CropHasher(capture);
  return elements.map((el) => {
    const crop = hasher.hash(el.bounds);
    if (crop !== undefined) return { ...el, crop };
    if (el.crop === undefined) return el;
    const { crop: _stale, ...rest } = el;
    return rest;
  });
}

function popcount(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

function words(crop: string): [number, number] {
  if (!CROP.test(crop)) throw new RangeError(`Invalid crop "${crop}": expected 16 hex digits`);
  return [parseInt(crop.slice(0, 8), 16), parseInt(crop.slice(8), 16)];
}

/**
 * Hamming distance between two crops: how many of the 64 cells differ.
 *
 * @param a One crop (16 lowercase hex digits).
 * @param b Another crop.
 * @throws {RangeError} when either is not 16 lowercase hex digits.
 */
export function cropDistance(a: string, b: string): number {
  const [ah, al] = words(a);
  const [bh, bl] = words(b);
  return popcount(ah ^ bh) + popcount(al ^ bl);
}

function centreGap(a: Bounds, b: Bounds): number {
  return Math.hypot(a.x + a.w / 2 - b.x - b.w / 2, a.y + a.h / 2 - b.y - b.h / 2);
}

/**
 * The element whose crop is nearest to `crop`.
 *
 * @param crop The crop to find.
 * @param elements Candidates; those without `crop` are skipped.
 * @param maxDistance Largest Hamming distance accepted (default 10 of 64 bits).
 * @param previous Where the element was: among equally near crops, the one whose centre
 *   is closest wins. Without it, the first in list order wins.
 * @returns The best candidate, or `undefined` when none is within `maxDistance`.
 * @throws {RangeError} when `crop` or a candidate's crop is not 16 lowercase hex digits.
 */
export function nearestByCrop(
  crop: string,
  elements: readonly Element[],
  maxDistance = 10,
  previous?: Bounds,
): Element | undefined {
  const [h, l] = words(crop);
  let best: Element | undefined;
  let bestDistance = Infinity;
  let bestGap = Infinity;
  for (const el of elements) {
    if (el.crop === undefined) continue;
    const [eh, ehLow] = words(el.crop);
    const d = popcount(h ^ eh) + popcount(l ^ ehLow);
    if (d > maxDistance || d > bestDistance) continue;
    const gap = previous === undefined ? 0 : centreGap(previous, el.bounds);
    if (d < bestDistance || gap < bestGap) {
      best = el;
      bestDistance = d;
      bestGap = gap;
    }
  }
  return best;
}
