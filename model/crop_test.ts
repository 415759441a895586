import assert from "node:assert/strict";
import type { Capture } from "./engine.ts";
import type { Bounds, Element } from "../protocol/element.ts";
import { addCrops, cropDistance, CropHasher, nearestByCrop } from "./crop.ts";

type Paint = (x: number, y: number) => number;

/** A grey capture painted pixel by pixel. */
function capture(width: number, height: number, paint: Paint, scale = 1, origin = { x: 0, y: 0 }) {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = paint(x, y);
      rgba.set([v, v, v, 255], (y * width + x) * 4);
    }
  }
  return { width, height, scale, origin, rgba } satisfies Capture;
}

/** Paints `inner` (in local pixels) inside a pixel rectangle, `outer` elsewhere. */
function inRect(px: Bounds, inner: Paint, outer = 128): Paint {
  return (x, y) =>
    x >= px.x && x < px.x + px.w && y >= px.y && y < px.y + px.h
      ? inner(x - px.x, y - px.y)
      : outer;
}

function el(id: string, bounds: Bounds): Element {
  return { id, role: "AXGroup", name: "", bounds, enabled: true, focused: false, actions: [] };
}

// Diagonal: white where the column of 4-px blocks is right of the row, in a 32-px square.
const diagonal: Paint = (x, y) => (Math.floor(x / 4) > Math.floor(y / 4) ? 255 : 0);

Deno.test("CropHasher.hash() of a left-black, right-white element is 0f0f0f0f0f0f0f0f", () => {
  // Bounds (108, 204, 16×16 pt) at scale 2 from origin (100, 200) are pixels x 16..48,
  // y 8..40: 32×32 px, so each of the 8×8 cells is 4×4 px. Columns 0-3 average 0 and
  // columns 4-7 average 255; the mean is 127.5, so each row's bits are 0000 1111 = 0x0f,
  // and eight rows give 0f repeated. The grey around must not leak in.
  const cap = capture(64, 48, inRect({ x: 16, y: 8, w: 32, h: 32 }, (x) => x < 16 ? 0 : 255), 2, {
    x: 100,
    y: 200,
  });
  assert.equal(new CropHasher(cap).hash({ x: 108, y: 204, w: 16, h: 16 }), "0f0f0f0f0f0f0f0f");
});

Deno.test("CropHasher.hash() orders bits row-major from the top", () => {
  // Top half white: rows 0-3 all ones, rows 4-7 all zeros.
  const cap = capture(32, 32, (_x, y) => (y < 16 ? 255 : 0));
  assert.equal(new CropHasher(cap).hash({ x: 0, y: 0, w: 32, h: 32 }), "ffffffff00000000");
  const diag = capture(32, 32, diagonal);
  // Row r has ones right of column r: 7f 3f 1f 0f 07 03 01 00.
  assert.equal(new CropHasher(diag).hash({ x: 0, y: 0, w: 32, h: 32 }), "7f3f1f0f07030100");
});

Deno.test("CropHasher.hash() of a uniform element is all zeros", () => {
  const cap = capture(20, 20, () => 77);
  assert.equal(new CropHasher(cap).hash({ x: 3, y: 3, w: 13, h: 7 }), "0000000000000000");
});

Deno.test("CropHasher.hash() averages fractional cells by area", () => {
  // 10 px wide, black on x < 4: cells are 1.25 px. Cell 3 spans 3.75..5, a quarter black,
  // so it averages 0.8 × 255 = 204; a row's mean is (204 + 4 × 255) / 8 = 153, so cell 3
  // is a 1 bit: 0001 1111 = 0x1f per row.
  const cap = capture(10, 10, (x) => (x < 4 ? 0 : 255));
  assert.equal(new CropHasher(cap).hash({ x: 0, y: 0, w: 10, h: 10 }), "1f1f1f1f1f1f1f1f");
  // Two pixels wide: each cell is a quarter pixel, left four black, right four white.
  const two = capture(2, 2, (x) => (x < 1 ? 0 : 255));
  assert.equal(new CropHasher(two).hash({ x: 0, y: 0, w: 2, h: 2 }), "0f0f0f0f0f0f0f0f");
});

