/**
 * Typed wrappers over CoreFoundation: CFString, CFArray, CFNumber and CFBoolean to and from
 * JavaScript values, with ownership made explicit. Functions named `create*` return an
 * object the caller owns and must {@link Cf.release} (Apple's Create/Copy rule; use
 * {@link Cf.using} to release in `finally`); every other function borrows.
 *
 * @module
 */
import { CF_NUMBER_TYPE, type CoreFoundation } from "./core_foundation.ts";
import {
  CF_UTF8,
  decodeUtf8,
  encodeCFRange,
  f64Bytes,
  pointerArray,
  readF64,
  utf8Bytes,
  utf8Capacity,
} from "./marshal.ts";

/** The CF types the driver reads, by `CFGetTypeID`. */
export type CfKind =
  | "string"
  | "number"
  | "boolean"
  | "array"
  | "dictionary"
  | "url"
  | "attributed"
  | "null"
  | "other";

/**
 * The value of a pointer-typed static (`const CFStringRef kCFRunLoopDefaultMode`, ...).
 * Deno hands a `{type: "pointer"}` static over as the variable's address, not its value
 * (checked on Deno 2.9 with glibc's `program_invocation_name`), so it is read once more.
 */
export function readStatic(address: Deno.PointerValue): Deno.PointerValue {
  return address === null ? null : new Deno.UnsafePointerView(address).getPointer();
}

/** An out-parameter slot for one pointer (`CFTypeRef *`, `CFArrayRef *`, ...). */
export function outPointer(): BigUint64Array<ArrayBuffer> {
  return new BigUint64Array(1);
}

/** The pointer a call wrote into an {@link outPointer} slot (`null` when NULL). */
export function readOutPointer(slot: BigUint64Array): Deno.PointerValue {
  return Deno.UnsafePointer.create(slot[0] ?? 0n);
}

/** CoreFoundation with the caches the wrappers need. */
export class Cf {
  /** The raw symbols, for the few callers that need one directly. */
  readonly lib: CoreFoundation;
  readonly #interned = new Map<string, Deno.PointerObject>();
  readonly #kinds: Map<bigint, CfKind>;

