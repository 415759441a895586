/**
 * Newline-delimited framing with a per-line byte limit and, optionally, a budget of bytes
 * shared by many splitters. A line is refused the moment it passes the limit or finds the
 * budget spent, not at its newline: its bytes are let go at once and the rest of it, up to
 * the newline, is skipped unread, so a peer that never ends a line holds nothing. One bad
 * line never closes the connection.
 *
 * @module
 */

/** Default limit: protocol.md allows 4 MiB per line. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/**
 * A whole line (without `\n`), or the marker for a refused one: `tooLong` is how many of
 * its bytes had come when it was refused; `busy` says the shared budget was spent, not
 * the line's own limit passed.
 */
export type Frame = { line: Uint8Array } | { tooLong: number; busy?: true };

/**
 * Bytes of unfinished lines that all splitters sharing it may hold together: 250
 * connections each holding a line just under the 4 MiB limit would hold 1 GB.
 */
export class LineBudget {
  readonly #max: number;
  #held = 0;

  /** At most `max` bytes held at once. */
  constructor(max: number) {
    this.#max = max;
  }

  /** Bytes held now. */
  get held(): number {
    return this.#held;
  }

  /** The budget's size. */
  get max(): number {
    return this.#max;
  }

  /** Takes `n` bytes if that many are left; false (and nothing taken) otherwise. */
  take(n: number): boolean {
    if (this.#held + n > this.#max) return false;
    this.#held += n;
    return true;
  }

  /** Gives back `n` bytes taken before. */
  give(n: number): void {
    this.#held = Math.max(0, this.#held - n);
  }
}

/** Splits a byte stream into lines; feed chunks, collect frames. */
export class LineSplitter {
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #skipping = false;
  readonly #limit: number;
  readonly #budget: LineBudget | undefined;

  /**
   * Lines longer than `limit` bytes are refused as `tooLong`; with a `budget`, so is a
   * line whose bytes the budget cannot hold (`busy`).
   */
  constructor(limit: number = MAX_LINE_BYTES, budget?: LineBudget) {
    this.#limit = limit;
    this.#budget = budget;
  }

  /** Bytes of the unfinished line held now. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /** Adds a chunk and returns the frames it completed or refused. */
  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      const refused = this.#take(chunk.subarray(start, end));
      if (refused) frames.push(refused);
      if (nl === -1) break;
      const frame = this.#finishLine();
      if (frame) frames.push(frame);
      start = nl + 1;
    }
    return frames;
  }

  /** Call at end of stream: a last line without `\n` still counts. */
  end(): Frame[] {
    const frame = this.#finishLine();
    return frame ? [frame] : [];
  }

  /** Lets go of the unfinished line (the connection is gone); idempotent. */
  release(): void {
    this.#drop();
    this.#skipping = false;
  }

  #take(part: Uint8Array): Frame | undefined {
    if (part.length === 0 || this.#skipping) return undefined;
    const seen = this.#pendingBytes + part.length;
    const tooLong = seen > this.#limit;
    if (tooLong || (this.#budget !== undefined && !this.#budget.take(part.length))) {
      this.#drop();
      this.#skipping = true;
      return tooLong ? { tooLong: seen } : { tooLong: seen, busy: true };
    }
    // Copy: the caller reuses its read buffer.
    this.#pending.push(part.slice());
    this.#pendingBytes = seen;
    return undefined;
  }

  #drop(): void {
    this.#budget?.give(this.#pendingBytes);
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  #finishLine(): Frame | undefined {
    if (this.#skipping) {
      this.#skipping = false; // Refused when it passed the limit: nothing more to say.
      return undefined;
    }
    const parts = this.#pending;
    const size = this.#pendingBytes;
    this.#drop();
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
