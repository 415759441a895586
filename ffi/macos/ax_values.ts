/**
 * CoreFoundation objects that accessibility answers with, turned into {@link AxValue}s,
 * and settable values turned into CF objects. AXValue structs (CGPoint, CGSize, CGRect,
 * CFRange, AXError) are copied out with `AXValueGetValue` into a byte buffer and decoded by
 * `marshal.ts`.
 *
 * @module
 */
import type { ApplicationServices } from "./application_services.ts";
import type { Cf } from "./cf.ts";
import { AX_VALUE_BYTES, decodeAxStruct } from "./marshal.ts";
import { type AxSettable, type AxValue, NONE } from "./values.ts";

/** Array items decoded at most (a table's `AXChildren` can list every row). */
export const MAX_ARRAY_ITEMS = 10_000;
/** Arrays inside arrays are decoded this deep; deeper ones become `other`. */
const MAX_DEPTH = 3;

/** Decodes and encodes accessibility values. */
export class AxCodec {
  readonly #cf: Cf;
  readonly #ax: ApplicationServices;
  readonly #elementType: bigint;
  readonly #valueType: bigint;

  /** Reads the AX type ids once. */
  constructor(cf: Cf, ax: ApplicationServices) {
    this.#cf = cf;
    this.#ax = ax;
    this.#elementType = ax.AXUIElementGetTypeID();
    this.#valueType = ax.AXValueGetTypeID();
  }

  /** Is `p` an AXUIElementRef? */
  isElement(p: Deno.PointerObject): boolean {
    return this.#cf.typeId(p) === this.#elementType;
  }

  /**
   * Decodes a borrowed CF object.
   *
   * @param p The object (NULL decodes to `none`).
   * @param element Called with each AXUIElement found (borrowed: retain it to keep it).
   */
  decode<E>(
    p: Deno.PointerValue,
    element: (borrowed: Deno.PointerObject) => E,
    depth = 0,
  ): AxValue<E> {
    if (p === null) return NONE;
    const type = this.#cf.typeId(p);
    if (type === this.#elementType) return { kind: "element", element: element(p) };
    if (type === this.#valueType) return this.#struct(p);
    const cf = this.#cf;
    switch (cf.kindOf(p)) {
      case "string":
        return { kind: "string", value: cf.string(p) };
      case "number":
        return { kind: "number", value: cf.number(p) };
      case "boolean":
        return { kind: "bool", value: cf.bool(p) };
      case "null":
        return NONE;
      case "url": {
        const s = cf.lib.CFURLGetString(p);
        return { kind: "url", value: s === null ? "" : cf.string(s) };
      }
      case "attributed": {
        const s = cf.lib.CFAttributedStringGetString(p);
        return { kind: "string", value: s === null ? "" : cf.string(s) };
      }
      case "array": {
        if (depth >= MAX_DEPTH) return { kind: "other", type: "nested array" };
        const items = cf.arrayItems(p, MAX_ARRAY_ITEMS).map((it) =>
          this.decode(it, element, depth + 1)
        );
        return { kind: "array", items };
      }
      case "dictionary":
        return { kind: "other", type: "CFDictionary" };
      default:
        return { kind: "other", type: `CFTypeID ${type}` };
    }
  }

  #struct(p: Deno.PointerObject): AxValue<never> {
    const type = this.#ax.AXValueGetType(p);
    const buf = new Uint8Array(AX_VALUE_BYTES);
    if (this.#ax.AXValueGetValue(p, type, buf) === 0) {
      return { kind: "other", type: `AXValueType ${type}` };
    }
    return decodeAxStruct(type, buf);
  }

  /** A new CF object for `v` (owned: release it after the call that takes it). */
  encode(v: AxSettable): Deno.PointerObject {
    const cf = this.#cf;
    switch (v.kind) {
      case "string":
        return cf.createString(v.value);
      case "number":
        return cf.createNumber(v.value);
      case "bool":
        // The constants are retained so every encoded value is released the same way.
        return cf.retain(cf.booleanConstant(v.value));
    }
  }
}
