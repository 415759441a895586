/**
 * The growable byte buffer that the encoder writes into.
 *
 * @module
 */

/** A growable output buffer; alignment is counted from `base`, the current message start. */
export class WireWriter {
  /** The backing memory; replaced when it grows. */
  buf: Uint8Array;
  /** Typed access to `buf`. */
  view: DataView;
  /** Next write offset. */
  pos = 0;
  /** Offset that alignment is measured from. */
  base = 0;

  /** Starts with room for `capacity` bytes. */
  constructor(capacity = 4096) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** Writes zero bytes up to the next multiple of `n` (a power of two) from `base`. */
  align(n: number): void {
    const pad = (this.base - this.pos) & (n - 1);
    if (pad === 0) return;
    this.reserve(pad);
    // The buffer is reused between batches, so padding must be zeroed explicitly.
    this.buf.fill(0, this.pos, this.pos + pad);
    this.pos += pad;
  }

  /** Writes one byte. */
  u8(v: number): void {
    this.reserve(1);
    this.buf[this.pos++] = v;
  }

  /** Writes an aligned little-endian u32. */
  u32(v: number): void {
    this.align(4);
    this.reserve(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }

  /** The bytes written so far (a view, not a copy). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  /** Empties the writer, keeping its memory. */
  reset(): void {
    this.pos = 0;
    this.base = 0;
  }
}
