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
 * lines dropped, each counted once ({@link AuditLog.dropped}).
 *
 * A full disk leaves no torn line: a write that took part of a line has that part cut off
 * again, and a torn or unreadable last line left by a crash is cut when the file is opened,
 * so the next line never glues onto it. Requests the transport refused (a wrong token) are
 * counted, not written one a line: the first in {@link REFUSAL_INTERVAL_MS} is written, the
 * rest of that time go out as one line with their `count`.
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

/** Refused requests are written at most one line per this many milliseconds. */
export const REFUSAL_INTERVAL_MS = 10_000;

// How much of the file's end is read to find a torn last line (lines are far shorter).
const TAIL_BYTES = 64 * 1024;

/** The outcome of a request the transport refused (a missing or wrong token). */
const REFUSED = "unauthorized";

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
  /** A summary line: how many refused requests it stands for, up to `ts`. */
  count?: number;
}

/** Audit log options. */
export interface AuditLogOptions {
  /** Size at which the file moves to `<path>.1` (default {@link DEFAULT_MAX_BYTES}). */
  maxBytes?: number;
  /** Refusals are written at most one line per this long ({@link REFUSAL_INTERVAL_MS}). */
  refusalIntervalMs?: number;
}

/** Refusals counted since the last one written, and when that was. */
interface RefusalWindow {
  count: number;
  /** The op of every one counted, or "*" when they differ. */
  op: string | undefined;
  timer: ReturnType<typeof setTimeout>;
}

const encoder = new TextEncoder();

/** Appends audit lines to a file in the background, keeping one rotated file. */
export class AuditLog {
  /** audit.jsonl. */
  readonly path: string;
  readonly #maxBytes: number;
  readonly #refusalMs: number;
  readonly #queue: Uint8Array[] = [];
  #queuedBytes = 0;
  /** Lines dropped since the queue last kept up. */
  #overflowed = 0;
  #file: Deno.FsFile | undefined;
  #size = 0;
  #draining: Promise<void> | undefined;
  #closed = false;
  /** Lines dropped since writes last worked. */
  #failed = 0;
  /** Every line dropped, whatever the cause. */
  #dropped = 0;
  #refusals: RefusalWindow | undefined;

  /** Logs to `path`; the file is opened on the first append. */
  constructor(path: string, opts: AuditLogOptions = {}) {
    this.path = path;
    this.#maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    this.#refusalMs = opts.refusalIntervalMs ?? REFUSAL_INTERVAL_MS;
  }

