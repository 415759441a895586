/**
 * The D-Bus wire format as two plain functions, for callers that want bytes rather than
 * messages. Values map to JS as: y n q i u h d → number, x t → bigint, b → boolean,
 * s o g → string, arrays → arrays, `a{..}` → Map, structs → arrays, v → {@link Variant}.
 *
 * @module
 */

import { readValues, WireReader } from "./decode.ts";
import { writeValues } from "./encode.ts";
import { WireWriter } from "./wire_writer.ts";

export { Variant } from "./variant.ts";

/** Encodes `values` (one per complete type of `signature`) little-endian, aligned from 0. */
export function marshal(signature: string, values: readonly unknown[]): Uint8Array {
  const w = new WireWriter(64);
  writeValues(w, signature, values);
  return w.bytes().slice();
}

/** Where and how to read in {@link unmarshal}. */
export interface UnmarshalOptions {
  /** Byte order of `bytes`; defaults to little-endian. */
  readonly littleEndian?: boolean;
  /** Where the values start; alignment is still counted from `bytes[0]`. Defaults to 0. */
  readonly offset?: number;
}

/** Decodes one value per complete type of `signature` from `bytes`. */
export function unmarshal(
  signature: string,
  bytes: Uint8Array,
  options: UnmarshalOptions = {},
): unknown[] {
  const r = new WireReader(bytes, options.littleEndian ?? true, options.offset ?? 0);
  return readValues(r, signature);
}
