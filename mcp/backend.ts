/**
 * Where the MCP server's ops run: the driver already serving on its socket or TCP
 * endpoint (so MCP clients share its live maps with every other caller), or, when none
 * answers, a driver started in this process.
 *
 * @module
 */
import { DriverClient } from "../rpc/client.ts";
import { isDriverError } from "../protocol/errors.ts";
import { isOpName, OPS } from "../protocol/ops.ts";
import type { ClientTarget } from "../rpc/client.ts";
import { resolveTarget, type TargetOptions } from "../cli/target.ts";
import { assemble } from "../cli/setup.ts";
import { log } from "../util/log.ts";

/** Runs ops somewhere. */
export interface Backend {
  /** `socket …`, `endpoint …` or `in-process`, for logs. */
  readonly where: string;
  /** Runs `op`; rejects with the driver's error. */
  call(op: string, params: unknown): Promise<Record<string, unknown>>;
  /** Disconnects, or stops the in-process driver. Idempotent. */
  close(): Promise<void>;
}

/** Options: the client flags, plus forcing the in-process driver. */
export interface BackendOptions extends TargetOptions {
  /** Skip looking for a running driver. */
  inProcess?: boolean;
}

/**
 * Ops that only read: when the connection dies with one of these on it, sending it again
 * on a new connection cannot do anything twice. Anything else (act, run_batch, pixel
 * input, window, launch_app, …) may already have run, so it is never resent.
 */
export function safeToResend(op: string): boolean {
  return isOpName(op) && (OPS[op].kind === "read" || OPS[op].kind === "meta");
}

/**
 * A connection to a running driver. The driver closes connections that stay quiet
 * (`connection_idle_ms`, `session_idle_ms`) and may restart, so a call that finds the
 * connection closed opens a new one before sending, rather than failing; a call whose
 * connection dies under it is sent again once only when it {@link safeToResend}.
 */
class RemoteBackend implements Backend {
  readonly where: string;
  readonly #target: ClientTarget;
  #client: Promise<DriverClient> | undefined;

  constructor(target: ClientTarget, client: DriverClient) {
    this.#target = target;
    this.#client = Promise.resolve(client);
    this.where = "socket" in target ? `socket ${target.socket}` : `endpoint ${target.endpoint}`;
  }

  async call(op: string, params: unknown): Promise<Record<string, unknown>> {
    const client = await this.#open();
    try {
      return await client.request(op, params) as Record<string, unknown>;
    } catch (err) {
      if (!isDriverError(err, "driver_unavailable")) throw err;
      // Marks it closed, so the next #open replaces it.
      await client.close();
      if (!safeToResend(op)) throw err;
      log("debug", "connection lost during a read: sending it again", { op });
      const fresh = await this.#open();
      try {
        return await fresh.request(op, params) as Record<string, unknown>;
      } catch (again) {
        if (isDriverError(again, "driver_unavailable")) await fresh.close();
        throw again;
      }
    }
  }

  /**
   * The open connection, or a new one when there is none or the one held is known closed
   * (nothing was sent on it since, so nothing is lost). Concurrent calls share one
   * connect; a connection that is closed as soon as it opens (the driver is `busy`) is
   * returned as is, and the request on it fails, rather than reconnecting in a loop.
   */
  async #open(): Promise<DriverClient> {
    const held = this.#client;
    if (held) {
      const client = await held.catch(() => undefined);
      if (client && !client.closed) return client;
      if (this.#client === held) this.#client = undefined;
      await client?.close();
    }
    const connecting = this.#client ??= DriverClient.connect(this.#target);
    try {
      return await connecting;
    } catch (err) {
      if (this.#client === connecting) this.#client = undefined;
      throw err;
    }
  }

  async close(): Promise<void> {
    const held = this.#client;
    this.#client = undefined;
    const client = await held?.catch(() => undefined);
    await client?.close();
  }
}

/** Connects to the running driver, or starts one here when none answers. */
export async function openBackend(options: BackendOptions): Promise<Backend> {
  if (!options.inProcess) {
    const target = resolveTarget(options);
    try {
      const backend = new RemoteBackend(target, await DriverClient.connect(target));
      log("info", "mcp uses the running driver", { at: backend.where });
      return backend;
    } catch (err) {
      if (!isDriverError(err, "driver_unavailable")) throw err;
      log("info", "no driver answers: starting one in this process", {
        tried: "socket" in target ? target.socket : target.endpoint,
      });
    }
  }
  const assembled = await assemble(options.dataDir);
  const { dispatcher } = assembled;
  let closed = false;
  return {
    where: "in-process",
    call: (op, params) => dispatcher.call(op, params),
    async close() {
      if (closed) return;
      closed = true;
      await assembled.close();
    },
  };
}
