/**
 * Where the MCP server's ops run: the driver already serving on its socket or TCP
 * endpoint (so MCP clients share its live maps with every other caller), or, when none
 * answers, a driver started in this process.
 *
 * @module
 */
import { DriverClient } from "../rpc/client.ts";
import { isDriverError } from "../protocol/errors.ts";
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
 * A connection to a running driver that reconnects on the next call after the driver
 * went away (restarted, say) instead of failing every later call.
 */
class RemoteBackend implements Backend {
  readonly where: string;
  readonly #target: ClientTarget;
  #client: DriverClient | undefined;

  constructor(target: ClientTarget, client: DriverClient) {
    this.#target = target;
    this.#client = client;
    this.where = "socket" in target ? `socket ${target.socket}` : `endpoint ${target.endpoint}`;
  }

  async call(op: string, params: unknown): Promise<Record<string, unknown>> {
    this.#client ??= await DriverClient.connect(this.#target);
    const client = this.#client;
    try {
      return await client.request(op, params) as Record<string, unknown>;
    } catch (err) {
      if (isDriverError(err, "driver_unavailable") && this.#client === client) {
        this.#client = undefined;
        await client.close();
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
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
  const { driver, dispatcher } = await assemble(options.dataDir);
  let closed = false;
  return {
    where: "in-process",
    call: (op, params) => dispatcher.call(op, params),
    async close() {
      if (closed) return;
      closed = true;
      await driver.close();
    },
  };
}
