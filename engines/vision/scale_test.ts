import assert from "node:assert/strict";
import { cropGrey, enlarge } from "./scale.ts";

Deno.test("enlarge() by 1 is the same image", () => {
  const img = { width: 2, height: 1, data: new Uint8Array([0, 255]) };
  assert.equal(enlarge(img, 1), img);
});

Deno.test("enlarge() by 2 doubles each side and softens edges", () => {
  const out = enlarge({ width: 2, height: 1, data: new Uint8Array([0, 255]) }, 2);
  assert.equal(out.width, 4);
  assert.equal(out.height, 2);
  // Nearest neighbour gives 0 0 255 255; the 3-wide box blur softens the middle.
  assert.deepEqual([...out.data.subarray(0, 4)], [0, 85, 170, 255]);
  assert.deepEqual([...out.data.subarray(4)], [...out.data.subarray(0, 4)]);
});

Deno.test("enlarge() keeps a uniform image uniform", () => {
  const out = enlarge({ width: 3, height: 3, data: new Uint8Array(9).fill(77) }, 3);
  assert.ok(out.data.every((v) => v === 77));
});

Deno.test("enlarge() refuses a fractional or small factor", () => {
  const img = { width: 1, height: 1, data: new Uint8Array(1) };
  assert.throws(() => enlarge(img, 1.5), RangeError);
  assert.throws(() => enlarge(img, 0), /Cannot enlarge by 0/);
});

Deno.test("cropGrey() copies the rows of a rectangle, clipped to the image", () => {
  const image = { width: 4, height: 3, data: Uint8Array.from({ length: 12 }, (_, i) => i) };
  assert.deepEqual(cropGrey(image, { x: 1, y: 1, w: 2, h: 2 }), {
    width: 2,
    height: 2,
    data: Uint8Array.from([5, 6, 9, 10]),
  });
  assert.deepEqual(cropGrey(image, { x: 3, y: 2, w: 5, h: 5 }).data, Uint8Array.from([11]));
});
