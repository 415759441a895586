/**
 * Byte layouts of the C structs and strings the macOS frameworks exchange with us, as pure
 * functions over buffers (no library needed, so they are tested on any OS).
 *
 * Every Mac Deno runs on is 64-bit and little-endian (x86_64 and arm64), so:
 * - `CGFloat` is `double` (8 bytes); `CGPoint {x, y}` and `CGSize {width, height}` are
 *   16 bytes, `CGRect {CGPoint origin; CGSize size;}` is 32 bytes, no padding.
 * - `CFIndex` is `signed long` (8 bytes); `CFRange {location, length}` is 16 bytes.
 * - `AXError` and `pid_t` are 32-bit signed integers.
 *
 * @module
 */
import type { AxValue } from "./values.ts";

/** Bytes of one `CGFloat` on 64-bit macOS. */
export const CGFLOAT_BYTES = 8;
/** Bytes of `CGPoint` and of `CGSize`. */
export const CG_PAIR_BYTES = 16;
/** Bytes of `CGRect`. */
export const CG_RECT_BYTES = 32;
/** Bytes of `CFRange`. */
export const CF_RANGE_BYTES = 16;
/** The largest struct `AXValueGetValue` writes (`CGRect`); out-buffers use this size. */
export const AX_VALUE_BYTES = CG_RECT_BYTES;

/** `kCFStringEncodingUTF8`. */
export const CF_UTF8 = 0x0800_0100;

/** `AXValueType` (AXValue.h). */
export const AX_VALUE_TYPE = {
  illegal: 0,
  cgPoint: 1,
  cgSize: 2,
  cgRect: 3,
  cfRange: 4,
  axError: 5,
} as const;

/** A point in screen points. */
export interface Point {
  /** Left. */
  x: number;
  /** Top (AX and CoreGraphics global coordinates grow downwards from the main display). */
  y: number;
}

/** A size in points. */
export interface Size {
  /** Width. */
  w: number;
  /** Height. */
  h: number;
}

/** A rectangle in points. */
export type Rect = Point & Size;

function view(bytes: Uint8Array, need: number, what: string): DataView {
  if (bytes.byteLength < need) {
    throw new RangeError(`Cannot read a ${what}: need ${need} bytes, got ${bytes.byteLength}`);
  }
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Reads a `CGPoint` (two little-endian doubles). */
export function decodeCGPoint(bytes: Uint8Array): Point {
  const v = view(bytes, CG_PAIR_BYTES, "CGPoint");
  return { x: v.getFloat64(0, true), y: v.getFloat64(8, true) };
}

/** Reads a `CGSize` (two little-endian doubles). */
export function decodeCGSize(bytes: Uint8Array): Size {
  const v = view(bytes, CG_PAIR_BYTES, "CGSize");
  return { w: v.getFloat64(0, true), h: v.getFloat64(8, true) };
}

/** Reads a `CGRect` (origin then size: four little-endian doubles). */
export function decodeCGRect(bytes: Uint8Array): Rect {
  const v = view(bytes, CG_RECT_BYTES, "CGRect");
  return {
    x: v.getFloat64(0, true),
    y: v.getFloat64(8, true),
    w: v.getFloat64(16, true),
    h: v.getFloat64(24, true),
  };
}

/** Reads a `CFRange` (two little-endian 64-bit signed integers). */
export function decodeCFRange(bytes: Uint8Array): { location: number; length: number } {
  const v = view(bytes, CF_RANGE_BYTES, "CFRange");
  return {
    location: Number(v.getBigInt64(0, true)),
    length: Number(v.getBigInt64(8, true)),
  };
}

/** Writes a `CGPoint`, e.g. for `CGEventCreateMouseEvent`'s by-value argument. */
export function encodeCGPoint(p: Point): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(CG_PAIR_BYTES);
  const v = new DataView(out.buffer);
  v.setFloat64(0, p.x, true);
  v.setFloat64(8, p.y, true);
  return out;
}

/** Writes a `CGRect`, e.g. for `CGWindowListCreateImage`'s by-value argument. */
export function encodeCGRect(r: Rect): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(CG_RECT_BYTES);
  const v = new DataView(out.buffer);
  v.setFloat64(0, r.x, true);
  v.setFloat64(8, r.y, true);
  v.setFloat64(16, r.w, true);
  v.setFloat64(24, r.h, true);
  return out;
}

