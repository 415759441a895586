import assert from "node:assert/strict";
import { overlap } from "./stacking_geometry.ts";

Deno.test("overlap: the shared part of two rectangles", () => {
  assert.deepEqual(
    overlap({ x: 0, y: 0, w: 100, h: 100 }, { x: 50, y: 80, w: 100, h: 100 }),
    { x: 50, y: 80, w: 50, h: 20 },
  );
  assert.deepEqual(
    overlap({ x: 10, y: 10, w: 5, h: 5 }, { x: 0, y: 0, w: 100, h: 100 }),
    { x: 10, y: 10, w: 5, h: 5 },
  );
});

Deno.test("overlap: rectangles that only touch, or are apart, share nothing", () => {
  assert.equal(overlap({ x: 0, y: 0, w: 10, h: 10 }, { x: 10, y: 0, w: 10, h: 10 }), undefined);
  assert.equal(overlap({ x: 0, y: 0, w: 10, h: 10 }, { x: 0, y: 30, w: 10, h: 10 }), undefined);
});
