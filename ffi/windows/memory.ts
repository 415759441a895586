/**
 * Writes through raw pointers. `Deno.UnsafePointerView` only reads, but the ArrayBuffer
 * its `getArrayBuffer` returns is a live view of the memory, not a copy: COM objects we
 * implement use it to fill their callers' out-parameters.
 *
 * @module
 */

function view(at: Deno.PointerObject, bytes: number): DataView {
  return new DataView(new Deno.UnsafePointerView(at).getArrayBuffer(bytes));
}

/** `*(void **)at = value`. */
export function writePointer(at: Deno.PointerValue, value: Deno.PointerValue): void {
  if (at) view(at, 8).setBigUint64(0, Deno.UnsafePointer.value(value), true);
}

/** `*(int32_t *)at = value`. */
export function writeI32(at: Deno.PointerValue, value: number): void {
  if (at) view(at, 4).setInt32(0, value, true);
}

/** Copies `bytes` to `at`. */
export function writeBytes(at: Deno.PointerValue, bytes: Uint8Array): void {
  if (at) new Uint8Array(new Deno.UnsafePointerView(at).getArrayBuffer(bytes.length)).set(bytes);
}
