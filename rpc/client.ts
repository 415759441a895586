/**
 * A typed client for a running driver, over its unix socket or loopback TCP with token.
 * Results are typed from the same op table the driver validates with.
 *
 * @module
 */
import { DriverError, type ErrorCode } from "../protocol/errors.ts";
import type { OpName, ParamsOf, ResultOf } from "../protocol/ops.ts";
import { LineSplitter } from "../util/framing.ts";

/** Where the driver listens. */
export type ClientTarget =
  | { socket: string }
  | { endpoint: string; token: string };

interface Pending {
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One connection to a driver; many calls may be in flight at once. */
export class DriverClient {
  readonly #conn: Deno.Conn;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #token: string | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = false;
  readonly #reading: Promise<void>;

  private constructor(conn: Deno.Conn, token?: string) {
    this.#conn = conn;
    this.#writer = conn.writable.getWriter();
    this.#token = token;
    this.#reading = this.#readLoop();
  }

  /** Connects to `target`; throws `driver_unavailable` when nobody listens there. */
  static async connect(target: ClientTarget): Promise<DriverClient> {
    try {
      if ("socket" in target) {
        return new DriverClient(await Deno.connect({ transport: "unix", path: target.socket }));
      }
      const [hostname, port] = splitEndpoint(target.endpoint);
      return new DriverClient(await Deno.connect({ hostname, port }), target.token);
    } catch (err) {
      const where = "socket" in target ? target.socket : target.endpoint;
      throw new DriverError("driver_unavailable", `Cannot reach a driver at "${where}"`, {
        reason: "not_running",
      }, { cause: err });
    }
  }

  /**
   * Whether the connection is known to be over (closed here, or the driver closed it):
   * a request now would fail without being sent.
   */
  get closed(): boolean {
    return this.#closed;
  }

  /** Calls `op` and resolves with its result; driver errors reject as {@link DriverError}. */
  call<N extends OpName>(op: N, params?: ParamsOf<N>): Promise<ResultOf<N>> {
    return this.request(op, params) as Promise<ResultOf<N>>;
  }

  /** Untyped call, for ops or params the caller builds at run time. */
  request(method: string, params?: unknown): Promise<unknown> {
    if (this.#closed) {
      return Promise.reject(
        new DriverError("driver_unavailable", "Client is closed", { reason: "closed" }),
      );
    }
    const id = this.#nextId++;
    const msg: Record<string, unknown> = { jsonrpc: "2.0", id, method };
    if (params !== undefined) msg.params = params;
    if (this.#token !== undefined) msg.token = this.#token;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#writer.write(encoder.encode(JSON.stringify(msg) + "\n")).catch((err) => {
        this.#pending.delete(id);
        reject(
          new DriverError("driver_unavailable", "Connection to the driver is closed", {
            reason: "closed",
          }, { cause: err }),
        );
      });
    });
  }

  async #readLoop(): Promise<void> {
    const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
    try {
      for await (const chunk of this.#conn.readable) {
        for (const frame of splitter.push(chunk)) {
          if ("line" in frame) this.#answer(decoder.decode(frame.line));
        }
      }
    } catch {
      // Closed under us; pending calls are rejected below.
    }
    this.#closed = true;
    for (const p of this.#pending.values()) {
      p.reject(
        new DriverError("driver_unavailable", "The driver closed the connection", {
          reason: "closed",
        }),
      );
    }
    this.#pending.clear();
  }

  #answer(line: string): void {
    const msg = JSON.parse(line) as {
      id: number | null;
      result?: unknown;
      error?: { message: string; data?: { code?: ErrorCode } & Record<string, unknown> };
    };
    if (msg.id === null) return;
    const p = this.#pending.get(msg.id);
    if (!p) return;
    this.#pending.delete(msg.id);
    if (msg.error) {
      const { code = "internal", ...data } = msg.error.data ?? {};
      p.reject(new DriverError(code, msg.error.message, data));
    } else {
      p.resolve(msg.result);
    }
  }

  /** Closes the connection; pending calls reject. Idempotent. */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      try {
        this.#conn.close();
      } catch {
        // Already closed.
      }
    }
    await this.#reading;
  }

  /** For `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** `host:port` → parts; IPv6 as `[::1]:port`. */
export function splitEndpoint(endpoint: string): [string, number] {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(endpoint);
  if (!m) throw new Error(`Cannot parse endpoint "${endpoint}": expected host:port`);
  return [m[1]!, Number(m[2])];
}
