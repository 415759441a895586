/**
 * Accepts connections on any number of listeners and serves each with the dispatcher.
 * The accept loop outlives its errors: running out of file descriptors (EMFILE, ENFILE)
 * makes it back off and try again, never stop, and past `maxConnections` a newcomer is
 * told `busy` and closed instead of holding memory the driver cannot spare.
 *
 * @module
 */
import { DriverError, toRpcError } from "../protocol/errors.ts";
import { log } from "../util/log.ts";
import type { Authorize, Dispatcher } from "./dispatcher.ts";
import { type ConnectionOptions, serveConnection } from "./connection.ts";
import { LineBudget, MAX_LINE_BYTES } from "../util/framing.ts";

/** One listener and how its requests are authorised. */
export interface Endpoint {
  /** The bound listener. */
  listener: Deno.Listener;
  /** Request check (TCP: the token); none for the private socket. */
  authorize?: Authorize;
}

/** Limits on what clients may hold open. */
export interface ServerOptions extends ConnectionOptions {
  /** Connections served at once; more are refused with `busy`. */
  maxConnections?: number;
  /**
   * Bytes of unfinished request lines all connections may hold together
   * ({@link DEFAULT_PENDING_LINE_BYTES}); a line that would pass it is refused `busy`.
   */
  maxPendingLineBytes?: number;
}

/**
 * Sixteen lines at the 4 MiB limit: without a shared bound, 250 connections each holding
 * a line just under the limit held over 1 GB.
 */
export const DEFAULT_PENDING_LINE_BYTES = 16 * MAX_LINE_BYTES;

/** Longest pause between accept attempts after an error. */
const MAX_BACKOFF_MS = 1_000;

const encoder = new TextEncoder();

/** Serves endpoints until {@link Server.close}. */
export class Server {
  readonly #dispatcher: Dispatcher;
  readonly #options: ServerOptions & { lineBudget: LineBudget };
  readonly #endpoints: Endpoint[] = [];
  readonly #conns = new Set<Deno.Conn>();
  readonly #loops: Promise<void>[] = [];
  #closed = false;
  #refusedFull = 0;

  /** Serves requests through `dispatcher` within `options`' limits. */
  constructor(dispatcher: Dispatcher, options: ServerOptions = {}) {
    this.#dispatcher = dispatcher;
    const lineBudget = new LineBudget(options.maxPendingLineBytes ?? DEFAULT_PENDING_LINE_BYTES);
    this.#options = { ...options, lineBudget };
  }

  /** Starts accepting on `endpoint`. */
  add(endpoint: Endpoint): void {
    this.#endpoints.push(endpoint);
    this.#loops.push(this.#accept(endpoint));
  }

  /** Open connections right now. */
  get connections(): number {
    return this.#conns.size;
  }

  async #accept({ listener, authorize }: Endpoint): Promise<void> {
    let backoff = 0;
    while (!this.#closed) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
      } catch (err) {
        if (this.#closed || err instanceof Deno.errors.BadResource) return;
        // Out of descriptors, most often: the pending peer stays in the kernel's queue
        // and is accepted once connections close.
        if (backoff === 0) log("error", "accept failed; retrying", { error: String(err) });
        backoff = Math.min(Math.max(backoff * 2, 25), MAX_BACKOFF_MS);
        await new Promise((ok) => setTimeout(ok, backoff));
        continue;
      }
      if (backoff > 0) log("info", "accepting again");
      backoff = 0;
      if (this.#conns.size >= (this.#options.maxConnections ?? Infinity)) {
        this.#refuse(conn);
        continue;
      }
      this.#conns.add(conn);
      serveConnection(conn, this.#dispatcher, authorize, this.#options)
        .catch((err) => log("error", "connection failed", { error: String(err) }))
        .finally(() => {
          this.#conns.delete(conn);
          try {
            conn.close();
          } catch {
            // serveConnection closed it already.
          }
        });
    }
  }

  /** Tells a connection past the limit why, then closes it; never waits on the peer. */
  #refuse(conn: Deno.Conn): void {
    const max = this.#options.maxConnections;
    if (this.#refusedFull++ % 1_000 === 0) {
      log("warn", "connection refused: too many open", { max, refused: this.#refusedFull });
    }
    const err = new DriverError(
      "busy",
      `Too many connections: ${max} are open (max_connections); try again later`,
      { max_connections: max },
    );
    const line = encoder.encode(
      JSON.stringify({ jsonrpc: "2.0", id: null, error: toRpcError(err) }) + "\n",
    );
    // A small line into a new socket's empty buffer: the write does not wait on the peer.
    conn.write(line).catch(() => {}).finally(() => {
      try {
        conn.close();
      } catch {
        // Gone already.
      }
    });
  }

  /** Stops listening and drops open connections; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const { listener } of this.#endpoints) {
      try {
        listener.close();
      } catch {
        // Already closed.
      }
    }
    for (const conn of this.#conns) {
      try {
        conn.close();
      } catch {
        // Already closed.
      }
    }
    await Promise.allSettled(this.#loops);
  }
}
