/**
 * Enlarging a grey image for OCR. Tesseract's line recogniser wants glyphs a good deal
 * taller than the 8 to 10 pixel bitmap fonts of plain X apps: on xcalc's keys it read
 * 35 of 55 labels at 1× and none of the digits 7, 8, 9 reliably at 3×, but 43 of 55 and
 * every digit and operator at 2× with the blocky edges softened (nearest-neighbour
 * enlargement, then a box blur one pixel wide).
 *
 * @module
 */

/** One byte of luma per pixel, row-major, no padding. */
export interface GreyImage {
  /** Pixels per row. */
  width: number;
  /** Rows. */
  height: number;
  /** `width * height` bytes. */
  data: Uint8Array;
}

/**
 * `image` enlarged `factor` times (nearest neighbour), then smoothed with a box blur of
 * radius `floor(factor / 2)`. A factor of 1 returns the image as it is.
 *
 * @param factor A whole number, 1 or more.
 * @throws {RangeError} when `factor` is not a whole number of at least 1.
 */
export function enlarge(image: GreyImage, factor: number): GreyImage {
  if (!Number.isInteger(factor) || factor < 1) {
    throw new RangeError(`Cannot enlarge by ${factor}: expected a whole number of at least 1`);
  }
  if (factor === 1) return image;
  const width = image.width * factor, height = image.height * factor;
  const big = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const src = Math.floor(y / factor) * image.width;
    const dst = y * width;
    for (let x = 0; x < width; x++) big[dst + x] = image.data[src + Math.floor(x / factor)]!;
  }
  const r = Math.floor(factor / 2);
  return { width, height, data: blurColumns(blurRows(big, width, height, r), width, height, r) };
}

/** The part of `image` inside `rect` (whole pixels, clipped to the image). */
export function cropGrey(
  image: GreyImage,
  rect: { x: number; y: number; w: number; h: number },
): GreyImage {
  const x0 = Math.max(0, Math.floor(rect.x)), y0 = Math.max(0, Math.floor(rect.y));
  const x1 = Math.min(image.width, Math.ceil(rect.x + rect.w));
  const y1 = Math.min(image.height, Math.ceil(rect.y + rect.h));
  const width = Math.max(0, x1 - x0), height = Math.max(0, y1 - y0);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const from = (y0 + y) * image.width + x0;
    data.set(image.data.subarray(from, from + width), y * width);
  }
  return { width, height, data };
}

function blurRows(src: Uint8Array, width: number, height: number, r: number): Uint8Array {
  const out = new Uint8Array(src.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let sum = 0;
      const lo = Math.max(0, x - r), hi = Math.min(width - 1, x + r);
      for (let k = lo; k <= hi; k++) sum += src[row + k]!;
      out[row + x] = Math.round(sum / (hi - lo + 1));
    }
  }
  return out;
}

function blurColumns(src: Uint8Array, width: number, height: number, r: number): Uint8Array {
  const out = new Uint8Array(src.length);
  for (let y = 0; y < height; y++) {
    const lo = Math.max(0, y - r), hi = Math.min(height - 1, y + r);
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let k = lo; k <= hi; k++) sum += src[k * width + x]!;
      out[y * width + x] = Math.round(sum / (hi - lo + 1));
    }
  }
  return out;
}
