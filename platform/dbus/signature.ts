/**
 * Parses D-Bus type signatures into a tree, once per distinct string, so the encoder and
 * decoder can compile each signature a single time.
 *
 * @module
 */

/** A basic (fixed or string-like) type code. */
export type BasicCode = "y" | "b" | "n" | "q" | "i" | "u" | "x" | "t" | "d" | "h" | "s" | "o" | "g";

/** One complete D-Bus type. */
export type DBusType =
  | { readonly kind: "basic"; readonly code: BasicCode; readonly sig: string }
  | { readonly kind: "variant"; readonly sig: "v" }
  | { readonly kind: "array"; readonly element: DBusType; readonly sig: string }
  | {
    readonly kind: "dict";
    readonly key: DBusType;
    readonly value: DBusType;
    readonly sig: string;
  }
  | { readonly kind: "struct"; readonly fields: readonly DBusType[]; readonly sig: string };

const BASIC = new Set<string>(["y", "b", "n", "q", "i", "u", "x", "t", "d", "h", "s", "o", "g"]);

/** Longest signature the spec allows. */
export const MAX_SIGNATURE_LENGTH = 255;
const MAX_NESTING = 32;

function basicAlignment(code: BasicCode): number {
  if (code === "y" || code === "g") return 1;
  if (code === "n" || code === "q") return 2;
  if (code === "x" || code === "t" || code === "d") return 8;
  return 4;
}

/** The alignment in bytes of values of type `t` (spec, "Marshaling"). */
export function alignmentOf(t: DBusType): number {
  switch (t.kind) {
    case "basic":
      return basicAlignment(t.code);
    case "variant":
      return 1;
    case "array":
    case "dict":
      return 4;
    case "struct":
      return 8;
  }
}

class Parser {
  pos = 0;
  arrays = 0;
  structs = 0;
  constructor(readonly sig: string) {}

  fail(reason: string): never {
    throw new TypeError(`Invalid D-Bus signature "${this.sig}": ${reason}`);
  }

  one(): DBusType {
    const start = this.pos;
    const c = this.sig[this.pos++];
    if (c === undefined) this.fail("ends early");
    if (BASIC.has(c)) return { kind: "basic", code: c as BasicCode, sig: c };
    if (c === "v") return { kind: "variant", sig: "v" };
    if (c === "a") {
      if (++this.arrays > MAX_NESTING) this.fail("arrays nest too deep");
      let t: DBusType;
      if (this.sig[this.pos] === "{") {
        this.pos++;
        const key = this.one();
        if (key.kind !== "basic") this.fail("dict key must be a basic type");
        const value = this.one();
        if (this.sig[this.pos++] !== "}") this.fail("dict entry must hold exactly two types");
        t = { kind: "dict", key, value, sig: this.sig.slice(start, this.pos) };
      } else {
        const element = this.one();
        t = { kind: "array", element, sig: this.sig.slice(start, this.pos) };
      }
      this.arrays--;
      return t;
    }
    if (c === "(") {
      if (++this.structs > MAX_NESTING) this.fail("structs nest too deep");
      const fields: DBusType[] = [];
      while (this.sig[this.pos] !== ")") fields.push(this.one());
      if (fields.length === 0) this.fail("empty struct");
      this.pos++;
      this.structs--;
      return { kind: "struct", fields, sig: this.sig.slice(start, this.pos) };
    }
    if (c === "{") this.fail("dict entry outside an array");
    this.fail(`unexpected "${c}" at ${start}`);
  }
}

const cache = new Map<string, readonly DBusType[]>();

/** Parses `signature` into its complete types (cached); throws TypeError when invalid. */
export function parseSignature(signature: string): readonly DBusType[] {
  const hit = cache.get(signature);
  if (hit !== undefined) return hit;
  if (signature.length > MAX_SIGNATURE_LENGTH) {
    throw new TypeError(`Invalid D-Bus signature: longer than ${MAX_SIGNATURE_LENGTH}`);
  }
  const parser = new Parser(signature);
  const types: DBusType[] = [];
  while (parser.pos < signature.length) types.push(parser.one());
  // Signatures come from peers too; bounding the cache stops a hostile peer growing it forever.
  if (cache.size > 4096) cache.clear();
  cache.set(signature, types);
  return types;
}

/** Parses a signature that must hold exactly one complete type, as a variant's does. */
export function parseSingleType(signature: string): DBusType {
  const types = parseSignature(signature);
  const only = types[0];
  if (types.length !== 1 || only === undefined) {
    throw new TypeError(`Invalid D-Bus signature "${signature}": not a single complete type`);
  }
  return only;
}
