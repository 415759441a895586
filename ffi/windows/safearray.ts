/**
 * SAFEARRAYs of one dimension, as UIA returns them: runtime ids (`VT_I4`), bounding
 * rectangles (`VT_R8`), string lists (`VT_BSTR`). Elements are read between
 * `SafeArrayAccessData` and `SafeArrayUnaccessData`; an array a call handed over is
 * destroyed by {@link takeSafeArray}.
 *
 * @module
 */
import { checkHr } from "./hresult.ts";
import type { OleAut32 } from "./oleaut32.ts";
import { readBstr } from "./bstr.ts";

/** The oleaut32 functions SAFEARRAY handling needs (tests pass fakes). */
export type SafeArrayLib = Pick<
  OleAut32,
  | "SafeArrayGetLBound"
  | "SafeArrayGetUBound"
  | "SafeArrayAccessData"
  | "SafeArrayUnaccessData"
  | "SafeArrayDestroy"
  | "SysStringLen"
>;

/** VARTYPEs the driver reads (wtypes.h). */
export const VT = {
  EMPTY: 0,
  NULL: 1,
  I2: 2,
  I4: 3,
  R4: 4,
  R8: 5,
  BSTR: 8,
  DISPATCH: 9,
  BOOL: 11,
  UNKNOWN: 13,
  I1: 16,
  UI1: 17,
  UI2: 18,
  UI4: 19,
  I8: 20,
  UI8: 21,
  INT: 22,
  UINT: 23,
  ARRAY: 0x2000,
  BYREF: 0x4000,
} as const;

/** Byte size and reader of each element type a SAFEARRAY may hold here. */
const ELEMENT: Partial<Record<number, [size: number, read: (v: DataView, at: number) => number]>> =
  {
    [VT.I1]: [1, (v, at) => v.getInt8(at)],
    [VT.UI1]: [1, (v, at) => v.getUint8(at)],
    [VT.I2]: [2, (v, at) => v.getInt16(at, true)],
    [VT.UI2]: [2, (v, at) => v.getUint16(at, true)],
    [VT.BOOL]: [2, (v, at) => (v.getInt16(at, true) !== 0 ? 1 : 0)],
    [VT.I4]: [4, (v, at) => v.getInt32(at, true)],
    [VT.INT]: [4, (v, at) => v.getInt32(at, true)],
    [VT.UI4]: [4, (v, at) => v.getUint32(at, true)],
    [VT.UINT]: [4, (v, at) => v.getUint32(at, true)],
    [VT.R4]: [4, (v, at) => v.getFloat32(at, true)],
    [VT.R8]: [8, (v, at) => v.getFloat64(at, true)],
  };

/** Elements of a one-dimensional SAFEARRAY of numbers or BSTRs; does not free it. */
export function readSafeArray(
  lib: SafeArrayLib,
  psa: Deno.PointerValue,
  vt: number,
): number[] | string[] {
  if (!psa) return [];
  const lower = new Int32Array(1);
  const upper = new Int32Array(1);
  checkHr(lib.SafeArrayGetLBound(psa, 1, lower), "SafeArrayGetLBound");
  checkHr(lib.SafeArrayGetUBound(psa, 1, upper), "SafeArrayGetUBound");
  const count = Math.max(0, upper[0]! - lower[0]! + 1);
  if (count === 0) return [];
  const data = new BigUint64Array(1);
  checkHr(lib.SafeArrayAccessData(psa, data), "SafeArrayAccessData");
  try {
    const base = Deno.UnsafePointer.create(data[0]!);
    if (!base) return [];
    if (vt === VT.BSTR) {
      const view = new Deno.UnsafePointerView(base);
      return Array.from({ length: count }, (_, i) => readBstr(lib, view.getPointer(i * 8)));
    }
    const element = ELEMENT[vt];
    if (!element) throw new TypeError(`Cannot read a SAFEARRAY of VARTYPE ${vt}`);
    const [size, read] = element;
    const view = new DataView(new Deno.UnsafePointerView(base).getArrayBuffer(count * size));
    return Array.from({ length: count }, (_, i) => read(view, i * size));
  } finally {
    lib.SafeArrayUnaccessData(psa);
  }
}

/** Reads a SAFEARRAY a call handed over, then destroys it. */
export function takeSafeArray(
  lib: SafeArrayLib,
  psa: Deno.PointerValue,
  vt: number,
): number[] | string[] {
  try {
    return readSafeArray(lib, psa, vt);
  } finally {
    if (psa) lib.SafeArrayDestroy(psa);
  }
}
