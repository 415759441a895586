/**
 * BSTRs: length-prefixed UTF-16 strings owned by whoever received them. Strings UIA
 * returns are read and freed here; strings passed to UIA are allocated and freed by an
 * {@link OwnedBstr}.
 *
 * @module
 */
import type { OleAut32 } from "./oleaut32.ts";

/** The oleaut32 functions BSTR handling needs (tests pass fakes). */
export type BstrLib = Pick<OleAut32, "SysAllocStringLen" | "SysFreeString" | "SysStringLen">;

const utf16 = new TextDecoder("utf-16le");

/** UTF-16LE code units of `text` (no terminator). */
export function utf16Units(text: string): Uint16Array<ArrayBuffer> {
  const out = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** `text` NUL-terminated, for `LPCWSTR` arguments. */
export function wideString(text: string): Uint16Array<ArrayBuffer> {
  const out = new Uint16Array(text.length + 1);
  out.set(utf16Units(text));
  return out;
}

/** Decodes `count` UTF-16 code units at `ptr`. */
export function readUtf16(ptr: Deno.PointerObject, count: number): string {
  if (count <= 0) return "";
  return utf16.decode(new Deno.UnsafePointerView(ptr).getArrayBuffer(count * 2));
}

/** The text of `bstr` (a null BSTR is the empty string); does not free it. */
export function readBstr(lib: Pick<BstrLib, "SysStringLen">, bstr: Deno.PointerValue): string {
  if (!bstr) return "";
  return readUtf16(bstr, lib.SysStringLen(bstr));
}

/** Reads `bstr` and frees it: for strings a call handed over. */
export function takeBstr(lib: BstrLib, bstr: Deno.PointerValue): string {
  try {
    return readBstr(lib, bstr);
  } finally {
    if (bstr) lib.SysFreeString(bstr);
  }
}

/** Reads and frees the BSTR a call wrote to an out-parameter slot. */
export function takeBstrOut(lib: BstrLib, out: BigUint64Array): string {
  return takeBstr(lib, Deno.UnsafePointer.create(out[0]!));
}

/** A BSTR this process allocated to pass to a call; freed once, by dispose. */
export class OwnedBstr implements Disposable {
  #ptr: Deno.PointerValue;
  readonly #lib: BstrLib;

  private constructor(lib: BstrLib, ptr: Deno.PointerValue) {
    this.#lib = lib;
    this.#ptr = ptr;
  }

  /** Allocates a BSTR holding `text` (embedded NULs kept). */
  static from(lib: BstrLib, text: string): OwnedBstr {
    const units = utf16Units(text);
    const ptr = lib.SysAllocStringLen(units, units.length);
    if (!ptr) throw new RangeError(`Cannot allocate a BSTR of ${units.length} characters`);
    return new OwnedBstr(lib, ptr);
  }

  /** The BSTR, for passing by value. */
  get ptr(): Deno.PointerValue {
    return this.#ptr;
  }

  /** Frees the string; idempotent. */
  [Symbol.dispose](): void {
    const ptr = this.#ptr;
    this.#ptr = null;
    if (ptr) this.#lib.SysFreeString(ptr);
  }
}
