/**
 * Writes one trace folder (trace/format.ts): op lines appended in the order ops finish
 * (each carries `seq`, its start order), screenshots stored once per distinct content
 * under their SHA-256, and the size policy (trace/policy.ts) kept. Writes are chained so
 * lines never interleave; a failed write stops the trace's writing, never the op.
 *
 * @module
 */
import { ElementIndex } from "./elements.ts";
import {
  type ImageRef,
  IMAGES_DIR,
  type OpLine,
  TRACE_FILE,
  TRACE_FORMAT,
  type TraceEnd,
  type TraceHeader,
} from "./format.ts";
import { DEFAULT_POLICY, type TracePolicy } from "./policy.ts";

const encoder = new TextEncoder();

/** Hex SHA-256 of `bytes`. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** One trace being recorded. */
export class TraceRecorder {
  /** The trace folder. */
  readonly path: string;
  /** Size policy in force. */
  readonly policy: Readonly<TracePolicy>;
  /** The windows' elements as the recorded answers showed them. */
  readonly elements: ElementIndex = new ElementIndex();
  readonly #file: Deno.FsFile;
  #writing: Promise<void> = Promise.resolve();
  #seq = 0;
  #ops = 0;
  readonly #stored = new Set<string>();
  #imageBytes = 0;
  #cappedAt: number | undefined;
  #closed: Promise<TraceEnd> | undefined;
  /** Set once the end line is queued: nothing more is written. */
  #ended = false;
  #failed: unknown;
  /** Lines still being put together (their images stored): the end line waits for them. */
  readonly #pending = new Set<Promise<unknown>>();

  private constructor(path: string, file: Deno.FsFile, policy: Readonly<TracePolicy>) {
    this.path = path;
    this.#file = file;
    this.policy = policy;
  }

  /**
   * Starts a trace in `dir` (made if missing). A folder that holds a trace already is
   * refused: two recordings in one file could not be told apart.
   */
  static async open(
    dir: string,
    policy: Readonly<TracePolicy> = DEFAULT_POLICY,
  ): Promise<TraceRecorder> {
    // Private like the data folder: a trace holds what the screen showed and apps' text.
    await Deno.mkdir(`${dir}/${IMAGES_DIR}`, { recursive: true, mode: 0o700 });
    let file: Deno.FsFile;
    try {
      file = await Deno.open(`${dir}/${TRACE_FILE}`, { write: true, createNew: true, mode: 0o600 });
    } catch (err) {
      if (err instanceof Deno.errors.AlreadyExists) {
        throw new Error(`Cannot record into "${dir}": it holds a trace already`, { cause: err });
      }
      throw err;
    }
    const rec = new TraceRecorder(dir, file, policy);
    const header: TraceHeader = {
      trace: "allternit-driver-trace",
      format: TRACE_FORMAT,
      started: new Date().toISOString(),
      policy: {
        max_image_bytes: policy.maxImageBytes,
        max_images: policy.maxImages,
        max_width: policy.maxWidth,
      },
    };
    rec.#append(header);
    return rec;
  }

  /** The next op's `seq`: ops are numbered as they start. */
  nextSeq(): number {
    return ++this.#seq;
  }

  /** The write that failed and ended the trace's writing, if one did. */
  get failed(): unknown {
    return this.#failed;
  }

  /** Room for more screenshots under the policy. */
  get hasRoom(): boolean {
    return this.#cappedAt === undefined;
  }

  /**
   * Stores `png` once (by its hash) and answers its reference; undefined once the cap is
   * reached (`seq` is recorded as the first op without room).
   */
  async storeImage(
    png: Uint8Array,
    meta: Omit<ImageRef, "sha">,
    seq: number,
  ): Promise<ImageRef | undefined> {
    if (this.#cappedAt !== undefined || this.#ended) return undefined;
    const sha = await sha256Hex(png);
    if (!this.#stored.has(sha)) {
      const { maxImageBytes, maxImages } = this.policy;
      if (this.#stored.size + 1 > maxImages || this.#imageBytes + png.length > maxImageBytes) {
        this.#cappedAt = seq;
        return undefined;
      }
      this.#stored.add(sha);
      this.#imageBytes += png.length;
      await Deno.writeFile(`${this.path}/${IMAGES_DIR}/${sha}.png`, png, { mode: 0o600 });
    }
    return { sha, ...meta };
  }

  /**
   * Holds the end line until `work` (an op's line being put together) is done, so an op
   * that finished before `trace_stop` is in the trace however long its images take.
   */
  hold(work: Promise<unknown>): void {
    const held = work.catch(() => {}).finally(() => this.#pending.delete(held));
    this.#pending.add(held);
  }

  /** Appends one op line. */
  write(line: OpLine): void {
    if (this.#ended) return;
    this.#ops++;
    this.#append(line);
  }

  #append(line: object): void {
    const bytes = encoder.encode(JSON.stringify(line) + "\n");
    this.#writing = this.#writing.then(async () => {
      if (this.#failed !== undefined) return;
      let off = 0;
      while (off < bytes.length) off += await this.#file.write(bytes.subarray(off));
    }).catch((err) => {
      // A full disk, say: the trace ends here (a half line is cut off by the reader).
      this.#failed = err;
    });
  }

  /** Writes the end line and closes the file; answers what the trace holds. Idempotent. */
  close(): Promise<TraceEnd> {
    return this.#closed ??= this.#finish();
  }

  async #finish(): Promise<TraceEnd> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
    this.#ended = true;
    const end: TraceEnd = {
      end: true,
      stopped: new Date().toISOString(),
      ops: this.#ops,
      images: this.#stored.size,
      image_bytes: this.#imageBytes,
      images_capped: this.#cappedAt !== undefined,
      ...(this.#cappedAt !== undefined ? { capped_at: this.#cappedAt } : {}),
    };
    this.#append(end);
    try {
      await this.#writing;
    } finally {
      this.#file.close();
    }
    return end;
  }
}
