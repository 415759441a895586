/**
 * `allternit-driver serve`: listen on the private socket or loopback TCP, serve until
 * SIGTERM/SIGINT, then close listeners, remove the socket and exit 0.
 *
 * @module
 */
import { AlreadyRunningError, listenTcp, listenUnix } from "../rpc/listen.ts";
import { Server } from "../rpc/server.ts";
import { newToken, tokenMatches } from "../rpc/token.ts";
import { writeFileAtomic } from "../util/atomic.ts";
import { log } from "../util/log.ts";
import { ensurePrivateDir } from "../util/paths.ts";
import { assemble } from "./setup.ts";

/** `serve` options. */
export interface ServeOptions {
  /** Unix socket path (default: the data folder's). */
  socket?: string;
  /** Listen on loopback TCP instead. */
  tcp?: boolean;
  /** TCP host (loopback only). */
  host?: string;
  /** TCP port (0: random). */
  port?: number;
  /** Data folder override. */
  dataDir?: string;
}

/** Exit codes of `serve`. */
export const EXIT = { ok: 0, failed: 1, usage: 2, alreadyRunning: 3 } as const;

/** Runs the server; resolves with the process exit code. */
export async function serve(options: ServeOptions): Promise<number> {
  const { paths, driver, dispatcher } = await assemble(options.dataDir);
  const server = new Server(dispatcher);
  let socketPath: string | undefined;
  let endpointFile: string | undefined;
  try {
    if (options.tcp) {
      const listener = listenTcp(options.host, options.port ?? 0);
      const token = newToken();
      const addr = listener.addr as Deno.NetAddr;
      const endpoint = `${addr.hostname}:${addr.port}`;
      await ensurePrivateDir(paths.driverDir);
      endpointFile = paths.endpoint;
      await writeFileAtomic(endpointFile, JSON.stringify({ endpoint, token, pid: Deno.pid }));
      server.add({ listener, authorize: (req) => tokenMatches(req.token, token) });
      ready({ endpoint, token, endpoint_file: endpointFile });
      log("info", "listening", { endpoint });
    } else {
      socketPath = options.socket ?? paths.socket;
      server.add({ listener: await listenUnix(socketPath) });
      ready({ socket: socketPath });
      log("info", "listening", { socket: socketPath });
    }
  } catch (err) {
    await driver.close();
    if (err instanceof AlreadyRunningError) {
      log("error", err.message);
      return EXIT.alreadyRunning;
    }
    throw err;
  }

  await untilSignal();
  log("info", "stopping");
  await server.close();
  await driver.close();
  if (socketPath) await Deno.remove(socketPath).catch(() => {});
  if (endpointFile) await Deno.remove(endpointFile).catch(() => {});
  return EXIT.ok;
}

/** One JSON line on stdout tells the parent where to connect (and the token, for TCP). */
function ready(info: Record<string, unknown>): void {
  const line = JSON.stringify({ ready: true, pid: Deno.pid, ...info }) + "\n";
  Deno.stdout.writeSync(new TextEncoder().encode(line));
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const signals: Deno.Signal[] = Deno.build.os === "windows"
      ? ["SIGINT", "SIGBREAK"]
      : ["SIGINT", "SIGTERM"];
    const stop = () => {
      for (const s of signals) Deno.removeSignalListener(s, stop);
      resolve();
    };
    for (const s of signals) Deno.addSignalListener(s, stop);
  });
}
