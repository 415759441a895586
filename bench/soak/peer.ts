/**
 * The soak bench's peer: `pyatspi_peer.py`, one long-lived pyatspi client in its own
 * process, asked to walk the same apps' windows the driver is asked to read. Requests are
 * skipped while it is behind, so a slow walk never blocks the bench.
 *
 * @module
 */
import { LineSplitter } from "../../util/framing.ts";

const SCRIPT = new URL("./pyatspi_peer.py", import.meta.url).pathname;
/** Requests in flight at most; more are skipped (counted). */
const BACKLOG = 4;

/** The running peer. */
export interface Peer {
  /** Its process id, for /proc. */
  pid: number;
  /** Asks it to walk the front window of app `pid`, looking for `name` when given. */
  read(pid: number, name?: string): void;
  /** Walks answered, app gone, skipped while behind, and the walks' summed ms. */
  counts(): { walks: number; gone: number; skipped: number; ms: number };
  /** Closes its input and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts the peer and waits for its ready line. */
export async function startPeer(): Promise<Peer> {
  const child = new Deno.Command("/usr/bin/python3", {
    args: [SCRIPT],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.getReader();
  const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
  const dec = new TextDecoder();
  const enc = new TextEncoder();
  const counts = { walks: 0, gone: 0, skipped: 0, ms: 0 };
  let inFlight = 0;
  const { promise: isReady, resolve: ready } = Promise.withResolvers<void>();
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      for (const f of splitter.push(value)) {
        if (!("line" in f)) continue;
        const a = JSON.parse(dec.decode(f.line)) as { ready?: true; nodes?: number; ms?: number };
        if (a.ready) ready();
        else {
          inFlight--;
          if ((a.nodes ?? -1) < 0) counts.gone++;
          else counts.walks++;
          counts.ms += a.ms ?? 0;
        }
      }
    }
  })();
  await isReady;
  return {
    pid: child.pid,
    read(pid, name) {
      if (inFlight >= BACKLOG) {
        counts.skipped++;
        return;
      }
      inFlight++;
      writer.write(enc.encode(JSON.stringify(name ? { pid, name } : { pid }) + "\n")).catch(
        () => {},
      );
    },
    counts: () => ({ ...counts }),
    async stop() {
      await writer.close().catch(() => {});
      await reading;
      await child.status;
    },
  };
}
