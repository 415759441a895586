/**
 * audit.jsonl: one JSON line per routed op with its engine, reason, time and outcome.
 *
 * Lines are whole even under concurrency and crashes: every append goes through one queue,
 * and each `write` to the file (opened with O_APPEND) is one or more whole encoded lines, so
 * lines never interleave and a crash loses whole lines only. What queued while a write was
 * under way goes out in the next write: with one line per write, a client reading in a tight
 * loop appended faster than the file took them and the queue grew by every read's line.
 * Logging must never hurt the op it records: {@link AuditLog.append} returns at once and never
 * throws; I/O failures, and lines past {@link MAX_QUEUED_BYTES} waiting, are logged and the
 * lines dropped.
 *
 * @module
 */
import { log } from "../util/log.ts";

/** Rotate at 10 MiB by default. */
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

/** Lines waiting past this many bytes are dropped (and counted) rather than held in memory. */
export const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

// One write carries at most this much, so a backlog never becomes one huge buffer.
const MAX_WRITE_BYTES = 64 * 1024;

/** One routed op. */
export interface AuditEntry {
  /** When the op finished (ISO 8601). */
  ts: string;
  /** Op name. */
  op: string;
  /** Target app ("" for screen-wide ops). */
  app: string;
  /** Target window, when there is one. */
  window?: string;
  /** Engine that ran it. */
  engine: string;
  /** The router's reason. */
  reason: string;
  /** Wall time. */
  ms: number;
  /** "ok" or an error code. */
  outcome: string;
}

/** Audit log options. */
export interface AuditLogOptions {
  /** Size at which the file moves to `<path>.1` (default {@link DEFAULT_MAX_BYTES}). */
  maxBytes?: number;
}

const encoder = new TextEncoder();

/** Appends audit lines to a file in the background, keeping one rotated file. */
export class AuditLog {
  /** audit.jsonl. */
  readonly path: string;
  readonly #maxBytes: number;
  readonly #queue: Uint8Array[] = [];
  #queuedBytes = 0;
  #overflowed = 0;
  #file: Deno.FsFile | undefined;
  #size = 0;
  #draining: Promise<void> | undefined;
  #closed = false;
  #dropped = 0;

  /** Logs to `path`; the file is opened on the first append. */
  constructor(path: string, opts: AuditLogOptions = {}) {
    this.path = path;
    this.#maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  /** Queues one line; returns at once and never throws. Ignored after close. */
  append(entry: AuditEntry): void {
    if (this.#closed) return;
    let line: Uint8Array;
    try {
      line = encoder.encode(JSON.stringify(entry) + "\n");
    } catch (err) {
      log("warn", "Cannot encode an audit entry; dropped", { error: String(err) });
      return;
    }
    if (this.#queuedBytes + line.length > MAX_QUEUED_BYTES) {
      if (this.#overflowed++ === 0) {
        log("warn", "The audit log cannot keep up; dropping lines", { path: this.path });
      }
      return;
    }
    this.#queue.push(line);
    this.#queuedBytes += line.length;
    this.#draining ??= this.#drain();
  }

  /** Lines appended and not yet written (or dropped). */
  get pending(): number {
    return this.#queue.length;
  }

  /** Resolves when every line appended so far is written (or dropped). Never rejects. */
  async flush(): Promise<void> {
    while (this.#draining !== undefined) await this.#draining;
  }

  /** Writes what is queued and closes the file; idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
    this.#closeFile();
  }

  /** Same as {@link AuditLog.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // The only writer: whatever is queued, in append order, a batch of whole lines per write.
  async #drain(): Promise<void> {
    for (;;) {
      const batch = this.#takeBatch();
      if (batch.count === 0) {
        // Cleared in the same turn as the emptiness check, so no append can be stranded.
        this.#draining = undefined;
        return;
      }
      await this.#write(batch.bytes, batch.count);
    }
  }

  // Whole lines from the queue's head, up to MAX_WRITE_BYTES and maxBytes (at least one line).
  #takeBatch(): { bytes: Uint8Array; count: number } {
    const limit = Math.min(MAX_WRITE_BYTES, this.#maxBytes);
    let count = 0;
    let bytes = 0;
    for (const line of this.#queue) {
      if (count > 0 && bytes + line.length > limit) break;
      count++;
      bytes += line.length;
    }
    const lines = this.#queue.splice(0, count);
    this.#queuedBytes -= bytes;
    if (this.#overflowed > 0 && this.#queuedBytes === 0) {
      log("info", "The audit log keeps up again", { path: this.path, dropped: this.#overflowed });
      this.#overflowed = 0;
    }
    if (count <= 1) return { bytes: lines[0] ?? new Uint8Array(), count };
    const batch = new Uint8Array(bytes);
    let at = 0;
    for (const line of lines) {
      batch.set(line, at);
      at += line.length;
    }
    return { bytes: batch, count };
  }

  async #write(lines: Uint8Array, count: number): Promise<void> {
    try {
      let file = this.#file ?? await this.#open();
      if (this.#size > 0 && this.#size + lines.length > this.#maxBytes) file = await this.#rotate();
      let off = await file.write(lines);
      // Regular files take the whole buffer in one write; finish a short write just in case.
      while (off < lines.length) off += await file.write(lines.subarray(off));
      this.#size += lines.length;
      if (this.#dropped > 0) {
        log("info", "Audit log writes again", { path: this.path, dropped: this.#dropped });
        this.#dropped = 0;
      }
    } catch (err) {
      if (this.#dropped === 0) {
        log("warn", "Cannot write the audit log; dropping lines", {
          path: this.path,
          error: String(err),
        });
      }
      this.#dropped += count;
      // Reopen on the next line: the handle may be what broke.
      this.#closeFile();
    }
  }

  async #open(): Promise<Deno.FsFile> {
    const file = await Deno.open(this.path, { append: true, create: true, mode: 0o600 });
    try {
      this.#size = (await file.stat()).size;
    } catch (err) {
      file.close();
      throw err;
    }
    this.#file = file;
    return file;
  }

  async #rotate(): Promise<Deno.FsFile> {
    this.#closeFile();
    try {
      await Deno.rename(this.path, `${this.path}.1`);
    } catch (err) {
      // Keep logging into the big file rather than lose lines; try again after maxBytes.
      log("warn", "Cannot rotate the audit log", { path: this.path, error: String(err) });
      const file = await this.#open();
      this.#size = 0;
      return file;
    }
    return await this.#open();
  }

  #closeFile(): void {
    try {
      this.#file?.close();
    } catch {
      // Already closed by a failed write; nothing left to release.
    }
    this.#file = undefined;
  }
}
