/**
 * GUIDs (CLSIDs, IIDs) as the 16-byte structs COM takes by reference: `Data1` (u32),
 * `Data2`, `Data3` (u16) little-endian, then `Data4` as written.
 *
 * @module
 */

/** A GUID in memory, ready to pass as `REFIID` / `REFCLSID`. */
export type Guid = Uint8Array<ArrayBuffer>;

const PATTERN = /^\{?([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\}?$/i;

/** Parses `"e22ad333-b25f-460c-83d0-0581107395c9"` (braces optional) into 16 bytes. */
export function parseGuid(text: string): Guid {
  const m = PATTERN.exec(text.trim());
  if (!m) throw new TypeError(`Not a GUID: "${text}"`);
  const out = new Uint8Array(16);
  const view = new DataView(out.buffer);
  view.setUint32(0, parseInt(m[1]!, 16), true);
  view.setUint16(4, parseInt(m[2]!, 16), true);
  view.setUint16(6, parseInt(m[3]!, 16), true);
  const tail = m[4]! + m[5]!;
  for (let i = 0; i < 8; i++) out[8 + i] = parseInt(tail.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The registry form of 16 GUID bytes, lower case, no braces. */
export function formatGuid(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new TypeError(`A GUID has 16 bytes, not ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, 16);
  const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
  const tail = [...bytes.subarray(8)].map((b) => hex(b, 2)).join("");
  return `${hex(view.getUint32(0, true), 8)}-${hex(view.getUint16(4, true), 4)}-${
    hex(view.getUint16(6, true), 4)
  }-${tail.slice(0, 4)}-${tail.slice(4)}`;
}

/** True when the 16 bytes at `ptr` (a `REFIID` a caller passed) equal `guid`. */
export function guidAt(ptr: Deno.PointerObject, guid: Guid): boolean {
  const seen = new Uint8Array(16);
  Deno.UnsafePointerView.copyInto(ptr, seen);
  for (let i = 0; i < 16; i++) if (seen[i] !== guid[i]) return false;
  return true;
}