  /** Lines dropped since this log was made: never written, and not in the file. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Queues one line; returns at once and never throws. Ignored after close. A refusal
   * (outcome `unauthorized`) is written only when none was in the last interval; later
   * ones are counted into one summary line.
   */
  append(entry: AuditEntry): void {
    if (this.#closed) return;
    if (entry.outcome === REFUSED && entry.count === undefined) {
      const window = this.#refusals;
      if (window !== undefined) {
        window.count++;
        window.op = window.op === undefined || window.op === entry.op ? entry.op : "*";
        return;
      }
      this.#refusals = this.#openRefusalWindow();
    }
    this.#enqueue(entry);
  }

  #openRefusalWindow(): RefusalWindow {
    const timer = setTimeout(() => this.#closeRefusalWindow(true), this.#refusalMs);
    // A quiet driver must still be able to exit; close() writes the count.
    Deno.unrefTimer(timer);
    return { count: 0, op: undefined, timer };
  }

  // Writes the refusals counted in the window; while they keep coming, a new one opens.
  #closeRefusalWindow(reopen: boolean): void {
    const window = this.#refusals;
    if (window === undefined) return;
    clearTimeout(window.timer);
    this.#refusals = undefined;
    if (window.count === 0) return;
    this.#enqueue({
      ts: new Date().toISOString(),
      op: window.op ?? "*",
      app: "",
      engine: "none",
      reason: "transport",
      ms: 0,
      outcome: REFUSED,
      count: window.count,
    });
    if (reopen) this.#refusals = this.#openRefusalWindow();
  }

  #enqueue(entry: AuditEntry): void {
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
      this.#dropped++;
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

  /** Writes what is queued (and the refusals counted) and closes the file; idempotent. */
  async close(): Promise<void> {
    if (!this.#closed) this.#closeRefusalWindow(false);
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
    let written = 0;
    let file: Deno.FsFile | undefined;
    try {
      file = this.#file ?? await this.#open();
      if (this.#size > 0 && this.#size + lines.length > this.#maxBytes) file = await this.#rotate();
      // Regular files take the whole buffer in one write; a full disk takes part of it.
      while (written < lines.length) written += await file.write(lines.subarray(written));
      this.#size += lines.length;
      if (this.#failed > 0) {
        log("info", "Audit log writes again", { path: this.path, dropped: this.#failed });
        this.#failed = 0;
      }
    } catch (err) {
      // Lines that went in whole stay; a part of one is cut off again.
      // (lastIndexOf counts a negative start from the end: nothing written is no line.)
      const whole = written === 0 ? 0 : lines.lastIndexOf(0x0a, written - 1) + 1;
      const kept = whole === 0 ? 0 : countLines(lines.subarray(0, whole));
      if (written > whole && file !== undefined) await this.#cut(file, written - whole);
      this.#size += whole;
      if (this.#failed === 0) {
        log("warn", "Cannot write the audit log; dropping lines", {
          path: this.path,
          error: String(err),
        });
      }
      this.#failed += count - kept;
      this.#dropped += count - kept;
      // Reopen on the next line: the handle may be what broke.
      this.#closeFile();
    }
  }

  // Cuts the last `torn` bytes, the part of a line a failed write left. Were that to fail
  // too, the next open cuts it (see #repair).
  async #cut(file: Deno.FsFile, torn: number): Promise<void> {
    try {
      const size = (await file.stat()).size;
      await file.truncate(Math.max(0, size - torn));
    } catch (err) {
      log("warn", "Cannot cut a torn audit line now; cut when reopened", {
        path: this.path,
        error: String(err),
      });
    }
  }

  async #open(): Promise<Deno.FsFile> {
    const file = await Deno.open(this.path, {
      read: true,
      append: true,
      create: true,
      mode: 0o600,
    });
    try {
      this.#size = await this.#repair(file);
    } catch (err) {
      file.close();
      throw err;
    }
    this.#file = file;
    return file;
  }

  /**
   * Cuts a last line that has no newline or does not parse (a crash or a full disk tore
   * it), so the next line starts a line of its own. Returns the file's size.
   */
  async #repair(file: Deno.FsFile): Promise<number> {
    const size = (await file.stat()).size;
    if (size === 0) return 0;
    const from = Math.max(0, size - TAIL_BYTES);
    const tail = new Uint8Array(size - from);
    await file.seek(from, Deno.SeekMode.Start);
    for (let at = 0; at < tail.length;) {
      const n = await file.read(tail.subarray(at));
      if (n === null) break;
      at += n;
    }
    const ends = tail.at(-1) === 0x0a;
    const start = tail.length < 2 ? 0 : tail.lastIndexOf(0x0a, tail.length - 2) + 1;
    // A last line longer than the tail read is not judged: audit lines are far shorter.
    if (start === 0 && from > 0) return size;
    if (ends && parses(tail.subarray(start, tail.length - 1))) return size;
    const keep = from + start;
    await file.truncate(keep);
    log("warn", "Cut a torn last line from the audit log", {
      path: this.path,
      bytes: size - keep,
    });
    return keep;
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

function countLines(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) n++;
  return n;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function parses(line: Uint8Array): boolean {
  try {
    JSON.parse(decoder.decode(line));
    return true;
  } catch {
    return false;
  }
}
