/**
 * Newline-delimited framing with a per-line byte limit. An over-long line is reported
 * once and skipped up to its newline, so one bad line never closes the connection.
 *
 * @module
 */

/** Default limit: protocol.md allows 4 MiB per line. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** A whole line (without `\n`), or the marker for a line that exceeded the limit. */
export type Frame = { line: Uint8Array } | { tooLong: number };

/** Splits a byte stream into lines; feed chunks, collect frames. */
export class LineSplitter {
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #skipping = false;
  #skipped = 0;
  readonly #limit: number;

  /** Lines longer than `limit` bytes are reported as `tooLong`. */
  constructor(limit: number = MAX_LINE_BYTES) {
    this.#limit = limit;
  }

  /** Adds a chunk and returns the frames it completed. */
  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      this.#take(chunk.subarray(start, end));
      if (nl === -1) break;
      const frame = this.#finishLine();
      if (frame) frames.push(frame);
      start = nl + 1;
    }
    return frames;
  }

  /** Call at end of stream: a last line without `\n` still counts. */
  end(): Frame[] {
    if (this.#pendingBytes === 0 && !this.#skipping) return [];
    const frame = this.#finishLine();
    return frame ? [frame] : [];
  }

  #take(part: Uint8Array): void {
    if (part.length === 0) return;
    if (this.#skipping) {
      this.#skipped += part.length;
      return;
    }
    if (this.#pendingBytes + part.length > this.#limit) {
      this.#skipping = true;
      this.#skipped = this.#pendingBytes + part.length;
      this.#pending = [];
      this.#pendingBytes = 0;
      return;
    }
    // Copy: the caller reuses its read buffer.
    this.#pending.push(part.slice());
    this.#pendingBytes += part.length;
  }

  #finishLine(): Frame | undefined {
    if (this.#skipping) {
      const tooLong = this.#skipped;
      this.#skipping = false;
      this.#skipped = 0;
      return { tooLong };
    }
    const parts = this.#pending;
    const size = this.#pendingBytes;
    this.#pending = [];
    this.#pendingBytes = 0;
    if (size === 0) return undefined;
    if (parts.length === 1) return { line: parts[0]! };
    const line = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      line.set(p, at);
      at += p.length;
    }
    return { line };
  }
}
