/**
 * Decodes D-Bus wire data. Each signature is compiled once into a tree of closures (cached by
 * signature string) so decoding a large reply does no parsing and no per-byte allocation.
 *
 * @module
 */

import { DBusProtocolError } from "./errors.ts";
import { alignmentOf, type DBusType, parseSignature, parseSingleType } from "./signature.ts";
import { Variant } from "./variant.ts";

/** Largest array body the spec allows (64 MiB). */
export const MAX_ARRAY_LENGTH = 64 * 1024 * 1024;
// Spec limit on total nesting, variants included; guards the stack against hostile peers.
const MAX_DEPTH = 64;

/** A cursor over one message; alignment is counted from `bytes[0]`, the message start. */
export class WireReader {
  /** Typed access to the same memory as `bytes`. */
  readonly view: DataView;
  /** Current read offset. */
  pos: number;
  /** Current variant nesting depth. */
  depth = 0;

  /** Reads `bytes` in the given byte order starting at `pos`. */
  constructor(readonly bytes: Uint8Array, readonly littleEndian: boolean, pos = 0) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = pos;
  }
}

type Decode = (r: WireReader) => unknown;

// ignoreBOM keeps a leading U+FEFF, which is part of the string on the wire.
const SHORT_STRING = 64;
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

function decodeUtf8(b: Uint8Array, start: number, end: number): string {
  const n = end - start;
  // Most strings here are short ASCII names and paths, where one fromCharCode call beats
  // TextDecoder's fixed per-call cost (and, unlike `+=`, yields a flat string).
  if (n <= SHORT_STRING) {
    const codes = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const c = b[start + i] as number;
      if (c >= 0x80) return utf8.decode(b.subarray(start, end));
      codes[i] = c;
    }
    return String.fromCharCode.apply(null, codes);
  }
  return utf8.decode(b.subarray(start, end));
}

function truncated(): never {
  throw new DBusProtocolError("D-Bus data ends inside a value");
}

/** Reads an `s` or `o` value at the reader's position. */
export function readString(r: WireReader): string {
  const p = (r.pos + 3) & ~3;
  const start = p + 4;
  if (start > r.bytes.length) truncated();
  const end = start + r.view.getUint32(p, r.littleEndian);
  if (end >= r.bytes.length) truncated();
  if (r.bytes[end] !== 0) throw new DBusProtocolError("D-Bus string is not nul-terminated");
  r.pos = end + 1;
  return decodeUtf8(r.bytes, start, end);
}

/** Reads a `g` value (one length byte, no alignment) at the reader's position. */
export function readSignatureValue(r: WireReader): string {
  const len = r.bytes[r.pos];
  if (len === undefined) truncated();
  const start = r.pos + 1;
  const end = start + len;
  if (end >= r.bytes.length) truncated();
  if (r.bytes[end] !== 0) throw new DBusProtocolError("D-Bus signature is not nul-terminated");
  r.pos = end + 1;
  return decodeUtf8(r.bytes, start, end);
}

function fixed(size: number, get: (r: WireReader, p: number) => unknown): Decode {
  const mask = size - 1;
  return (r) => {
    const p = (r.pos + mask) & ~mask;
    r.pos = p + size;
    return get(r, p);
  };
}

const BASIC_DECODERS: Record<string, Decode> = {
  y: (r) => {
    const v = r.bytes[r.pos++];
    return v === undefined ? truncated() : v;
  },
  b: fixed(4, (r, p) => {
    const v = r.view.getUint32(p, r.littleEndian);
    if (v > 1) throw new DBusProtocolError(`D-Bus boolean holds ${v}`);
    return v === 1;
  }),
  n: fixed(2, (r, p) => r.view.getInt16(p, r.littleEndian)),
  q: fixed(2, (r, p) => r.view.getUint16(p, r.littleEndian)),
  i: fixed(4, (r, p) => r.view.getInt32(p, r.littleEndian)),
  u: fixed(4, (r, p) => r.view.getUint32(p, r.littleEndian)),
  h: fixed(4, (r, p) => r.view.getUint32(p, r.littleEndian)),
  x: fixed(8, (r, p) => r.view.getBigInt64(p, r.littleEndian)),
  t: fixed(8, (r, p) => r.view.getBigUint64(p, r.littleEndian)),
  d: fixed(8, (r, p) => r.view.getFloat64(p, r.littleEndian)),
  s: readString,
  o: readString,
  g: readSignatureValue,
};

