/**
 * Accepts connections on any number of listeners and serves each with the dispatcher.
 *
 * @module
 */
import { log } from "../util/log.ts";
import type { Authorize, Dispatcher } from "./dispatcher.ts";
import { serveConnection } from "./connection.ts";

/** One listener and how its requests are authorised. */
export interface Endpoint {
  /** The bound listener. */
  listener: Deno.Listener;
  /** Request check (TCP: the token); none for the private socket. */
  authorize?: Authorize;
}

/** Serves endpoints until {@link Server.close}. */
export class Server {
  readonly #dispatcher: Dispatcher;
  readonly #endpoints: Endpoint[] = [];
  readonly #conns = new Set<Deno.Conn>();
  readonly #loops: Promise<void>[] = [];
  #closed = false;

  /** Serves requests through `dispatcher`. */
  constructor(dispatcher: Dispatcher) {
    this.#dispatcher = dispatcher;
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
    try {
      for await (const conn of listener) {
        this.#conns.add(conn);
        serveConnection(conn, this.#dispatcher, authorize)
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
    } catch (err) {
      if (!this.#closed) log("error", "listener stopped", { error: String(err) });
    }
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
