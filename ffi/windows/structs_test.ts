import assert from "node:assert/strict";
import {
  bgraToRgba,
  bitmapInfo,
  INPUT_SIZE,
  KEYEVENTF,
  MOUSEEVENTF,
  packInputs,
  readRect,
  rectBounds,
} from "./structs.ts";

Deno.test("packInputs() lays out MOUSEINPUT in a 40-byte INPUT", () => {
  const buf = packInputs([{
    kind: "mouse",
    dx: 32768,
    dy: -5,
    mouseData: -240,
    flags: MOUSEEVENTF.MOVE | MOUSEEVENTF.ABSOLUTE,
  }]);
  assert.equal(INPUT_SIZE, 40);
  assert.equal(buf.length, 40);
  const v = new DataView(buf.buffer);
  assert.equal(v.getUint32(0, true), 0); // INPUT_MOUSE
  assert.equal(v.getUint32(4, true), 0); // padding before the 8-aligned union
  assert.equal(v.getInt32(8, true), 32768);
  assert.equal(v.getInt32(12, true), -5);
  assert.equal(v.getUint32(16, true), 0xffffff10); // -240 as a DWORD
  assert.equal(v.getUint32(20, true), 0x8001);
  assert.equal(v.getUint32(24, true), 0); // time
  assert.equal(v.getBigUint64(32, true), 0n); // dwExtraInfo
});

Deno.test("packInputs() lays out KEYBDINPUT and packs events back to back", () => {
  const buf = packInputs([
    { kind: "key", vk: 0x41, scan: 0, flags: 0 },
    { kind: "key", vk: 0, scan: 0x20ac, flags: KEYEVENTF.UNICODE | KEYEVENTF.KEYUP },
  ]);
  assert.equal(buf.length, 80);
  const v = new DataView(buf.buffer);
  assert.equal(v.getUint32(0, true), 1); // INPUT_KEYBOARD
  assert.equal(v.getUint16(8, true), 0x41);
  assert.equal(v.getUint32(40, true), 1);
  assert.equal(v.getUint16(48, true), 0); // wVk
  assert.equal(v.getUint16(50, true), 0x20ac); // wScan: the UTF-16 unit
  assert.equal(v.getUint32(52, true), 0x6); // UNICODE | KEYUP
});

Deno.test("readRect() and rectBounds() read four LONGs; inverted rects have no size", () => {
  const r = new Int32Array([-8, 10, 1912, 1030]);
  const rect = readRect(new Uint8Array(r.buffer));
  assert.deepEqual(rect, { left: -8, top: 10, right: 1912, bottom: 1030 });
  assert.deepEqual(rectBounds(rect), { x: -8, y: 10, w: 1920, h: 1020 });
  assert.deepEqual(rectBounds({ left: 5, top: 5, right: 1, bottom: 1 }), {
    x: 5,
    y: 5,
    w: 0,
    h: 0,
  });
});

Deno.test("bitmapInfo() asks for top-down 32-bit BI_RGB rows", () => {
  const v = new DataView(bitmapInfo(640, 480).buffer);
  assert.equal(v.getUint32(0, true), 40);
  assert.equal(v.getInt32(4, true), 640);
  assert.equal(v.getInt32(8, true), -480);
  assert.equal(v.getUint16(12, true), 1);
  assert.equal(v.getUint16(14, true), 32);
  assert.equal(v.getUint32(16, true), 0);
});

Deno.test("bgraToRgba() swaps red and blue and makes pixels opaque", () => {
  const px = new Uint8Array([1, 2, 3, 0, 10, 20, 30, 7]);
  assert.deepEqual([...bgraToRgba(px)], [3, 2, 1, 255, 30, 20, 10, 255]);
});