function readArrayBounds(r: WireReader, elementAlign: number): number {
  const p = (r.pos + 3) & ~3;
  if (p + 4 > r.bytes.length) truncated();
  const len = r.view.getUint32(p, r.littleEndian);
  if (len > MAX_ARRAY_LENGTH) throw new DBusProtocolError(`D-Bus array of ${len} bytes`);
  const mask = elementAlign - 1;
  // The padding to the first element is there even when the array is empty.
  r.pos = (p + 4 + mask) & ~mask;
  const end = r.pos + len;
  if (end > r.bytes.length) truncated();
  return end;
}

function checkArrayEnd(r: WireReader, end: number): void {
  if (r.pos !== end) throw new DBusProtocolError("D-Bus array elements overrun its length");
}

const decoders = new Map<string, Decode>();

function compile(t: DBusType): Decode {
  const hit = decoders.get(t.sig);
  if (hit !== undefined) return hit;
  let d: Decode;
  switch (t.kind) {
    case "basic":
      d = BASIC_DECODERS[t.code] as Decode; // The parser admits only codes in the table.
      break;
    case "variant":
      d = decodeVariant;
      break;
    case "array": {
      const element = compile(t.element);
      const align = alignmentOf(t.element);
      d = (r) => {
        const end = readArrayBounds(r, align);
        const out: unknown[] = [];
        while (r.pos < end) out.push(element(r));
        checkArrayEnd(r, end);
        return out;
      };
      break;
    }
    case "dict": {
      const key = compile(t.key);
      const value = compile(t.value);
      d = (r) => {
        const end = readArrayBounds(r, 8);
        const out = new Map<unknown, unknown>();
        while (r.pos < end) {
          r.pos = (r.pos + 7) & ~7;
          const k = key(r);
          out.set(k, value(r));
        }
        checkArrayEnd(r, end);
        return out;
      };
      break;
    }
    case "struct": {
      const fields = t.fields.map(compile);
      d = (r) => {
        r.pos = (r.pos + 7) & ~7;
        const n = fields.length;
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) out[i] = (fields[i] as Decode)(r);
        return out;
      };
      break;
    }
  }
  if (decoders.size > 4096) decoders.clear();
  decoders.set(t.sig, d);
  return d;
}

function decodeVariant(r: WireReader): Variant {
  const sig = readSignatureValue(r);
  let t: DBusType;
  try {
    t = parseSingleType(sig);
  } catch (e) {
    throw new DBusProtocolError(`D-Bus variant has a bad signature "${sig}"`, { cause: e });
  }
  if (++r.depth > MAX_DEPTH) throw new DBusProtocolError("D-Bus variants nest too deep");
  const value = compile(t)(r);
  r.depth--;
  return new Variant(sig, value);
}

/** Reads one value of the single complete type `signature` at the reader's position. */
export function readValue(r: WireReader, signature: string): unknown {
  return compile(parseSingleType(signature))(r);
}

/** Reads one value per complete type in `signature`; throws DBusProtocolError if malformed. */
export function readValues(r: WireReader, signature: string): unknown[] {
  let types: readonly DBusType[];
  try {
    types = parseSignature(signature);
  } catch (e) {
    throw new DBusProtocolError(`D-Bus body has a bad signature "${signature}"`, { cause: e });
  }
  const out: unknown[] = [];
  try {
    for (const t of types) out.push(compile(t)(r));
  } catch (e) {
    // DataView throws a bare RangeError past the end; name it as the protocol fault it is.
    if (e instanceof RangeError) throw new DBusProtocolError("D-Bus data ends inside a value");
    throw e;
  }
  return out;
}