/** `CGRectNull` ({inf, inf, 0, 0}): "the window's own bounds" for window captures. */
export const CG_RECT_NULL: Rect = { x: Infinity, y: Infinity, w: 0, h: 0 };

/** Writes a `CFRange`, e.g. for `CFStringGetBytes`'s by-value argument. */
export function encodeCFRange(location: number, length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(CF_RANGE_BYTES);
  const v = new DataView(out.buffer);
  v.setBigInt64(0, BigInt(location), true);
  v.setBigInt64(8, BigInt(length), true);
  return out;
}

/**
 * Decodes what `AXValueGetValue(value, type, buffer)` wrote into `bytes`.
 *
 * @param type The value's `AXValueType` (from `AXValueGetType`).
 * @param bytes At least the struct's size.
 * @returns The value, `{kind: "none", status}` for an `AXError` value (what
 *   `AXUIElementCopyMultipleAttributeValues` puts in place of an attribute it could not
 *   read), or `other` for a type this driver does not use.
 */
export function decodeAxStruct(type: number, bytes: Uint8Array): AxValue<never> {
  switch (type) {
    case AX_VALUE_TYPE.cgPoint:
      return { kind: "point", ...decodeCGPoint(bytes) };
    case AX_VALUE_TYPE.cgSize:
      return { kind: "size", ...decodeCGSize(bytes) };
    case AX_VALUE_TYPE.cgRect:
      return { kind: "rect", ...decodeCGRect(bytes) };
    case AX_VALUE_TYPE.cfRange:
      return { kind: "range", ...decodeCFRange(bytes) };
    case AX_VALUE_TYPE.axError:
      return { kind: "none", status: view(bytes, 4, "AXError").getInt32(0, true) };
    default:
      return { kind: "other", type: `AXValueType ${type}` };
  }
}

/** UTF-8 bytes of `text`, as `CFStringCreateWithBytes` takes them (no NUL needed). */
export function utf8Bytes(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
}

/**
 * Buffer size that always holds a CFString of `utf16Length` units as UTF-8: one unit is
 * at most 3 bytes (a surrogate pair is 2 units and 4 bytes), plus one for a C string's NUL.
 */
export function utf8Capacity(utf16Length: number): number {
  return Math.max(0, utf16Length) * 3 + 1;
}

/** Decodes the first `used` bytes of `buf` (as `CFStringGetBytes` reported them). */
export function decodeUtf8(buf: Uint8Array, used: number): string {
  return new TextDecoder().decode(buf.subarray(0, Math.max(0, Math.min(used, buf.length))));
}

/** Decodes a NUL-terminated UTF-8 C string from `buf` (as `CFStringGetCString` fills it). */
export function decodeCString(buf: Uint8Array): string {
  const end = buf.indexOf(0);
  return decodeUtf8(buf, end === -1 ? buf.length : end);
}

/** A NUL-terminated UTF-8 C string for `const char *` parameters. */
export function cString(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(text);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
}

/** A C array of pointers (`const void **`), e.g. the values of `CFArrayCreate`. */
export function pointerArray(addresses: readonly bigint[]): BigUint64Array<ArrayBuffer> {
  return BigUint64Array.from(addresses);
}

/** Reads the 64-bit little-endian signed integer an out-parameter (`CFIndex *`) got. */
export function readI64(bytes: Uint8Array): number {
  return Number(view(bytes, 8, "64-bit integer").getBigInt64(0, true));
}

/** Reads the 32-bit little-endian signed integer an out-parameter (`pid_t *`) got. */
export function readI32(bytes: Uint8Array): number {
  return view(bytes, 4, "32-bit integer").getInt32(0, true);
}

/** Reads the 32-bit little-endian unsigned integer an out-parameter (`CGWindowID *`) got. */
export function readU32(bytes: Uint8Array): number {
  return view(bytes, 4, "32-bit integer").getUint32(0, true);
}

/** Reads the double an out-parameter (`double *`, `CFNumberGetValue`) got. */
export function readF64(bytes: Uint8Array): number {
  return view(bytes, 8, "double").getFloat64(0, true);
}

/** Writes one double for an in-parameter (`const void *` of `CFNumberCreate`). */
export function f64Bytes(n: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setFloat64(0, n, true);
  return out;
}
