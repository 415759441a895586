import assert from "node:assert/strict";
import { CropHasher } from "../../model/crop.ts";
import { box, canvas, fill } from "./_testing.ts";
import { analyse, doubtThinGlyphs, OCR_SCALE, ocrRects } from "./analyse.ts";
import type { LineReader } from "./ocr.ts";
import type { PixelRect } from "./segment.ts";
import type { OcrWord } from "./tsv.ts";

/** Answers each line with a word naming the line's position: pure pipeline, no Tesseract. */
class PositionReader implements LineReader {
  calls: PixelRect[] = [];
  scale = 0;
  readLines(_image: { width: number }, lines: readonly PixelRect[], scale: number) {
    this.scale = scale;
    this.calls.push(...lines);
    return Promise.resolve(lines.map((r) => [{
      text: `L${r.x / scale},${r.y / scale}`,
      conf: 90,
      rect: { x: r.x / scale + 2, y: r.y / scale + 2, w: r.w / scale - 4, h: r.h / scale - 4 },
      line: "1.1.1",
    }]));
  }
}

Deno.test("analyse() proposes buttons and text from one capture, enlarged for OCR", async () => {
  const c = canvas(200, 100);
  box(c, { x: 10, y: 10, w: 40, h: 26 });
  fill(c, { x: 27, y: 19, w: 5, h: 8 }, 0); // the button's glyph
  // Text on the background: strokes with gaps, like letters (a solid block is a box).
  for (let x = 100; x < 130; x += 5) fill(c, { x, y: 60, w: 3, h: 8 }, 0);
  const reader = new PositionReader();
  const a = await analyse(c, reader, AbortSignal.timeout(1000));
  assert.equal(reader.scale, OCR_SCALE);
  assert.equal(a.boxes, 1);
  assert.equal(a.lines, 2);
  // Each line reaches OCR with a margin of 6 pixels (0.75 of its height), kept inside its
  // box, in enlarged pixels.
  assert.deepEqual(reader.calls.map((r) => [r.w, r.h].map((v) => v / OCR_SCALE)), [
    [40, 20],
    [17, 20],
  ]);
  assert.deepEqual(a.proposals.map((p) => [p.role, p.name]), [
    ["AXButton", "L21,13"],
    ["AXStaticText", "L94,54"],
  ]);
  const hasher = new CropHasher({ ...c, origin: { x: 0, y: 0 } });
  assert.equal(a.proposals[0]!.crop, hasher.hash(a.proposals[0]!.rect));
});

Deno.test("analyse() of a blank window asks OCR nothing", async () => {
  const reader = new PositionReader();
  const a = await analyse(canvas(50, 50), reader, AbortSignal.timeout(1000));
  assert.deepEqual(a.proposals, []);
  assert.equal(reader.calls.length, 0);
});

Deno.test("ocrRects() keeps a line's margin inside its box and off its neighbours", () => {
  const boxes = [{ rect: { x: 0, y: 0, w: 100, h: 40 }, frame: 1, fill: 255 }];
  const leaves = [
    { rect: { x: 10, y: 10, w: 20, h: 8 }, owner: 0 },
    { rect: { x: 10, y: 21, w: 20, h: 8 }, owner: 0 }, // the next line, 3 px below
    { rect: { x: 34, y: 10, w: 20, h: 8 }, owner: 0 }, // a word 4 px to the right
  ];
  assert.deepEqual(ocrRects(leaves, boxes, 200, 100)[0], { x: 4, y: 4, w: 30, h: 17 });
});

Deno.test("doubtThinGlyphs() reads a lone thin glyph again, bigger, and doubts a change", async () => {
  const image = { width: 40, height: 20, data: new Uint8Array(800).fill(255) };
  const rects = [{ x: 0, y: 0, w: 10, h: 20 }, { x: 10, y: 0, w: 10, h: 20 }, {
    x: 20,
    y: 0,
    w: 20,
    h: 20,
  }];
  const w = (text: string): OcrWord => ({
    text,
    conf: 90,
    rect: { x: 0, y: 0, w: 4, h: 8 },
    line: "1.1.1",
  });
  const words = [[w("]")], [w("1")], [w("7")]];
  const asked: { width: number; scale: number }[] = [];
  const second = ["1", "1"];
  const reader: LineReader = {
    readLines: (img, _lines, scale) => {
      asked.push({ width: img.width, scale });
      return Promise.resolve([[w(second.shift()!)]]);
    },
  };
  await doubtThinGlyphs(image, rects, words, reader, AbortSignal.timeout(1_000));
  // Only the two thin glyphs, each from its own crop enlarged twice again.
  assert.deepEqual(asked, [{ width: 20, scale: OCR_SCALE * 2 }, {
    width: 20,
    scale: OCR_SCALE * 2,
  }]);
  assert.equal(words[0]![0]!.doubt, 'ocr_ambiguous: read as "]" and "1"');
  assert.equal(words[1]![0]!.doubt, undefined, "the same reading twice is trusted");
  assert.equal(words[2]![0]!.doubt, undefined);
});
