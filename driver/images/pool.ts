/**
 * PNG answers built off the event loop: one worker, started on the first image and kept,
 * takes captures and hands back base64 PNGs. The pixels are copied to it (a few ms for a
 * screen), not transferred: an engine may keep its capture for the next read.
 *
 * @module
 */
import type { Capture } from "../../model/engine.ts";
import { DriverError } from "../../protocol/errors.ts";

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

/** The image worker and the requests waiting on it. */
export class ImagePool {
  #worker: Worker | undefined;
  #next = 0;
  readonly #waiting = new Map<number, (reply: EncodeReply) => void>();

  /** Scales `capture` by `factor` and encodes it as PNG. Aborting stops the wait. */
  encode(capture: Capture, factor: number, signal: AbortSignal): Promise<Encoded> {
    signal.throwIfAborted();
    const worker = this.#worker ??= this.#start();
    const id = ++this.#next;
    return new Promise<Encoded>((resolve, reject) => {
      const onAbort = () => {
        this.#waiting.delete(id);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.set(id, (reply) => {
        signal.removeEventListener("abort", onAbort);
        if ("error" in reply) {
          reject(new DriverError("internal", `Cannot encode the image: ${reply.error}`));
        } else {
          const { png, width, height, scale } = reply;
          resolve({ png, width, height, scale });
        }
      });
      const request: EncodeRequest = { id, capture, factor };
      worker.postMessage(request);
    });
  }

  /** Stops the worker; waiting requests fail. Idempotent. */
  close(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    for (const [id, answer] of this.#waiting) answer({ id, error: "the driver is closing" });
    this.#waiting.clear();
  }

  #start(): Worker {
    // The bundle (dist/out) ships the worker built beside it as .js.
    const file = import.meta.url.endsWith(".js") ? "./png_worker.js" : "./png_worker.ts";
    const worker = new Worker(new URL(file, import.meta.url), { type: "module" });
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
