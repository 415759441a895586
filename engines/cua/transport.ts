/**
 * The MCP SDK's `Transport` over a child spawned with `Deno.Command`: one JSON-RPC message
 * per line on the child's stdin and stdout. Written here rather than the SDK's stdio client
 * so the engine owns the child (its pid, its exit status, a bounded stop) without Node's
 * `child_process`. The child's stderr is kept (last lines) for error reports, never echoed.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineSplitter } from "../../util/framing.ts";
import type { CuaCommand } from "./locate.ts";

/** Screenshots travel inline as base64: allow far more than the RPC layer's 4 MiB. */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
/** Stderr lines kept for error reports. */
const STDERR_LINES = 20;
/** How long a child gets to exit on stdin EOF, then on SIGTERM, before SIGKILL. */
const GRACE_MS = 1_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A spawned Cua MCP server and the SDK transport over its stdio. */
export class ChildTransport implements Transport {
  /** SDK hook: the connection closed. */
  onclose?: () => void;
  /** SDK hook: a transport-level error. */
  onerror?: (error: Error) => void;
  /** SDK hook: one message arrived. */
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  readonly #spec: CuaCommand;
  #child: Deno.ChildProcess | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #status: Promise<Deno.CommandStatus> | undefined;
  #stderr: string[] = [];
  #closing = false;
  #closedFired = false;

  /** Nothing starts until the SDK calls {@link start}. */
  constructor(spec: CuaCommand) {
    this.#spec = spec;
  }

  /** The child's process id once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Resolves when the child has exited. */
  get exited(): Promise<Deno.CommandStatus> {
    return this.#status ?? Promise.reject(new Error("Cua Driver was never started"));
  }

  /** The child's last stderr lines. */
  stderrTail(): string {
    return this.#stderr.join("\n");
  }

  /** Spawns the child; throws when it cannot be started. */
  start(): Promise<void> {
    const child = new Deno.Command(this.#spec.command, {
      args: this.#spec.args,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    const reading = Promise.allSettled([this.#readStdout(child), this.#readStderr(child)]);
    this.#status = child.status;
    // Close once the child is gone: after its last lines are read, or shortly after its
    // exit when a grandchild still holds the pipe open.
    child.status.then(async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([reading, new Promise((r) => timer = setTimeout(r, 500))]);
      clearTimeout(timer);
      this.#fireClose();
    });
    return Promise.resolve();
  }

  async #readStdout(child: Deno.ChildProcess): Promise<void> {
    const splitter = new LineSplitter(MAX_MESSAGE_BYTES);
    for await (const chunk of child.stdout) {
      for (const frame of splitter.push(chunk)) {
        if (!("line" in frame)) {
          this.onerror?.(new Error(`Cua Driver sent a line of ${frame.tooLong} bytes`));
          continue;
        }
        const text = decoder.decode(frame.line).trim();
        if (text === "") continue;
        let message: JSONRPCMessage;
        try {
          message = deserializeMessage(text);
        } catch (err) {
          this.onerror?.(
            new Error(`Cua Driver wrote a non-MCP line: ${text.slice(0, 200)}`, {
              cause: err,
            }),
          );
          continue;
        }
        this.onmessage?.(message);
      }
    }
  }

  async #readStderr(child: Deno.ChildProcess): Promise<void> {
    const splitter = new LineSplitter(64 * 1024);
    for await (const chunk of child.stderr) {
      for (const frame of splitter.push(chunk)) {
        if (!("line" in frame)) continue;
        this.#stderr.push(decoder.decode(frame.line).slice(0, 500));
        if (this.#stderr.length > STDERR_LINES) this.#stderr.shift();
      }
    }
  }

  #fireClose(): void {
    if (this.#closedFired) return;
    this.#closedFired = true;
    this.onclose?.();
  }

  /** Writes one message as one line. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#closing) throw new Error("Cua Driver's stdin is closed");
    await this.#writer.write(encoder.encode(serializeMessage(message)));
  }

  /** Ends stdin (Cua stops on EOF), then SIGTERM, then SIGKILL; resolves once it exited. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#closing) {
      await this.#status?.catch(() => {});
      return;
    }
    this.#closing = true;
    await this.#writer?.close().catch(() => {});
    for (const signal of [null, "SIGTERM", "SIGKILL"] as const) {
      if (signal) {
        try {
          child.kill(signal);
        } catch {
          break; // Already gone.
        }
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const exited = await Promise.race([
        this.#status!.then(() => true, () => true),
        new Promise<false>((r) => timer = setTimeout(() => r(false), GRACE_MS)),
      ]);
      clearTimeout(timer);
      if (exited) break;
    }
    await this.#status!.catch(() => {});
  }
}
