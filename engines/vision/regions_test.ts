import assert from "node:assert/strict";
import { BACKGROUND } from "./layout.ts";
import { MIN_WORD_CONFIDENCE, propose, readingOrder } from "./regions.ts";
import type { Box } from "./segment.ts";
import type { OcrWord } from "./tsv.ts";

const word = (text: string, x: number, y: number, w = 6, h = 8): OcrWord => ({
  text,
  conf: 90,
  rect: { x, y, w, h },
  line: "1.1.1",
});
const size = { width: 300, height: 200 };

Deno.test("propose() names a box holding one line a button, by its text", () => {
  const boxes: Box[] = [{ rect: { x: 10, y: 10, w: 40, h: 26 }, frame: 1, fill: 255 }];
  const out = propose(boxes, [{ rect: { x: 27, y: 19, w: 6, h: 8 }, owner: 0 }], [[
    word("7", 27, 19),
  ]], size);
  assert.deepEqual(out, [{
    role: "AXButton",
    name: "7",
    rect: { x: 9, y: 9, w: 42, h: 28 },
    actions: ["press", "click", "focus"],
    children: [],
  }]);
});

Deno.test("propose() makes a group of a box with several lines, an empty box too", () => {
  const boxes: Box[] = [
    { rect: { x: 10, y: 10, w: 200, h: 40 }, frame: 2, fill: 255 },
    { rect: { x: 10, y: 100, w: 100, h: 20 }, frame: 1, fill: 255 },
  ];
  const leaves = [
    { rect: { x: 150, y: 30, w: 20, h: 8 }, owner: 0 },
    { rect: { x: 20, y: 14, w: 12, h: 8 }, owner: 0 },
  ];
  const out = propose(boxes, leaves, [[word("DEG", 150, 30, 20)], [word("15", 20, 14, 12)]], size);
  assert.equal(out.length, 2);
  const [display, field] = out;
  assert.equal(display!.role, "AXGroup");
  assert.equal(display!.name, "");
  assert.deepEqual(display!.children.map((c) => [c.role, c.name]), [
    ["AXStaticText", "15"],
    ["AXStaticText", "DEG"],
  ]);
  assert.deepEqual(field!.children, []);
  assert.deepEqual(field!.actions, ["click", "focus", "set_value", "type_text"]);
});

Deno.test("propose() gives a line of several words one child per word", () => {
  const leaves = [{ rect: { x: 5, y: 5, w: 60, h: 10 }, owner: BACKGROUND }];
  const out = propose([], leaves, [[word("echo", 5, 5, 24), word("HELLO", 33, 5, 32)]], size);
  assert.equal(out.length, 1);
  assert.equal(out[0]!.name, "echo HELLO");
  assert.deepEqual(out[0]!.children.map((c) => [c.name, c.rect.x]), [["echo", 5], ["HELLO", 33]]);
});

Deno.test("propose() drops unreadable marks on the background but keeps icon buttons", () => {
  const boxes: Box[] = [{ rect: { x: 100, y: 10, w: 30, h: 30 }, frame: 1, fill: 255 }];
  const leaves = [
    { rect: { x: 5, y: 5, w: 10, h: 10 }, owner: BACKGROUND },
    { rect: { x: 110, y: 20, w: 10, h: 10 }, owner: 0 },
  ];
  const out = propose(boxes, leaves, [[], []], size);
  assert.deepEqual(out.map((p) => [p.role, p.name]), [["AXButton", ""]]);
});

Deno.test("propose() nests a box inside the box whose fill holds it", () => {
  const boxes: Box[] = [
    { rect: { x: 10, y: 10, w: 200, h: 100 }, frame: 1, fill: 230 },
    { rect: { x: 30, y: 30, w: 40, h: 20 }, frame: 1, fill: 255 },
  ];
  const leaves = [{ rect: { x: 40, y: 35, w: 20, h: 8 }, owner: 1 }];
  const out = propose(boxes, leaves, [[word("OK", 40, 35, 20)]], size);
  assert.deepEqual(out.map((p) => p.role), ["AXGroup"]);
  assert.deepEqual(out[0]!.children.map((p) => [p.role, p.name]), [["AXButton", "OK"]]);
});

Deno.test("readingOrder() sorts rows top to bottom, each left to right", () => {
  const at = (x: number, y: number, h = 10) => ({ rect: { x, y, w: 5, h } });
  const items = [at(50, 2), at(10, 30), at(0, 0), at(30, 4, 6), at(0, 31)];
  assert.deepEqual(readingOrder(items).map((i) => [i.rect.x, i.rect.y]), [
    [0, 0],
    [30, 4],
    [50, 2],
    [0, 31],
    [10, 30],
  ]);
});

Deno.test("propose() leaves words read with low confidence out of names", () => {
  const boxes: Box[] = [{ rect: { x: 10, y: 10, w: 40, h: 26 }, frame: 1, fill: 255 }];
  const unsure = { ...word("7", 27, 19), conf: MIN_WORD_CONFIDENCE - 1 };
  const out = propose(boxes, [{ rect: { x: 27, y: 19, w: 6, h: 8 }, owner: 0 }], [[unsure]], size);
  assert.deepEqual(out.map((p) => [p.role, p.name]), [["AXButton", ""]]);
});

Deno.test("propose() leaves a key unnamed and says why when its word is doubted or unsure", () => {
  const boxes: Box[] = [
    { rect: { x: 10, y: 10, w: 40, h: 26 }, frame: 1, fill: 255 },
    { rect: { x: 60, y: 10, w: 40, h: 26 }, frame: 1, fill: 255 },
    { rect: { x: 110, y: 10, w: 40, h: 26 }, frame: 1, fill: 255 },
  ];
  const leaves = [
    { rect: { x: 27, y: 19, w: 6, h: 8 }, owner: 0 },
    { rect: { x: 77, y: 19, w: 6, h: 8 }, owner: 1 },
    { rect: { x: 127, y: 19, w: 6, h: 8 }, owner: 2 },
  ];
  const doubted = { ...word("]", 27, 19), doubt: 'ocr_ambiguous: read as "]" and "1"' };
  const unsure = { ...word("7", 77, 19), conf: MIN_WORD_CONFIDENCE - 1 };
  const out = propose(boxes, leaves, [[doubted], [unsure], []], size);
  assert.deepEqual(out.map((p) => [p.name, p.unread]), [
    ["", 'ocr_ambiguous: read as "]" and "1"'],
    ["", "ocr_low_confidence"],
    ["", "ocr_no_text"],
  ]);
});
