/**
 * One capture in, proposed elements out: boxes by flood fill, their frames painted out,
 * text lines by XY cut, each line read by OCR on a 2× enlargement, then the proposals
 * with their crops. Everything is in capture pixels so a cached result serves the same
 * pixels wherever the window has moved.
 *
 * @module
 */
import { CropHasher } from "../../model/crop.ts";
import type { Capture } from "../../model/engine.ts";
import {
  BACKGROUND,
  backgroundLuma,
  findTextLeaves,
  inkMap,
  ownerMap,
  type TextLeaf,
} from "./layout.ts";
import type { LineReader } from "./ocr.ts";
import { type Proposal, propose } from "./regions.ts";
import { cropGrey, enlarge, type GreyImage } from "./scale.ts";
import { MIN_WORD_CONFIDENCE } from "./regions.ts";
import type { OcrWord } from "./tsv.ts";
import { type Box, findBoxes, lumaOf, paintFrames, type PixelRect } from "./segment.ts";

/** How much captures are enlarged before OCR (see scale.ts for the measurements). */
export const OCR_SCALE = 2;
/** Background kept around a line for OCR, as a share of the line's height... */
export const MARGIN_RATIO = 0.75;
/** ...and at least this many pixels. */
const MIN_MARGIN = 4;

/** What one analysis found and what it cost. */
export interface Analysis {
  /** The window's children, in reading order, in capture pixels. */
  proposals: Proposal[];
  /** Boxes found. */
  boxes: number;
  /** Lines given to OCR. */
  lines: number;
  /** Wall time, milliseconds. */
  ms: number;
}

/**
 * Proposes the elements of one capture.
 *
 * @param capture The window's pixels.
 * @param reader OCR for the text lines.
 * @param signal Aborts between lines.
 */
export async function analyse(
  capture: Capture,
  reader: LineReader,
  signal: AbortSignal,
): Promise<Analysis> {
  const started = performance.now();
  const { width, height } = capture;
  const luma = lumaOf(capture.rgba, width * height);
  const boxes = findBoxes(luma, width, height);
  const owners = ownerMap(width, height, boxes);
  const background = backgroundLuma(luma, owners);
  const { ink, rules } = inkMap(luma, width, owners, boxes, background);
  const leaves = findTextLeaves(ink, width, boxes);
  const clean = paintFrames(luma, width, height, boxes);
  // Rules go too: a border one pixel from a line of text would be read as a glyph.
  for (let i = 0; i < rules.length; i++) {
    if (rules[i] === 1) {
      const o = owners[i]!;
      clean[i] = o === BACKGROUND ? background : Math.round(boxes[o]?.fill ?? background);
    }
  }
  const image = enlarge({ width, height, data: clean }, OCR_SCALE);
  const rects = ocrRects(leaves, boxes, width, height).map((r) => ({
    x: r.x * OCR_SCALE,
    y: r.y * OCR_SCALE,
    w: r.w * OCR_SCALE,
    h: r.h * OCR_SCALE,
  }));
  const words = await reader.readLines(image, rects, OCR_SCALE, signal);
  await doubtThinGlyphs(image, rects, words, reader, signal);
  const proposals = propose(boxes, leaves, words, capture);
  // Crops in capture pixels: the same hash the map computes from screen points.
  const hasher = new CropHasher({ ...capture, scale: 1, origin: { x: 0, y: 0 } });
  const addCrops = (list: Proposal[]) => {
    for (const p of list) {
      const crop = hasher.hash(p.rect);
      if (crop !== undefined) p.crop = crop;
      addCrops(p.children);
    }
  };
  addCrops(proposals);
  return {
    proposals,
    boxes: boxes.length,
    lines: leaves.length,
    ms: performance.now() - started,
  };
}

/**
 * Thin upright glyphs that one font's "1" can look like another's "]": in the Type 1 font
 * Xvfb falls back to when no bitmap fonts are installed, Tesseract read xcalc's "1" key as
 * "]" with confidence 90, so confidence alone cannot catch it.
 */
export const THIN_GLYPHS: ReadonlySet<string> = new Set([
  "1",
  "l",
  "I",
  "|",
  "]",
  "[",
  "!",
  "i",
  "j",
]);

/**
 * A second reading, at twice the enlargement, of every line that read as one thin glyph.
 * Where the two disagree ("]" then "1" in the fallback font; the bitmap font's "1" reads "1"
 * both times) the word gets a `doubt` and the element goes unnamed, saying why. Only these
 * few lines are read again, each from its own small crop.
 */
export async function doubtThinGlyphs(
  image: GreyImage,
  rects: readonly PixelRect[],
  words: OcrWord[][],
  reader: LineReader,
  signal: AbortSignal,
): Promise<void> {
  for (let i = 0; i < words.length; i++) {
    const only = words[i]!.length === 1 ? words[i]![0]! : undefined;
    if (!only || !THIN_GLYPHS.has(only.text) || only.conf < MIN_WORD_CONFIDENCE) continue;
    const crop = enlarge(cropGrey(image, rects[i]!), 2);
    const full = { x: 0, y: 0, w: crop.width, h: crop.height };
    const [again = []] = await reader.readLines(crop, [full], OCR_SCALE * 2, signal);
    const second = again.map((w) => w.text).join(" ");
    if (second !== only.text) {
      words[i] = [{ ...only, doubt: `ocr_ambiguous: read as "${only.text}" and "${second}"` }];
    }
  }
}

/**
 * The rectangle OCR reads for each line: the line with a margin of its owner's background
 * (Tesseract misreads glyphs it sees without white space around them: xcalc's "9" came
 * out "9g" with 2 pixels of margin and "9" with 6), kept inside the owner's fill and off
 * every other line of the same owner.
 */
export function ocrRects(
  leaves: readonly TextLeaf[],
  boxes: readonly Box[],
  width: number,
  height: number,
): PixelRect[] {
  return leaves.map((leaf) => {
    const r = leaf.rect;
    const m = Math.max(MIN_MARGIN, Math.round(MARGIN_RATIO * r.h));
    const region = leaf.owner >= 0 ? boxes[leaf.owner]!.rect : { x: 0, y: 0, w: width, h: height };
    let left = Math.max(region.x, r.x - m), top = Math.max(region.y, r.y - m);
    let right = Math.min(region.x + region.w, r.x + r.w + m);
    let bottom = Math.min(region.y + region.h, r.y + r.h + m);
    for (const other of leaves) {
      const o = other.rect;
      if (other === leaf || other.owner !== leaf.owner) continue;
      if (o.x >= right || o.x + o.w <= left || o.y >= bottom || o.y + o.h <= top) continue;
      const overlapsRows = o.y < r.y + r.h && o.y + o.h > r.y;
      if (overlapsRows) {
        if (o.x >= r.x + r.w) right = Math.min(right, o.x);
        else if (o.x + o.w <= r.x) left = Math.max(left, o.x + o.w);
      } else if (o.y >= r.y + r.h) bottom = Math.min(bottom, o.y);
      else if (o.y + o.h <= r.y) top = Math.max(top, o.y + o.h);
    }
    return { x: left, y: top, w: right - left, h: bottom - top };
  });
}
