/**
 * audit.jsonl: one JSON line per routed op with its engine, reason, time and outcome.
 *
 * Lines are whole even under concurrency and crashes: every append goes through one queue,
 * and each line is one `write` of the whole encoded line to a file opened with O_APPEND, so
 * lines never interleave and a crash loses whole lines only. Logging must never hurt the op
 * it records: {@link AuditLog.append} returns at once and never throws; I/O failures are
 * logged and the lines dropped.
 *
 * @module
 */
import { log } from "../util/log.ts";

/** Rotate at 10 MiB by default. */
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

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
    try {
      this.#queue.push(encoder.encode(JSON.stringify(entry) + "\n"));
    } catch (err) {
      log("warn", "Cannot encode an audit entry; dropped", { error: String(err) });
      return;
    }
    this.#draining ??= this.#drain();
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

  // The only writer: one line at a time, in append order.
  async #drain(): Promise<void> {
    for (;;) {
      const line = this.#queue.shift();
      if (line === undefined) {
        // Cleared in the same turn as the emptiness check, so no append can be stranded.
        this.#draining = undefined;
        return;
      }
      await this.#writeLine(line);
    }
  }

  async #writeLine(line: Uint8Array): Promise<void> {
    try {
      let file = this.#file ?? await this.#open();
      if (this.#size > 0 && this.#size + line.length > this.#maxBytes) file = await this.#rotate();
      let off = await file.write(line);
      // Regular files take the whole line in one write; finish a short write just in case.
      while (off < line.length) off += await file.write(line.subarray(off));
      this.#size += line.length;
      if (this.#dropped > 0) {
        log("info", "Audit log writes again", { path: this.path, dropped: this.#dropped });
        this.#dropped = 0;
      }
    } catch (err) {
      if (this.#dropped++ === 0) {
        log("warn", "Cannot write the audit log; dropping lines", {
          path: this.path,
          error: String(err),
        });
      }
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
