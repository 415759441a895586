/**
 * MCP over stdio, in place of the SDK's `StdioServerTransport`: that one closes itself
 * for good when 10 MiB arrive without a newline (the server then stays alive and
 * deaf) and drops lines it cannot parse without an answer. This one frames lines with a
 * per-line limit (an oversize line is answered and skipped, see util/framing.ts) and
 * lets {@link MessageScreen} answer protocol errors before the SDK's `Server` sees them.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineSplitter } from "../util/framing.ts";
import { log } from "../util/log.ts";
import { type ErrorLine, type MessageScreen, tooLongAnswer } from "./message_screen.ts";

/**
 * The largest message accepted: the SDK's stdio buffer size, so every message its
 * transport took is still taken.
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** How long closing waits for queued answers to be written. */
const FLUSH_MS = 1_000;

/** Where answers go: `Deno.stdout` or, in tests, anything with its `write`. */
export interface ByteSink {
  /** Writes some of `p`; returns how much. */
  write(p: Uint8Array): Promise<number>;
}

/** Line-framed JSON-RPC on a byte stream in and a byte sink out. */
export class LineTransport implements Transport {
  /** Set by the SDK. */
  onclose?: (() => void) | undefined;
  /** Set by the SDK. */
  onerror?: ((error: Error) => void) | undefined;
  /** Set by the SDK. */
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  readonly #input: ReadableStream<Uint8Array>;
  readonly #output: ByteSink;
  readonly #screen: MessageScreen;
  readonly #limit: number;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #writing: Promise<void> = Promise.resolve();
  #writable = true;
  #closed = false;
  readonly #ended: PromiseWithResolvers<void> = Promise.withResolvers();

  /** Reads `input`, writes `output`; `limit` bytes per line at most. */
  constructor(
    screen: MessageScreen,
    input: ReadableStream<Uint8Array> = Deno.stdin.readable,
    output: ByteSink = Deno.stdout,
    limit: number = MAX_MESSAGE_BYTES,
  ) {
    this.#screen = screen;
    this.#input = input;
    this.#output = output;
    this.#limit = limit;
  }

  /** Resolves once the input has ended (the client closed stdin) or `close()` ran. */
  get ended(): Promise<void> {
    return this.#ended.promise;
  }

  /** Starts reading; the SDK calls this from `connect`. */
  start(): Promise<void> {
    if (this.#reader) throw new Error("LineTransport already started");
    this.#reader = this.#input.getReader();
    this.#read(this.#reader).finally(() => this.close());
    return Promise.resolve();
  }

  /** Writes one message as one line. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(message);
  }

  /** Stops reading and tells the SDK. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#reader?.cancel().catch(() => {});
    // Answers already queued go out before the process exits, but a client that stopped
    // reading stdout must not hold the shutdown.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.#writing,
      new Promise((r) => timer = setTimeout(r, FLUSH_MS)),
    ]);
    clearTimeout(timer);
    this.#ended.resolve();
    this.onclose?.();
  }

  async #read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const splitter = new LineSplitter(this.#limit);
    const decoder = new TextDecoder();
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const frame of splitter.push(value)) this.#take(frame, decoder);
      }
      for (const frame of splitter.end()) this.#take(frame, decoder);
    } catch (err) {
      if (!this.#closed) this.onerror?.(new Error("Reading stdin failed", { cause: err }));
    }
  }

  #take(frame: { line: Uint8Array } | { tooLong: number }, decoder: TextDecoder): void {
    if ("tooLong" in frame) {
      log("warn", "mcp message over the size limit", { bytes: frame.tooLong });
      this.#write(tooLongAnswer(frame.tooLong, this.#limit));
      return;
    }
    const line = decoder.decode(frame.line).replace(/\r$/, "");
    if (line.trim() === "") return;
    const out = this.#screen.screen(line);
    if ("forward" in out) this.onmessage?.(out.forward);
    else if ("answer" in out) this.#write(out.answer);
    else log("debug", "mcp message dropped", { why: out.drop });
  }

  // Chained so two answers never interleave on stdout.
  #write(message: JSONRPCMessage | ErrorLine): Promise<void> {
    const bytes = new TextEncoder().encode(JSON.stringify(message) + "\n");
    this.#writing = this.#writing.then(async () => {
      if (!this.#writable) return;
      try {
        let off = 0;
        while (off < bytes.length) off += await this.#output.write(bytes.subarray(off));
      } catch (err) {
        this.#writable = false; // The client is gone; nothing left to tell it.
        this.onerror?.(new Error("Writing stdout failed", { cause: err }));
      }
    });
    return this.#writing;
  }
}
