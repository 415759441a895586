/**
 * Starts the real `allternit-driver serve` process for integration tests and reads its
 * ready line; no sleeps, the ready line is the signal.
 *
 * @module
 */
import { LineSplitter } from "../../util/framing.ts";
import { V8_FLAGS_ARG } from "../../cli/v8_flags.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** A running driver process. */
export interface DriverProcess {
  /** The child. */
  child: Deno.ChildProcess;
  /** Its ready line. */
  ready: { socket?: string; endpoint?: string; token?: string; pid: number };
  /** Data folder it uses. */
  dataDir: string;
  /** Collected stderr so far (logs). */
  stderr(): string;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(): Promise<number>;
}

/** Spawns `main.ts <args>` and waits up to `timeoutMs` for its ready line. */
export async function startDriver(
  args: string[],
  options: {
    dataDir?: string;
    env?: Record<string, string>;
    timeoutMs?: number;
    /** A command the driver runs under, such as `["prlimit", "--nofile=64", "--"]`. */
    under?: string[];
  } = {},
): Promise<DriverProcess> {
  const dataDir = options.dataDir ?? await Deno.makeTempDir({ prefix: "allternit-test-" });
  const [program, ...prefix] = [...(options.under ?? []), Deno.execPath()];
  const child = new Deno.Command(program!, {
    args: [...prefix, "run", "--allow-all", V8_FLAGS_ARG, MAIN, ...args, "--data-dir", dataDir],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { ALLTERNIT_CHECK_RESULTS: "1", ...options.env },
  }).spawn();
  let errText = "";
  const errDone = (async () => {
    const dec = new TextDecoder();
    for await (const chunk of child.stderr) errText += dec.decode(chunk);
  })();
  const reader = child.stdout.getReader();
  const splitter = new LineSplitter();
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let ready: DriverProcess["ready"] | undefined;
  while (!ready) {
    if (Date.now() > deadline) throw new Error(`Driver gave no ready line; stderr:\n${errText}`);
    const { value, done } = await reader.read();
    if (done) {
      await errDone;
      const status = await child.status;
      throw new Error(`Driver exited ${status.code} before ready; stderr:\n${errText}`);
    }
    for (const f of splitter.push(value)) {
      if ("line" in f) ready = JSON.parse(new TextDecoder().decode(f.line));
    }
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    child,
    ready,
    dataDir,
    stderr: () => errText,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      const status = await child.status;
      await errDone;
      return status.code;
    },
  };
}

/** Sends raw bytes on a fresh connection and returns the first `n` answer lines. */
export async function rawExchange(
  connect: () => Promise<Deno.Conn>,
  payload: Uint8Array | string,
  n: number,
): Promise<Record<string, unknown>[]> {
  const conn = await connect();
  const bytes = typeof payload === "string" ? new TextEncoder().encode(payload) : payload;
  const writing = (async () => {
    const w = conn.writable.getWriter();
    await w.write(bytes);
    w.releaseLock();
  })();
  const out: Record<string, unknown>[] = [];
  const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
  const reader = conn.readable.getReader();
  while (out.length < n) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const f of splitter.push(value)) {
      if ("line" in f) out.push(JSON.parse(new TextDecoder().decode(f.line)));
    }
  }
  await writing;
  reader.releaseLock();
  conn.close();
  return out;
}
