/**
 * Serialized, batched writes of outgoing messages. Messages are encoded straight into a shared
 * buffer as they are queued; everything queued in the same tick goes out in one `write`, and
 * a second buffer fills while the first is being written, so messages never interleave.
 *
 * @module
 */

import { encodeMessage, type OutgoingMessage } from "./message.ts";
import { WireWriter } from "./wire_writer.ts";

/** Where the queue writes; `Deno.Conn` fits. */
export interface ByteSink {
  /** Writes some prefix of `p` and resolves with how many bytes it wrote. */
  write(p: Uint8Array): Promise<number>;
}

// A buffer that grew for one huge message is dropped rather than kept for the process' life.
const KEEP_CAPACITY = 1024 * 1024;

/** A write queue over one socket. */
export class OutgoingQueue {
  #filling = new WireWriter(64 * 1024);
  #spare = new WireWriter(64 * 1024);
  #scheduled = false;
  #writing: Promise<void> | undefined;
  #failed = false;

  /** Writes to `sink`; `onError` hears the first write failure, after which nothing is sent. */
  constructor(readonly sink: ByteSink, readonly onError: (error: unknown) => void) {}

  /** Encodes `msg` with `serial` into the batch; throws (queuing nothing) if `msg` is invalid. */
  enqueue(msg: OutgoingMessage, serial: number): void {
    encodeMessage(this.#filling, msg, serial);
    if (this.#scheduled || this.#writing !== undefined || this.#failed) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      void this.#startDrain();
    });
  }

  /** Resolves once everything queued so far has been handed to the sink (or writing failed). */
  async flush(): Promise<void> {
    while (this.#writing !== undefined || (this.#filling.pos > 0 && !this.#failed)) {
      await this.#startDrain();
    }
  }

  #startDrain(): Promise<void> {
    // Cleared in a `.finally` callback, which always runs after this assignment, even when
    // the drain has nothing to do and settles at once. Messages queued between the drain's
    // last check and that callback saw a write in flight and scheduled nothing: restart.
    this.#writing ??= this.#drain().finally(() => {
      this.#writing = undefined;
      if (this.#filling.pos > 0 && !this.#failed) void this.#startDrain();
    });
    return this.#writing;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#filling.pos > 0) {
        const full = this.#filling;
        this.#filling = this.#spare;
        this.#spare = full;
        const bytes = full.bytes();
        for (let off = 0; off < bytes.length;) off += await this.sink.write(bytes.subarray(off));
        full.reset();
        if (full.buf.length > KEEP_CAPACITY) this.#spare = new WireWriter(64 * 1024);
      }
    } catch (error) {
      this.#failed = true;
      this.#filling.reset();
      this.onError(error);
    }
  }
}