  /** Wraps loaded symbols; reads the type ids once. */
  constructor(lib: CoreFoundation) {
    this.lib = lib;
    this.#kinds = new Map<bigint, CfKind>([
      [lib.CFStringGetTypeID(), "string"],
      [lib.CFNumberGetTypeID(), "number"],
      [lib.CFBooleanGetTypeID(), "boolean"],
      [lib.CFArrayGetTypeID(), "array"],
      [lib.CFDictionaryGetTypeID(), "dictionary"],
      [lib.CFURLGetTypeID(), "url"],
      [lib.CFAttributedStringGetTypeID(), "attributed"],
      [lib.CFNullGetTypeID(), "null"],
    ]);
  }

  /** Releases an owned object; NULL is ignored (CFRelease(NULL) would crash). */
  release(p: Deno.PointerValue): void {
    if (p !== null) this.lib.CFRelease(p);
  }

  /** Takes one more reference to a borrowed object; the caller now owns one. */
  retain(p: Deno.PointerObject): Deno.PointerObject {
    this.lib.CFRetain(p);
    return p;
  }

  /** Runs `fn` with an owned object and releases it afterwards, whatever happens. */
  using<T>(owned: Deno.PointerValue, fn: (p: Deno.PointerValue) => T): T {
    try {
      return fn(owned);
    } finally {
      this.release(owned);
    }
  }

  /** Async {@link using}: releases once `fn`'s promise settled. */
  async usingAsync<T>(
    owned: Deno.PointerValue,
    fn: (p: Deno.PointerValue) => Promise<T>,
  ): Promise<T> {
    try {
      return await fn(owned);
    } finally {
      this.release(owned);
    }
  }

  /** What `p` is, by its CF type id. */
  kindOf(p: Deno.PointerObject): CfKind {
    return this.#kinds.get(this.lib.CFGetTypeID(p)) ?? "other";
  }

  /** The raw type id (to compare with AX types the Cf does not know). */
  typeId(p: Deno.PointerObject): bigint {
    return this.lib.CFGetTypeID(p);
  }

  /** A new CFString with `text` (owned). */
  createString(text: string): Deno.PointerObject {
    const bytes = utf8Bytes(text);
    const p = this.lib.CFStringCreateWithBytes(null, bytes, BigInt(bytes.length), CF_UTF8, 0);
    if (p === null) throw new Error(`Cannot create a CFString from ${JSON.stringify(text)}`);
    return p;
  }

  /**
   * A CFString kept for the life of the process: attribute, action and notification names
   * and dictionary keys, used on every call. Never released (deliberately: a small fixed
   * set).
   */
  constant(text: string): Deno.PointerObject {
    let p = this.#interned.get(text);
    if (!p) this.#interned.set(text, p = this.createString(text));
    return p;
  }

  /** The text of a borrowed CFString, via its UTF-8 bytes (lone surrogates become `?`). */
  string(p: Deno.PointerObject): string {
    const length = Number(this.lib.CFStringGetLength(p));
    if (length <= 0) return "";
    const capacity = utf8Capacity(length);
    const buf = new Uint8Array(capacity);
    const used = new BigInt64Array(1);
    this.lib.CFStringGetBytes(
      p,
      encodeCFRange(0, length),
      CF_UTF8,
      0x3f,
      0,
      buf,
      BigInt(capacity),
      used,
    );
    return decodeUtf8(buf, Number(used[0] ?? 0n));
  }

  /**
   * A new CFArray of `items` (owned). Created without callbacks, so the array does not
   * retain its items: the caller keeps them alive until the array is released.
   */
  createArray(items: readonly Deno.PointerObject[]): Deno.PointerObject {
    const values = pointerArray(items.map((p) => Deno.UnsafePointer.value(p)));
    const p = this.lib.CFArrayCreate(null, values, BigInt(items.length), null);
    if (p === null) throw new Error(`Cannot create a CFArray of ${items.length} items`);
    return p;
  }

  /** The items of a borrowed CFArray (borrowed too: valid while the array lives). */
  arrayItems(p: Deno.PointerObject, max = Infinity): Deno.PointerValue[] {
    const n = Math.min(Number(this.lib.CFArrayGetCount(p)), max);
    const out: Deno.PointerValue[] = [];
    for (let i = 0; i < n; i++) out.push(this.lib.CFArrayGetValueAtIndex(p, BigInt(i)));
    return out;
  }

  /** A borrowed CFNumber as a double (integers up to 2^53 exactly). */
  number(p: Deno.PointerObject): number {
    const out = new Uint8Array(8);
    this.lib.CFNumberGetValue(p, CF_NUMBER_TYPE.float64, out);
    return readF64(out);
  }

  /** A new CFNumber holding `n` as a double (owned). */
  createNumber(n: number): Deno.PointerObject {
    const p = this.lib.CFNumberCreate(null, CF_NUMBER_TYPE.float64, f64Bytes(n));
    if (p === null) throw new Error(`Cannot create a CFNumber from ${n}`);
    return p;
  }

  /** A borrowed CFBoolean's value. */
  bool(p: Deno.PointerObject): boolean {
    return this.lib.CFBooleanGetValue(p) !== 0;
  }

  /** `kCFBooleanTrue` or `kCFBooleanFalse` (constants: never released). */
  booleanConstant(value: boolean): Deno.PointerObject {
    const p = readStatic(value ? this.lib.kCFBooleanTrue : this.lib.kCFBooleanFalse);
    if (p === null) throw new Error("kCFBooleanTrue/False are missing from CoreFoundation");
    return p;
  }

  /** The value under `key` in a borrowed CFDictionary (borrowed), or `null`. */
  dictionaryValue(dict: Deno.PointerObject, key: Deno.PointerObject): Deno.PointerValue {
    return this.lib.CFDictionaryGetValue(dict, key);
  }
}
