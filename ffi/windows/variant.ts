/**
 * VARIANTs: UIA's property values. A VARIANT is 24 bytes on 64-bit Windows: `vt` (u16)
 * at 0, three reserved u16, the value union at 8. {@link takeVariant} decodes one into a
 * plain JS value and clears it (freeing its BSTR, SAFEARRAY or interface).
 *
 * A VARIANT passed *by value* (as `CreatePropertyCondition` takes one) is larger than 16
 * bytes, so both the x64 and arm64 Windows conventions pass it as a pointer to a
 * caller-owned copy: such parameters are declared `"pointer"` and given {@link boolVariant}.
 *
 * @module
 */
import { readBstr } from "./bstr.ts";
import type { OleAut32 } from "./oleaut32.ts";
import { readSafeArray, VT } from "./safearray.ts";
import type { SafeArrayLib } from "./safearray.ts";

/** Bytes in a VARIANT. */
export const VARIANT_SIZE = 24;

/** The oleaut32 functions VARIANT handling needs (tests pass fakes). */
export type VariantLib = SafeArrayLib & Pick<OleAut32, "VariantInit" | "VariantClear">;

/** What a VARIANT decodes to. Interfaces (UIA's "not supported" marker) are `undefined`. */
export type VariantValue =
  | undefined
  | null
  | boolean
  | number
  | bigint
  | string
  | number[]
  | string[];

/** A fresh, initialised VARIANT to receive a value. */
export function newVariant(lib: VariantLib): Uint8Array<ArrayBuffer> {
  const v = new Uint8Array(VARIANT_SIZE);
  lib.VariantInit(v);
  return v;
}

/** The value held by `v`; does not clear it. */
export function decodeVariant(lib: VariantLib, v: Uint8Array): VariantValue {
  const view = new DataView(v.buffer, v.byteOffset, VARIANT_SIZE);
  const vt = view.getUint16(0, true);
  if (vt & VT.BYREF) return undefined;
  if (vt & VT.ARRAY) {
    return readSafeArray(lib, Deno.UnsafePointer.create(view.getBigUint64(8, true)), vt & 0xfff);
  }
  switch (vt) {
    case VT.EMPTY:
      return undefined;
    case VT.NULL:
      return null;
    case VT.BOOL:
      return view.getInt16(8, true) !== 0;
    case VT.I1:
      return view.getInt8(8);
    case VT.UI1:
      return view.getUint8(8);
    case VT.I2:
      return view.getInt16(8, true);
    case VT.UI2:
      return view.getUint16(8, true);
    case VT.I4:
    case VT.INT:
      return view.getInt32(8, true);
    case VT.UI4:
    case VT.UINT:
      return view.getUint32(8, true);
    case VT.I8:
      return view.getBigInt64(8, true);
    case VT.UI8:
      return view.getBigUint64(8, true);
    case VT.R4:
      return view.getFloat32(8, true);
    case VT.R8:
      return view.getFloat64(8, true);
    case VT.BSTR:
      return readBstr(lib, Deno.UnsafePointer.create(view.getBigUint64(8, true)));
    default:
      // VT_UNKNOWN / VT_DISPATCH: UIA's ReservedNotSupportedValue and the like.
      return undefined;
  }
}

/** Decodes `v` and clears it, freeing whatever it owned. */
export function takeVariant(lib: VariantLib, v: Uint8Array<ArrayBuffer>): VariantValue {
  try {
    return decodeVariant(lib, v);
  } finally {
    lib.VariantClear(v);
  }
}

/** Runs `fill` with a fresh VARIANT (a call's out-parameter), then decodes and clears it. */
export function receiveVariant(
  lib: VariantLib,
  fill: (v: Uint8Array<ArrayBuffer>) => void,
): VariantValue {
  const v = newVariant(lib);
  try {
    fill(v);
    return decodeVariant(lib, v);
  } finally {
    lib.VariantClear(v);
  }
}

/** A `VT_BOOL` VARIANT (owns nothing, needs no clearing). */
export function boolVariant(value: boolean): Uint8Array<ArrayBuffer> {
  const v = new Uint8Array(VARIANT_SIZE);
  const view = new DataView(v.buffer);
  view.setUint16(0, VT.BOOL, true);
  view.setInt16(8, value ? -1 : 0, true); // VARIANT_TRUE is -1
  return v;
}
