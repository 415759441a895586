/**
 * PNG answers built off the event loop: one worker, started on the first image, takes
 * captures (their pixels transferred, not copied: captures are the caller's) and hands back
 * base64 PNGs. It is stopped after {@link IDLE_MS} without work, which gives its memory
 * back; the next image starts it again (about 50 ms).
 *
 * One image at a time, capture included: the others wait for their turn without pixels.
 * Forty-three screenshots at once used to hold forty-three screens (5 MB each, twice) and
 * grew the driver by half a gigabyte.
 *
 * @module
 */
import type { Capture } from "../../model/engine.ts";
import { DriverError } from "../../protocol/errors.ts";
import { moduleUrl } from "../../util/lazy.ts";

/** What the worker is asked. */
export interface EncodeRequest {
  /** Matches the reply. */
  id: number;
  /** The pixels to encode. */
  capture: Capture;
  /** Scaling before encoding (1: none). */
  factor: number;
}

/** What the worker answers. */
export type EncodeReply =
  | { id: number; png: string; width: number; height: number; scale: number }
  | { id: number; error: string };

/** An encoded image. */
export interface Encoded {
  /** Base64 PNG. */
  png: string;
  /** Pixels across. */
  width: number;
  /** Pixels down. */
  height: number;
  /** Pixels per screen point. */
  scale: number;
}

/** A worker without work this long is stopped. */
export const IDLE_MS = 10_000;

/** The image worker and the requests waiting on it. */
export class ImagePool {
  #worker: Worker | undefined;
  #next = 0;
  /** Resolves when the request before the newest is through. */
  #turn: Promise<void> = Promise.resolve();
  #idle: ReturnType<typeof setTimeout> | undefined;
  readonly #waiting = new Map<number, (reply: EncodeReply) => void>();

  /**
   * Takes a capture with `take` when it is this request's turn, scales it by `factor` and
   * encodes it as PNG. Aborting stops the wait.
   */
  async encode(
    take: () => Promise<Capture>,
    factor: number,
    signal: AbortSignal,
  ): Promise<Encoded> {
    const turn = this.#turn;
    let done!: () => void;
    this.#turn = new Promise<void>((ok) => done = ok);
    try {
      await abortable(turn, signal);
      return await this.#encode(await take(), factor, signal);
    } finally {
      // The next request waits on this one's turn, aborted or not.
      turn.then(done);
    }
  }

  #encode(capture: Capture, factor: number, signal: AbortSignal): Promise<Encoded> {
    signal.throwIfAborted();
    clearTimeout(this.#idle);
    const worker = this.#worker ??= this.#start();
    const id = ++this.#next;
    return new Promise<Encoded>((resolve, reject) => {
      const onAbort = () => {
        this.#waiting.delete(id);
        this.#stopWhenIdle();
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.set(id, (reply) => {
        signal.removeEventListener("abort", onAbort);
        this.#stopWhenIdle();
        if ("error" in reply) {
          reject(new DriverError("internal", `Cannot encode the image: ${reply.error}`));
        } else {
          const { png, width, height, scale } = reply;
          resolve({ png, width, height, scale });
        }
      });
      const request: EncodeRequest = { id, capture, factor };
      worker.postMessage(request, [capture.rgba.buffer as ArrayBuffer]);
    });
  }

  #stopWhenIdle(): void {
    clearTimeout(this.#idle);
    if (this.#waiting.size > 0) return;
    const timer = setTimeout(() => {
      if (this.#waiting.size === 0) this.close();
    }, IDLE_MS);
    Deno.unrefTimer(timer);
    this.#idle = timer;
  }

  /** Stops the worker; waiting requests fail. Idempotent; the next image starts it again. */
  close(): void {
    clearTimeout(this.#idle);
    this.#worker?.terminate();
    this.#worker = undefined;
    for (const [id, answer] of this.#waiting) answer({ id, error: "the driver is closing" });
    this.#waiting.clear();
  }

  #start(): Worker {
    const worker = new Worker(moduleUrl("driver/images/png_worker"), { type: "module" });
    worker.onmessage = (e: MessageEvent<EncodeReply>) => {
      const answer = this.#waiting.get(e.data.id);
      this.#waiting.delete(e.data.id);
      answer?.(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      const error = e.message || "the image worker failed";
      for (const [id, answer] of this.#waiting) answer({ id, error });
      this.#waiting.clear();
      this.#worker = undefined;
    };
    return worker;
  }
}

/** `p`, or the signal's reason as soon as it aborts. */
function abortable(p: Promise<void>, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
