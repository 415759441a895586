/**
 * Encodes values to the D-Bus wire format, little-endian. Like the decoder, each signature is
 * compiled once into closures; values are checked against their types as they are written.
 *
 * @module
 */

import { MAX_ARRAY_LENGTH } from "./decode.ts";
import { alignmentOf, type DBusType, parseSignature, parseSingleType } from "./signature.ts";
import { Variant } from "./variant.ts";
import type { WireWriter } from "./wire_writer.ts";

type Encode = (w: WireWriter, v: unknown) => void;

const utf8 = new TextEncoder();

function bad(what: string, v: unknown): never {
  let shown = typeof v === "bigint" ? `${v}n` : typeof v === "string" ? `"${v}"` : String(v);
  // Bodies can carry megabytes; the message only needs enough to recognise the value.
  if (shown.length > 80) shown = `${shown.slice(0, 77)}...`;
  throw new TypeError(`Cannot encode ${shown} as D-Bus ${what}`);
}

function writeUtf8(w: WireWriter, s: string, lengthBytes: 1 | 4): void {
  w.reserve(lengthBytes + s.length * 3 + 1);
  const start = w.pos + lengthBytes;
  let n = 0;
  for (; n < s.length; n++) {
    const c = s.charCodeAt(n);
    if (c >= 0x80) break;
    w.buf[start + n] = c;
  }
  if (n < s.length) {
    n += utf8.encodeInto(s.slice(n), w.buf.subarray(start + n)).written;
  }
  if (lengthBytes === 1) w.buf[w.pos] = n;
  else w.view.setUint32(w.pos, n, true);
  w.buf[start + n] = 0;
  w.pos = start + n + 1;
}

function writeString(w: WireWriter, v: unknown): void {
  if (typeof v !== "string" || v.includes("\0")) bad("string", v);
  w.align(4);
  writeUtf8(w, v, 4);
}

const OBJECT_PATH = /^\/$|^(\/[A-Za-z0-9_]+)+$/;

function writeObjectPath(w: WireWriter, v: unknown): void {
  if (typeof v !== "string" || !OBJECT_PATH.test(v)) bad("object path", v);
  w.align(4);
  writeUtf8(w, v, 4);
}

function writeSignature(w: WireWriter, v: unknown): void {
  if (typeof v !== "string") bad("signature", v);
  parseSignature(v);
  writeUtf8(w, v, 1);
}

function int(
  size: number,
  min: number,
  max: number,
  set: (w: WireWriter, v: number) => void,
): Encode {
  return (w: WireWriter, v: unknown): void => {
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
      bad(`integer in [${min}, ${max}]`, v);
    }
    w.align(size);
    w.reserve(size);
    set(w, v);
    w.pos += size;
  };
}

function big(signed: boolean): Encode {
  const min = signed ? -(1n << 63n) : 0n;
  const max = signed ? (1n << 63n) - 1n : (1n << 64n) - 1n;
  return (w, v) => {
    const n = typeof v === "number" && Number.isSafeInteger(v) ? BigInt(v) : v;
    if (typeof n !== "bigint" || n < min || n > max) bad(signed ? "int64" : "uint64", v);
    w.align(8);
    w.reserve(8);
    if (signed) w.view.setBigInt64(w.pos, n, true);
    else w.view.setBigUint64(w.pos, n, true);
    w.pos += 8;
  };
}

const BASIC_ENCODERS: Record<string, Encode> = {
  y: (w, v) => {
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 255) bad("byte", v);
    w.u8(v);
  },
  b: (w, v) => {
    if (typeof v !== "boolean") bad("boolean", v);
    w.u32(v ? 1 : 0);
  },
  n: int(2, -0x8000, 0x7fff, (w, v) => w.view.setInt16(w.pos, v, true)),
  q: int(2, 0, 0xffff, (w, v) => w.view.setUint16(w.pos, v, true)),
  i: int(4, -0x80000000, 0x7fffffff, (w, v) => w.view.setInt32(w.pos, v, true)),
  u: int(4, 0, 0xffffffff, (w, v) => w.view.setUint32(w.pos, v, true)),
  h: int(4, 0, 0xffffffff, (w, v) => w.view.setUint32(w.pos, v, true)),
  x: big(true),
  t: big(false),
  d: (w, v) => {
    if (typeof v !== "number") bad("double", v);
    w.align(8);
    w.reserve(8);
    w.view.setFloat64(w.pos, v, true);
    w.pos += 8;
  },
  s: writeString,
  o: writeObjectPath,
  g: writeSignature,
};

function writeArray<T>(w: WireWriter, align: number, items: Iterable<T>, each: (x: T) => void) {
  w.align(4);
  w.reserve(4);
  const lengthAt = w.pos;
  w.pos += 4;
  w.align(align);
  const start = w.pos;
  for (const item of items) each(item);
  const len = w.pos - start;
  if (len > MAX_ARRAY_LENGTH) throw new RangeError(`D-Bus array of ${len} bytes is too long`);
  w.view.setUint32(lengthAt, len, true);
}

const encoders = new Map<string, Encode>();

function compile(t: DBusType): Encode {
  const hit = encoders.get(t.sig);
  if (hit !== undefined) return hit;
  let e: Encode;
  switch (t.kind) {
    case "basic":
      e = BASIC_ENCODERS[t.code] ?? ((_w, v) => bad(t.sig, v));
      break;
    case "variant":
      e = (w, v) => {
        if (!(v instanceof Variant)) bad("variant (use new Variant(signature, value))", v);
        const inner = compile(parseSingleType(v.signature));
        writeUtf8(w, v.signature, 1);
        inner(w, v.value);
      };
      break;
    case "array": {
      const element = compile(t.element);
      const align = alignmentOf(t.element);
      e = (w, v) => {
        if (!Array.isArray(v) && !(v instanceof Uint8Array && t.sig === "ay")) bad(t.sig, v);
        writeArray(w, align, v as Iterable<unknown>, (x) => element(w, x));
      };
      break;
    }
    case "dict": {
      const key = compile(t.key);
      const value = compile(t.value);
      e = (w, v) => {
        const entries = v instanceof Map
          ? v.entries()
          : typeof v === "object" && v !== null && !Array.isArray(v)
          ? Object.entries(v)
          : bad(t.sig, v);
        writeArray(w, 8, entries, ([k, x]: [unknown, unknown]) => {
          w.align(8);
          key(w, k);
          value(w, x);
        });
      };
      break;
    }
    case "struct": {
      const fields = t.fields.map(compile);
      e = (w, v) => {
        if (!Array.isArray(v) || v.length !== fields.length) bad(`struct ${t.sig}`, v);
        w.align(8);
        for (let i = 0; i < fields.length; i++) (fields[i] as Encode)(w, v[i]);
      };
      break;
    }
  }
  encoders.set(t.sig, e);
  return e;
}

/** Writes one value of the single complete type `signature` at the writer's position. */
export function writeValue(w: WireWriter, signature: string, value: unknown): void {
  compile(parseSingleType(signature))(w, value);
}

/** Writes `values`, one per complete type in `signature`, at the writer's position. */
export function writeValues(w: WireWriter, signature: string, values: readonly unknown[]): void {
  const types = parseSignature(signature);
  if (types.length !== values.length) {
    throw new TypeError(
      `D-Bus signature "${signature}" takes ${types.length} values, got ${values.length}`,
    );
  }
  for (let i = 0; i < types.length; i++) compile(types[i] as DBusType)(w, values[i]);
}
