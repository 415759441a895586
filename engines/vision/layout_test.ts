import assert from "node:assert/strict";
import { box, canvas, fill, lumaOfCanvas } from "./_testing.ts";
import {
  BACKGROUND,
  backgroundLuma,
  findTextLeaves,
  FRAME,
  inkMap,
  ownerMap,
  RULE_LENGTH,
} from "./layout.ts";
import { findBoxes } from "./segment.ts";
import type { Capture } from "../../model/engine.ts";

function leavesOf(c: Capture) {
  const luma = lumaOfCanvas(c);
  const boxes = findBoxes(luma, c.width, c.height);
  const owners = ownerMap(c.width, c.height, boxes);
  const { ink } = inkMap(luma, c.width, owners, boxes, backgroundLuma(luma, owners));
  const leaves = findTextLeaves(ink, c.width, boxes);
  return {
    boxes,
    owners,
    leaves: leaves.sort((a, b) => a.rect.y - b.rect.y || a.rect.x - b.rect.x),
  };
}

/** A fake glyph: a solid block. */
const glyph = (c: Capture, x: number, y: number, w = 5, h = 8) => fill(c, { x, y, w, h }, 0);

Deno.test("ownerMap() gives pixels to the innermost box, frames to FRAME", () => {
  const c = canvas(60, 40);
  box(c, { x: 5, y: 5, w: 50, h: 30 });
  box(c, { x: 20, y: 12, w: 20, h: 12 });
  const { boxes, owners } = leavesOf(c);
  assert.equal(boxes.length, 2);
  const outer = boxes.findIndex((b) => b.rect.w === 50);
  const inner = 1 - outer;
  assert.equal(owners[0], BACKGROUND);
  assert.equal(owners[4 * 60 + 4], FRAME);
  assert.equal(owners[6 * 60 + 6], outer);
  assert.equal(owners[15 * 60 + 25], inner);
  assert.equal(owners[11 * 60 + 25], FRAME);
});

Deno.test("backgroundLuma() is the most common background grey", () => {
  const c = canvas(20, 10, 240);
  fill(c, { x: 0, y: 0, w: 5, h: 10 }, 10);
  const luma = lumaOfCanvas(c);
  assert.equal(backgroundLuma(luma, new Int32Array(200).fill(BACKGROUND)), 240);
  assert.equal(backgroundLuma(luma, new Int32Array(200).fill(0)), 255, "none: white");
});

Deno.test("findTextLeaves() cuts lines at empty rows and labels at wide gaps", () => {
  const c = canvas(200, 60);
  // Line 1: two words close together, then a far label.
  glyph(c, 10, 5), glyph(c, 16, 5), glyph(c, 24, 5), glyph(c, 30, 5);
  glyph(c, 120, 5);
  // Line 2.
  glyph(c, 10, 20), glyph(c, 16, 20);
  const { leaves } = leavesOf(c);
  assert.deepEqual(leaves.map((l) => l.rect), [
    { x: 10, y: 5, w: 25, h: 8 },
    { x: 120, y: 5, w: 5, h: 8 },
    { x: 10, y: 20, w: 11, h: 8 },
  ]);
  assert.ok(leaves.every((l) => l.owner === BACKGROUND));
});

Deno.test("findTextLeaves() keeps an equals sign and a dotted i whole", () => {
  const c = canvas(60, 30);
  fill(c, { x: 10, y: 10, w: 6, h: 1 }, 0);
  fill(c, { x: 10, y: 13, w: 6, h: 1 }, 0); // "="
  fill(c, { x: 30, y: 8, w: 2, h: 2 }, 0);
  fill(c, { x: 30, y: 11, w: 2, h: 7 }, 0); // "i"
  const { leaves } = leavesOf(c);
  // Two labels (the gap is wider than a line is tall), each in one piece.
  assert.deepEqual(leaves.map((l) => l.rect), [
    { x: 30, y: 8, w: 2, h: 10 },
    { x: 10, y: 10, w: 6, h: 4 },
  ]);
});

Deno.test("findTextLeaves() reads each box's text against the box's own fill", () => {
  const c = canvas(100, 40, 180);
  box(c, { x: 5, y: 5, w: 40, h: 20 }, 1, 0, 255);
  glyph(c, 20, 10);
  glyph(c, 70, 10); // on the grey background
  const { leaves } = leavesOf(c);
  assert.deepEqual(leaves.map((l) => [l.owner, l.rect.x]), [[0, 20], [BACKGROUND, 70]]);
});

Deno.test("inkMap() takes out rules so a bordered window still cuts into lines", () => {
  const c = canvas(120, 80);
  fill(c, { x: 0, y: 0, w: 120, h: 1 }, 0); // top border
  fill(c, { x: 0, y: 0, w: 1, h: 80 }, 0); // left border
  glyph(c, 4, 4), glyph(c, 10, 4);
  glyph(c, 4, 20);
  const luma = lumaOfCanvas(c);
  const owners = new Int32Array(luma.length).fill(BACKGROUND);
  const { ink, rules } = inkMap(luma, c.width, owners, [], 255);
  assert.equal(rules[0], 1);
  assert.equal(rules[40 * 120], 1);
  assert.equal(ink[5 * 120 + 5], BACKGROUND);
  assert.ok(RULE_LENGTH <= 80);
  const leaves = findTextLeaves(ink, c.width, []).map((l) => l.rect);
  assert.deepEqual(leaves, [{ x: 4, y: 4, w: 11, h: 8 }, { x: 4, y: 20, w: 5, h: 8 }]);
});
