import assert from "node:assert/strict";
import { box, canvas, fill, lumaOfCanvas } from "./_testing.ts";
import { findBoxes, lumaOf, paintFrames } from "./segment.ts";

Deno.test("lumaOf() weighs red, green and blue as Rec. 601", () => {
  const rgba = new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 0]);
  assert.deepEqual([...lumaOf(rgba, 4)], [76, 150, 29, 9]);
});

Deno.test("findBoxes() finds a framed box and its frame width, text inside or not", () => {
  const c = canvas(100, 60);
  box(c, { x: 10, y: 10, w: 30, h: 20 });
  box(c, { x: 55, y: 10, w: 30, h: 20 }, 3);
  fill(c, { x: 20, y: 15, w: 2, h: 8 }, 0); // a glyph stroke inside the first box
  const boxes = findBoxes(lumaOfCanvas(c), c.width, c.height);
  assert.deepEqual(boxes, [
    { rect: { x: 10, y: 10, w: 30, h: 20 }, frame: 1, fill: 255 },
    { rect: { x: 55, y: 10, w: 30, h: 20 }, frame: 3, fill: 255 },
  ]);
});

Deno.test("findBoxes() ignores the window background, small specks and glyph counters", () => {
  const c = canvas(80, 40);
  fill(c, { x: 10, y: 10, w: 5, h: 5 }, 0); // a speck
  // An "O": a ring whose counter is round-ish, not a rectangle owning its outline.
  for (let y = 0; y < 16; y++) {
    for (let x = 0; x < 16; x++) {
      const d = Math.hypot(x - 7.5, y - 7.5);
      if (d <= 8 && d >= 5) fill(c, { x: 40 + x, y: 10 + y, w: 1, h: 1 }, 0);
    }
  }
  assert.deepEqual(findBoxes(lumaOfCanvas(c), c.width, c.height), []);
});

Deno.test("findBoxes() folds a thick border ring into the box it frames", () => {
  const c = canvas(120, 70);
  // A 4-pixel black ring around a white display, like xcalc's.
  fill(c, { x: 10, y: 10, w: 100, h: 50 }, 0);
  fill(c, { x: 14, y: 14, w: 92, h: 42 }, 255);
  const boxes = findBoxes(lumaOfCanvas(c), c.width, c.height);
  assert.equal(boxes.length, 1);
  assert.deepEqual(boxes[0]!.rect, { x: 14, y: 14, w: 92, h: 42 });
  assert.ok(boxes[0]!.frame >= 4);
});

Deno.test("findBoxes() keeps a gentle gradient as one region", () => {
  const c = canvas(60, 40);
  box(c, { x: 10, y: 10, w: 40, h: 20 });
  for (let y = 10; y < 30; y++) fill(c, { x: 10, y, w: 40, h: 1 }, 200 + 2 * (y - 10)); // 2 per row, 38 in all
  const boxes = findBoxes(lumaOfCanvas(c), c.width, c.height);
  assert.equal(boxes.length, 1);
  assert.deepEqual(boxes[0]!.rect, { x: 10, y: 10, w: 40, h: 20 });
});

Deno.test("paintFrames() paints each frame in its box's fill and leaves the rest", () => {
  const c = canvas(40, 30);
  box(c, { x: 10, y: 10, w: 20, h: 10 }, 2);
  fill(c, { x: 15, y: 12, w: 2, h: 6 }, 0);
  const luma = lumaOfCanvas(c);
  const painted = paintFrames(luma, c.width, c.height, findBoxes(luma, c.width, c.height));
  const dark = [...painted.keys()].filter((i) => painted[i]! < 128);
  // Only the glyph stroke is left dark.
  assert.deepEqual(
    dark.map((i) => [i % 40, Math.floor(i / 40)]).sort(),
    [
      ...[12, 13, 14, 15, 16, 17].flatMap((y) => [[15, y], [16, y]]),
    ].sort(),
  );
  assert.equal(luma[8 * 40 + 8], 0, "the input is not changed");
});