Deno.test("CropHasher.hash() hashes only the part inside the capture", () => {
  // Bounds start 20 px left of the capture; the visible 32 px are half black, half white.
  const cap = capture(40, 32, (x) => (x < 16 ? 0 : x < 32 ? 255 : 90));
  assert.equal(new CropHasher(cap).hash({ x: -20, y: 0, w: 52, h: 32 }), "0f0f0f0f0f0f0f0f");
});

Deno.test("addCrops() gives no crop to zero-sized or outside elements", () => {
  const cap = capture(32, 32, diagonal);
  const inside = el("in", { x: 0, y: 0, w: 32, h: 32 });
  const flat = el("flat", { x: 4, y: 4, w: 10, h: 0 });
  const outside = el("out", { x: 40, y: 0, w: 10, h: 10 });
  const stale = { ...el("stale", { x: -50, y: 0, w: 10, h: 10 }), crop: "ffffffffffffffff" };
  const [a, b, c, d] = addCrops([inside, flat, outside, stale], cap);
  assert.equal(a?.crop, "7f3f1f0f07030100");
  assert.equal(b, flat);
  assert.equal(c, outside);
  assert.equal(d !== undefined && "crop" in d, false);
  assert.equal("crop" in inside, false);
});

Deno.test("cropDistance() counts differing bits", () => {
  assert.equal(cropDistance("0f0f0f0f0f0f0f0f", "0000000000000000"), 32);
  assert.equal(cropDistance("7f3f1f0f07030100", "7f3f1f0f07030101"), 1);
  assert.throws(() => cropDistance("xyz", "0000000000000000"), RangeError);
});

Deno.test("nearestByCrop() finds an element that moved", () => {
  const before = capture(200, 100, inRect({ x: 20, y: 20, w: 32, h: 32 }, diagonal));
  const was = new CropHasher(before).hash({ x: 20, y: 20, w: 32, h: 32 })!;
  const after = capture(200, 100, (x, y) => {
    if (x >= 20 && x < 52 && y >= 20 && y < 52) return x < 36 ? 0 : 255;
    return inRect({ x: 120, y: 50, w: 32, h: 32 }, diagonal)(x, y);
  });
  const elements = addCrops([
    el("halves", { x: 20, y: 20, w: 32, h: 32 }),
    el("diag", { x: 120, y: 50, w: 32, h: 32 }),
    el("background", { x: 0, y: 0, w: 16, h: 16 }),
  ], after);
  assert.equal(nearestByCrop(was, elements)?.id, "diag");
});

Deno.test("nearestByCrop() answers undefined beyond maxDistance", () => {
  const elements = addCrops([el("diag", { x: 0, y: 0, w: 32, h: 32 })], capture(32, 32, diagonal));
  assert.equal(nearestByCrop("ffffffffffffffff", elements), undefined);
  assert.equal(nearestByCrop("ffffffffffffffff", elements, 64)?.id, "diag");
});

Deno.test("nearestByCrop() breaks ties by nearness to the previous bounds", () => {
  const cap = capture(
    200,
    40,
    (x, y) => (x < 32 ? diagonal(x, y) : x >= 150 && x < 182 ? diagonal(x - 150, y) : 128),
  );
  const elements = addCrops([
    el("left", { x: 0, y: 0, w: 32, h: 32 }),
    el("right", { x: 150, y: 0, w: 32, h: 32 }),
  ], cap);
  const diag = "7f3f1f0f07030100";
  assert.equal(nearestByCrop(diag, elements)?.id, "left");
  assert.equal(nearestByCrop(diag, elements, 10, { x: 140, y: 2, w: 32, h: 32 })?.id, "right");
});
