/**
 * Cuts a byte stream into whole D-Bus messages. Only the 16 leading bytes of a message are
 * needed to know its length, so the framer never parses more than that.
 *
 * @module
 */

import { DBusProtocolError } from "./errors.ts";
import { MAX_MESSAGE_LENGTH } from "./message.ts";

const FIXED = 16;

/** Total length of the message whose first 16 bytes start at `offset` in `b`. */
export function messageLength(b: Uint8Array, offset = 0): number {
  const endian = b[offset];
  if (endian !== 0x6c && endian !== 0x42) {
    throw new DBusProtocolError(`D-Bus message has bad endianness byte ${endian}`);
  }
  const view = new DataView(b.buffer, b.byteOffset + offset, FIXED);
  const little = endian === 0x6c;
  const fields = view.getUint32(12, little);
  const body = view.getUint32(4, little);
  // Checked before adding so huge claimed lengths cannot overflow the sum.
  if (fields > MAX_MESSAGE_LENGTH || body > MAX_MESSAGE_LENGTH) tooLong(fields + body);
  const total = ((FIXED + fields + 7) & ~7) + body;
  if (total > MAX_MESSAGE_LENGTH) tooLong(total);
  return total;
}

function tooLong(n: number): never {
  throw new DBusProtocolError(`D-Bus message of ${n} bytes is over the 128 MiB limit`);
}

/**
 * Turns arbitrary chunks of a D-Bus byte stream into whole messages. A message that fits in
 * one chunk is returned as a view of that chunk (no copy): decode it before reusing the chunk's
 * memory. Messages spread over chunks are assembled into their own buffer.
 */
export class MessageFramer {
  #head = new Uint8Array(FIXED);
  #headLength = 0;
  #partial: Uint8Array | undefined;
  #partialLength = 0;

  /** Bytes held back waiting for the rest of a message. */
  get buffered(): number {
    return this.#partial === undefined ? this.#headLength : this.#partialLength;
  }

  /** Feeds `chunk` and returns the messages it completes, in order. */
  push(chunk: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    let off = 0;
    if (this.#partial === undefined && this.#headLength > 0) {
      off = Math.min(FIXED - this.#headLength, chunk.length);
      this.#head.set(chunk.subarray(0, off), this.#headLength);
      this.#headLength += off;
      if (this.#headLength < FIXED) return out;
      this.#partial = new Uint8Array(messageLength(this.#head));
      this.#partial.set(this.#head);
      this.#partialLength = FIXED;
      this.#headLength = 0;
    }
    if (this.#partial !== undefined) {
      const take = Math.min(this.#partial.length - this.#partialLength, chunk.length - off);
      this.#partial.set(chunk.subarray(off, off + take), this.#partialLength);
      this.#partialLength += take;
      off += take;
      if (this.#partialLength < this.#partial.length) return out;
      out.push(this.#partial);
      this.#partial = undefined;
    }
    while (chunk.length - off >= FIXED) {
      const total = messageLength(chunk, off);
      if (chunk.length - off < total) {
        this.#partial = new Uint8Array(total);
        this.#partial.set(chunk.subarray(off));
        this.#partialLength = chunk.length - off;
        return out;
      }
      out.push(chunk.subarray(off, off + total));
      off += total;
    }
    this.#head.set(chunk.subarray(off));
    this.#headLength = chunk.length - off;
    return out;
  }
}
