/**
 * Tesseract's TSV output (`GetTsvText`, `tesseract … tsv`) as words with their boxes.
 *
 * Columns: level, page, block, paragraph, line, word, left, top, width, height,
 * confidence, text. Level 5 rows are words; the others only group them.
 *
 * @module
 */
import type { PixelRect } from "./segment.ts";

/** One recognised word. */
export interface OcrWord {
  /** The word's characters, trimmed. */
  text: string;
  /** Tesseract's confidence, 0 to 100. */
  conf: number;
  /** Its box, in the pixels of the image Tesseract was given divided by `scale`. */
  rect: PixelRect;
  /** `block.paragraph.line`: words with the same key share a text line. */
  line: string;
  /** Set when a second reading disagreed: why this word is not to be trusted. */
  doubt?: string;
}

const WORD_LEVEL = "5";

/**
 * The words of one TSV answer, in the order Tesseract wrote them. Rows that are not
 * words, have no text, or are malformed are skipped.
 *
 * @param tsv Tesseract's TSV, with or without the header row.
 * @param scale How much the image was enlarged before OCR; boxes are divided by it.
 */
export function parseTsv(tsv: string, scale = 1): OcrWord[] {
  const words: OcrWord[] = [];
  for (const row of tsv.split("\n")) {
    const f = row.split("\t");
    if (f.length < 12 || f[0] !== WORD_LEVEL) continue;
    const text = f.slice(11).join("\t").trim();
    const nums = f.slice(6, 11).map(Number);
    if (text === "" || nums.some((n) => !Number.isFinite(n))) continue;
    const [left, top, width, height, conf] = nums as [number, number, number, number, number];
    const x = left / scale, y = top / scale;
    words.push({
      text,
      conf,
      rect: { x, y, w: width / scale, h: height / scale },
      line: `${f[2]}.${f[3]}.${f[4]}`,
    });
  }
  return words;
}
