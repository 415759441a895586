import assert from "node:assert/strict";
import {
  AX_VALUE_TYPE,
  CF_RANGE_BYTES,
  CG_PAIR_BYTES,
  CG_RECT_BYTES,
  CG_RECT_NULL,
  cString,
  decodeAxStruct,
  decodeCFRange,
  decodeCGPoint,
  decodeCGRect,
  decodeCGSize,
  decodeCString,
  decodeUtf8,
  encodeCFRange,
  encodeCGPoint,
  encodeCGRect,
  f64Bytes,
  pointerArray,
  readF64,
  readI32,
  readI64,
  readU32,
  utf8Bytes,
  utf8Capacity,
} from "./marshal.ts";

/** Little-endian doubles, as a 64-bit Mac lays out CGFloat fields. */
function doubles(...values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 8);
  const v = new DataView(out.buffer);
  values.forEach((n, i) => v.setFloat64(i * 8, n, true));
  return out;
}

Deno.test("decodeCGPoint() and decodeCGSize() read two little-endian doubles", () => {
  assert.equal(CG_PAIR_BYTES, 16);
  assert.deepEqual(decodeCGPoint(doubles(12.5, -40)), { x: 12.5, y: -40 });
  assert.deepEqual(decodeCGSize(doubles(640, 480.25)), { w: 640, h: 480.25 });
});

Deno.test("decodeCGRect() reads origin then size: four doubles, 32 bytes", () => {
  assert.equal(CG_RECT_BYTES, 32);
  assert.deepEqual(decodeCGRect(doubles(1, 2, 3, 4)), { x: 1, y: 2, w: 3, h: 4 });
});

Deno.test("struct decoders honour a buffer's byte offset", () => {
  const big = new Uint8Array(48);
  big.set(doubles(7, 8, 9, 10), 16);
  assert.deepEqual(decodeCGRect(big.subarray(16)), { x: 7, y: 8, w: 9, h: 10 });
});

Deno.test("struct decoders refuse a short buffer", () => {
  assert.throws(() => decodeCGRect(new Uint8Array(31)), /Cannot read a CGRect: need 32 bytes/);
  assert.throws(() => decodeCGPoint(new Uint8Array(8)), RangeError);
});

Deno.test("encodeCGPoint() and encodeCGRect() write the bytes the decoders read", () => {
  assert.deepEqual(encodeCGPoint({ x: 3.5, y: 9 }), doubles(3.5, 9));
  assert.deepEqual(encodeCGRect({ x: 1, y: 2, w: 3, h: 4 }), doubles(1, 2, 3, 4));
  const r = { x: -10.75, y: 1e6, w: 0.125, h: 2048 };
  assert.deepEqual(decodeCGRect(encodeCGRect(r)), r);
  assert.deepEqual(decodeCGRect(encodeCGRect(CG_RECT_NULL)), CG_RECT_NULL);
});

Deno.test("encodeCFRange() writes two little-endian 64-bit integers", () => {
  const bytes = encodeCFRange(5, 300);
  assert.equal(bytes.length, CF_RANGE_BYTES);
  assert.deepEqual([...bytes], [5, 0, 0, 0, 0, 0, 0, 0, 44, 1, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(decodeCFRange(bytes), { location: 5, length: 300 });
});

Deno.test("decodeAxStruct() decodes each AXValueType from AXValueGetValue's bytes", () => {
  assert.deepEqual(decodeAxStruct(AX_VALUE_TYPE.cgPoint, doubles(1, 2)), {
    kind: "point",
    x: 1,
    y: 2,
  });
  assert.deepEqual(decodeAxStruct(AX_VALUE_TYPE.cgSize, doubles(3, 4)), {
    kind: "size",
    w: 3,
    h: 4,
  });
  assert.deepEqual(decodeAxStruct(AX_VALUE_TYPE.cgRect, doubles(1, 2, 3, 4)), {
    kind: "rect",
    x: 1,
    y: 2,
    w: 3,
    h: 4,
  });
  assert.deepEqual(decodeAxStruct(AX_VALUE_TYPE.cfRange, encodeCFRange(2, 7)), {
    kind: "range",
    location: 2,
    length: 7,
  });
  const status = new Uint8Array(4);
  new DataView(status.buffer).setInt32(0, -25212, true);
  assert.deepEqual(decodeAxStruct(AX_VALUE_TYPE.axError, status), {
    kind: "none",
    status: -25212,
  });
  assert.deepEqual(decodeAxStruct(42, new Uint8Array(32)), {
    kind: "other",
    type: "AXValueType 42",
  });
});

Deno.test("utf8Capacity() always fits the UTF-8 of a CFString of that UTF-16 length", () => {
  for (const s of ["", "a", "é", "€", "😀", "日本語テキスト", "a😀€é\u0000z".repeat(50)]) {
    assert.ok(utf8Bytes(s).length + 1 <= utf8Capacity(s.length), JSON.stringify(s));
  }
  assert.equal(utf8Capacity(0), 1);
});

Deno.test("CFString byte helpers round-trip text through buffers", () => {
  const text = "Résumé — 7 + 8 = 15 😀";
  const bytes = utf8Bytes(text);
  // As CFStringGetBytes fills a larger buffer and reports the bytes it used.
  const buf = new Uint8Array(utf8Capacity(text.length));
  buf.set(bytes);
  assert.equal(decodeUtf8(buf, bytes.length), text);
  // As CFStringGetCString fills it: NUL-terminated.
  const c = cString(text);
  assert.equal(c[c.length - 1], 0);
  assert.equal(decodeCString(c), text);
  assert.equal(decodeCString(new Uint8Array([104, 105])), "hi");
  assert.equal(decodeUtf8(buf, -3), "");
});

Deno.test("out-parameter readers take little-endian integers and doubles", () => {
  assert.equal(readI32(new Uint8Array([0xff, 0xff, 0xff, 0xff])), -1);
  assert.equal(readU32(new Uint8Array([0xff, 0xff, 0xff, 0xff])), 0xffff_ffff);
  assert.equal(readI64(new Uint8Array(new BigInt64Array([-42n]).buffer)), -42);
  assert.equal(readF64(f64Bytes(0.1)), 0.1);
  assert.deepEqual([...pointerArray([1n, 0xffff_0000_0000n])], [1n, 0xffff_0000_0000n]);
});
