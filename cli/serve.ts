/**
 * `allternit-driver serve`: listen on the private socket or loopback TCP, serve until
 * SIGTERM/SIGINT (or, with `exitWithParent`, until the parent is gone), then close
 * listeners, remove the socket and exit 0. The Desktop app's side of this contract is
 * `install/SIDECAR.md`.
 *
 * @module
 */
import { AlreadyRunningError, listenTcp, listenUnix } from "../rpc/listen.ts";
import { Server } from "../rpc/server.ts";
import { newToken, tokenMatches } from "../rpc/token.ts";
import { writeFileAtomic } from "../util/atomic.ts";
import { log } from "../util/log.ts";
import { startWatchdog } from "../util/watchdog.ts";
import { setAlarm } from "../ffi/posix_libc.ts";
import { ensurePrivateDir } from "../util/paths.ts";
import { assemble } from "./setup.ts";
import { writeAllSync } from "../util/write.ts";

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
  /** Stop when stdin reaches EOF or the parent process dies (the Desktop sidecar). */
  exitWithParent?: boolean;
  /** After the ready line, print `ALLTERNIT_DRIVER_*=value` lines for the parent. */
  printEnv?: boolean;
  /** Record every op into this trace folder (docs/traces.md). */
  trace?: string;
}

/** Exit codes of `serve`. */
export const EXIT = { ok: 0, failed: 1, usage: 2, alreadyRunning: 3 } as const;

/** Runs the server; resolves with the process exit code. */
export async function serve(options: ServeOptions): Promise<number> {
  // Taken before the ready line: a parent may act on that line and exit at once, and a
  // parent pid read after that would already be init's, so its exit would go unseen.
  const parent = Deno.ppid;
  const assembled = await assemble(options.dataDir, false, options.trace);
  const { paths, driver, dispatcher } = assembled;
  const { config } = driver;
  let refusals = 0;
  const server = new Server(dispatcher, {
    maxConnections: config.max_connections,
    idleMs: config.connection_idle_ms,
    sessionIdleMs: config.session_idle_ms,
    onRefused: (method) => {
      driver.refused(method);
      // Every refusal is audited; the log gets the first and then one in a thousand.
      if (refusals++ % 1_000 === 0) {
        log("warn", "request refused: wrong or missing token", {
          method: method.slice(0, 64),
          refused: refusals,
        });
      }
    },
  });
  let socketPath: string | undefined;
  let endpointFile: string | undefined;
  // Listening for SIGTERM before the ready line: a parent may stop the driver the moment
  // it reads that line, and the socket file must still be removed.
  const stop = new AbortController();
  const signalled = untilSignal(stop.signal);
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
      const env = { ALLTERNIT_DRIVER_ENDPOINT: endpoint, ALLTERNIT_DRIVER_TOKEN: token };
      ready({ endpoint, token, endpoint_file: endpointFile }, options.printEnv ? env : {});
      log("info", "listening", { endpoint });
    } else {
      socketPath = options.socket ?? paths.socket;
      server.add({ listener: await listenUnix(socketPath) });
      const env = { ALLTERNIT_DRIVER_SOCKET: socketPath };
      ready({ socket: socketPath }, options.printEnv ? env : {});
      log("info", "listening", { socket: socketPath });
    }
  } catch (err) {
    stop.abort();
    await assembled.close();
    if (err instanceof AlreadyRunningError) {
      log("error", err.message);
      return EXIT.alreadyRunning;
    }
    throw err;
  }

  const stalled = driver.config.watchdog_ms;
  // POSIX systems end a stalled driver with alarm(2); Windows needs the watchdog worker.
  const alarm = Deno.build.os === "windows" ? {} : { alarm: setAlarm };
  const stopWatchdog = stalled > 0 ? startWatchdog({ stallMs: stalled, ...alarm }) : () => {};
  const reason = await Promise.race([
    signalled,
    ...(options.exitWithParent ? [untilParentGone(parent, stop.signal)] : []),
  ]);
  stop.abort();
  stopWatchdog();
  log("info", "stopping", { reason });
  await server.close();
  await assembled.close();
  if (socketPath) await Deno.remove(socketPath).catch(() => {});
  if (endpointFile) await Deno.remove(endpointFile).catch(() => {});
  return EXIT.ok;
}

/**
 * One JSON line on stdout tells the parent where to connect (and the token, for TCP);
 * with `--print-env`, `NAME=value` lines follow in the same write, so a parent reading
 * up to the last one never sees half of them. A value is the rest of its line, unquoted.
 */
function ready(info: Record<string, unknown>, env: Record<string, string>): void {
  let text = JSON.stringify({ ready: true, pid: Deno.pid, ...info }) + "\n";
  for (const [name, value] of Object.entries(env)) text += `${name}=${value}\n`;
  writeAllSync(Deno.stdout, text);
}

function untilSignal(abort: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const signals: Deno.Signal[] = Deno.build.os === "windows"
      ? ["SIGINT", "SIGBREAK"]
      : ["SIGINT", "SIGTERM"];
    let stopped = false;
    const stop = (reason: string) => {
      if (stopped) return;
      stopped = true;
      for (const s of signals) Deno.removeSignalListener(s, handler);
      resolve(reason);
    };
    const handler = () => stop("signal");
    for (const s of signals) Deno.addSignalListener(s, handler);
    abort.addEventListener("abort", () => stop("aborted"), { once: true });
  });
}

/** How often the parent pid is checked; a dead parent is noticed within this. */
const PARENT_POLL_MS = 500;

/**
 * Resolves when the parent is gone. Stdin EOF works everywhere: the Desktop app holds the
 * write end of our stdin and the OS closes it when the app dies, however it dies. As a
 * second signal, on Linux and macOS an orphan is re-parented (to init or a subreaper),
 * so a changed `Deno.ppid` means the parent exited even if it leaked the pipe to another
 * process. Windows never re-parents, so there stdin EOF is the only signal. `parent` is
 * the parent pid as it was before the ready line.
 */
function untilParentGone(parent: number, abort: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const timer = Deno.build.os === "windows" ? undefined : setInterval(() => {
      if (Deno.ppid !== parent) done("parent_exited");
    }, PARENT_POLL_MS);
    const reader = Deno.stdin.readable.getReader();
    let finished = false;
    const done = (reason: string) => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      reader.cancel().catch(() => {});
      resolve(reason);
    };
    abort.addEventListener("abort", () => done("aborted"), { once: true });
    (async () => {
      try {
        // Whatever the parent writes is ignored; only the end of the stream matters.
        while (!(await reader.read()).done) { /* discard */ }
      } catch {
        // A broken pipe is the parent going away too.
      }
      done("stdin_closed");
    })();
  });
}
