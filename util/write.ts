/**
 * Blocking writes of every byte. `writeSync` may write only part of a buffer to a pipe;
 * lines on stdout and stderr must arrive whole, and before the process exits.
 *
 * @module
 */

/** Something with a blocking write, such as `Deno.stdout` or `Deno.stderr`. */
export interface SyncWriter {
  /** Writes some of `p`; returns how much. */
  writeSync(p: Uint8Array): number;
}

const encoder = new TextEncoder();

/** Writes all of `data` (text is UTF-8 encoded) to `to`, blocking until it is written. */
export function writeAllSync(to: SyncWriter, data: Uint8Array | string): void {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  let off = 0;
  while (off < bytes.length) off += to.writeSync(bytes.subarray(off));
}
