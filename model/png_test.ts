import assert from "node:assert/strict";
import { decode } from "fast-png";
import { DriverError } from "../protocol/errors.ts";
import type { Capture } from "./engine.ts";
import { encodePng } from "./png.ts";
import { cropCapture } from "./capture.ts";

/** A capture whose pixel (x, y) is [x, y, x + y, 255]. */
function gradient(width: number, height: number, scale = 1, origin = { x: 0, y: 0 }): Capture {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rgba.set([x, y, x + y, 255], (y * width + x) * 4);
  }
  return { width, height, scale, origin, rgba };
}

Deno.test("encodePng() round-trips through a PNG decoder", () => {
  const c = gradient(17, 9);
  const png = encodePng(c);
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
  const back = decode(png);
  assert.deepEqual([back.width, back.height, back.channels, back.depth], [17, 9, 4, 8]);
  assert.deepEqual([...back.data], [...c.rgba]);
});

Deno.test("cropCapture() cuts a rectangle in screen points and moves the origin", () => {
  const c = gradient(20, 10, 1, { x: 100, y: 50 });
  const crop = cropCapture(c, { x: 105, y: 52, w: 3, h: 2 });
  assert.deepEqual([crop.width, crop.height, crop.origin.x, crop.origin.y], [3, 2, 105, 52]);
  assert.deepEqual([...crop.rgba.subarray(0, 4)], [5, 2, 7, 255]);
  assert.deepEqual([...crop.rgba.subarray(20, 24)], [7, 3, 10, 255]);
});

Deno.test("cropCapture() clips to the capture and honours scale", () => {
  const c = gradient(20, 10, 2, { x: 0, y: 0 });
  const crop = cropCapture(c, { x: 8, y: 3, w: 10, h: 10 });
  assert.deepEqual([crop.width, crop.height, crop.origin.x, crop.origin.y], [4, 4, 8, 3]);
  assert.deepEqual([...crop.rgba.subarray(0, 4)], [16, 6, 22, 255]);
});

Deno.test("cropCapture() of a rectangle outside the capture is invalid_params", () => {
  assert.throws(() => cropCapture(gradient(4, 4), { x: 10, y: 0, w: 2, h: 2 }), (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "invalid_params");
    return true;
  });
});
