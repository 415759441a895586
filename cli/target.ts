/**
 * Which running driver a client command talks to: flags first, then the environment the
 * Desktop app hands its children, then the default socket.
 *
 * @module
 */
import type { ClientTarget } from "../rpc/client.ts";
import { dataDir, driverPaths } from "../util/paths.ts";

/** Client-side flags. */
export interface TargetOptions {
  /** `--socket`. */
  socket?: string;
  /** `--endpoint host:port`. */
  endpoint?: string;
  /** `--data-dir`. */
  dataDir?: string;
}

/** Resolves the target: `--socket`/`--endpoint`, `ALLTERNIT_DRIVER_*`, the default socket. */
export function resolveTarget(o: TargetOptions): ClientTarget {
  if (o.socket) return { socket: o.socket };
  const endpoint = o.endpoint ?? Deno.env.get("ALLTERNIT_DRIVER_ENDPOINT");
  if (endpoint) {
    const token = Deno.env.get("ALLTERNIT_DRIVER_TOKEN");
    if (!token) {
      throw new Error("ALLTERNIT_DRIVER_TOKEN is not set; a TCP endpoint needs its token");
    }
    return { endpoint, token };
  }
  const socket = Deno.env.get("ALLTERNIT_DRIVER_SOCKET");
  if (socket) return { socket };
  return { socket: driverPaths(o.dataDir ?? dataDir()).socket };
}
