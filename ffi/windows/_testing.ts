/**
 * Test doubles for the oleaut32 functions the COM helpers take as parameters: BSTRs and
 * SAFEARRAYs live in JS memory with the real layouts, and every allocation is tracked so
 * tests can prove that what a helper owned was freed. Only for unit tests on machines
 * without oleaut32 (this Linux one); the engine always binds the real DLL.
 *
 * @module
 */
import type { BstrLib } from "./bstr.ts";
import { writeBytes, writePointer } from "./memory.ts";
import { VT } from "./safearray.ts";
import { VARIANT_SIZE, type VariantLib } from "./variant.ts";

type Buf = AllowSharedBufferSource | null;

function bytesOf(buf: Buf): Uint8Array {
  if (!buf) throw new TypeError("null buffer");
  if (buf instanceof ArrayBuffer || buf instanceof SharedArrayBuffer) return new Uint8Array(buf);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

const key = (p: Deno.PointerValue) => Deno.UnsafePointer.value(p);

/** SAFEARRAY layout on 64-bit Windows (oaidl.h). */
const SA = { cbElements: 4, pvData: 16, cElements: 24, lLbound: 28, size: 32 } as const;

/** oleaut32 in JS, with allocation tracking. */
export class FakeOleAut implements BstrLib, VariantLib {
  /** Live BSTRs by the pointer handed out. */
  readonly bstrs = new Map<bigint, Uint8Array<ArrayBuffer>>();
  /** Live SAFEARRAYs: descriptor and data. */
  readonly arrays = new Map<
    bigint,
    { desc: Uint8Array<ArrayBuffer>; data: Uint8Array<ArrayBuffer>; vt: number }
  >();
  /** Interface pointers VariantClear released. */
  readonly releasedUnknowns: bigint[] = [];
  /** Calls to VariantClear. */
  clears = 0;

  /** Live allocations of either kind. */
  get live(): number {
    return this.bstrs.size + this.arrays.size;
  }

  /** Allocates a BSTR holding `text`, as a provider would. */
  bstr(text: string): Deno.PointerObject {
    const units = new Uint16Array([...text].flatMap((c) => {
      const out: number[] = [];
      for (let i = 0; i < c.length; i++) out.push(c.charCodeAt(i));
      return out;
    }));
    return this.SysAllocStringLen(units, units.length)!;
  }

  /** Allocates a one-dimensional SAFEARRAY of `vt` holding `values` (BSTRs are copied). */
  safeArray(vt: number, values: readonly (number | string)[], lower = 0): Deno.PointerObject {
    const size = vt === VT.R8 || vt === VT.BSTR ? 8 : 4;
    const data = new Uint8Array(Math.max(8, values.length * size));
    const view = new DataView(data.buffer);
    values.forEach((v, i) => {
      if (vt === VT.BSTR) view.setBigUint64(i * 8, key(this.bstr(String(v))), true);
      else if (vt === VT.R8) view.setFloat64(i * 8, Number(v), true);
      else view.setInt32(i * 4, Number(v), true);
    });
    const desc = new Uint8Array(SA.size);
    const d = new DataView(desc.buffer);
    d.setUint16(0, 1, true); // cDims
    d.setUint32(SA.cbElements, size, true);
    d.setBigUint64(SA.pvData, key(Deno.UnsafePointer.of(data)), true);
    d.setUint32(SA.cElements, values.length, true);
    d.setInt32(SA.lLbound, lower, true);
    const ptr = Deno.UnsafePointer.of(desc)!;
    this.arrays.set(key(ptr), { desc, data, vt });
    return ptr;
  }

  /** Writes a VARIANT of `vt` holding `payload` (a pointer or a 64-bit pattern) to `at`. */
  writeVariant(at: Deno.PointerValue, vt: number, payload: bigint | Deno.PointerValue): void {
    const v = new Uint8Array(VARIANT_SIZE);
    const view = new DataView(v.buffer);
    view.setUint16(0, vt, true);
    view.setBigUint64(8, typeof payload === "bigint" ? payload : key(payload), true);
    writeBytes(at, v);
  }

  SysAllocStringLen = (strIn: Buf, ui: number): Deno.PointerValue => {
    const block = new Uint8Array(4 + ui * 2 + 2);
    new DataView(block.buffer).setUint32(0, ui * 2, true);
    if (strIn) block.set(bytesOf(strIn).subarray(0, ui * 2), 4);
    const ptr = Deno.UnsafePointer.offset(Deno.UnsafePointer.of(block)!, 4);
    this.bstrs.set(key(ptr), block);
    return ptr;
  };

  SysFreeString = (bstr: Deno.PointerValue): void => {
    if (!bstr) return;
    if (!this.bstrs.delete(key(bstr))) throw new Error("SysFreeString of an unknown BSTR");
  };

  SysStringLen = (bstr: Deno.PointerValue): number => {
    if (!bstr) return 0;
    const block = this.bstrs.get(key(bstr));
    if (!block) throw new Error("SysStringLen of an unknown or freed BSTR");
    return new DataView(block.buffer).getUint32(0, true) / 2;
  };

  VariantInit = (pvarg: Buf): void => {
    bytesOf(pvarg).fill(0, 0, VARIANT_SIZE);
  };

  VariantClear = (pvarg: Buf): number => {
    this.clears++;
    const v = bytesOf(pvarg);
    const view = new DataView(v.buffer, v.byteOffset, VARIANT_SIZE);
    const vt = view.getUint16(0, true);
    const payload = Deno.UnsafePointer.create(view.getBigUint64(8, true));
    if (vt & VT.ARRAY) this.SafeArrayDestroy(payload);
    else if (vt === VT.BSTR) this.SysFreeString(payload);
    else if (vt === VT.UNKNOWN || vt === VT.DISPATCH) this.releasedUnknowns.push(key(payload));
    v.fill(0, 0, VARIANT_SIZE);
    return 0;
  };

  #array(psa: Deno.PointerValue) {
    const found = this.arrays.get(key(psa));
    if (!found) throw new Error("unknown or destroyed SAFEARRAY");
    return found;
  }

  SafeArrayGetLBound = (psa: Deno.PointerValue, _dim: number, out: Buf): number => {
    const d = new DataView(this.#array(psa).desc.buffer);
    new DataView(bytesOf(out).buffer, bytesOf(out).byteOffset).setInt32(
      0,
      d.getInt32(SA.lLbound, true),
      true,
    );
    return 0;
  };

  SafeArrayGetUBound = (psa: Deno.PointerValue, _dim: number, out: Buf): number => {
    const d = new DataView(this.#array(psa).desc.buffer);
    const upper = d.getInt32(SA.lLbound, true) + d.getUint32(SA.cElements, true) - 1;
    new DataView(bytesOf(out).buffer, bytesOf(out).byteOffset).setInt32(0, upper, true);
    return 0;
  };

  SafeArrayAccessData = (psa: Deno.PointerValue, out: Buf): number => {
    const { data } = this.#array(psa);
    const o = bytesOf(out);
    writePointer(Deno.UnsafePointer.of(o), Deno.UnsafePointer.of(data));
    return 0;
  };

  SafeArrayUnaccessData = (psa: Deno.PointerValue): number => {
    this.#array(psa);
    return 0;
  };

  SafeArrayDestroy = (psa: Deno.PointerValue): number => {
    if (!psa) return 0;
    const { data, vt } = this.#array(psa);
    if (vt === VT.BSTR) {
      const view = new DataView(data.buffer);
      const count = new DataView(this.#array(psa).desc.buffer).getUint32(SA.cElements, true);
      for (let i = 0; i < count; i++) {
        this.SysFreeString(Deno.UnsafePointer.create(view.getBigUint64(i * 8, true)));
      }
    }
    this.arrays.delete(key(psa));
    return 0;
  };
}
