/**
 * Serves one connection: frames lines, dispatches each request concurrently (answers may
 * go out of order, matched by id) and writes answers one whole line at a time.
 *
 * @module
 */
import { DriverError, toRpcError } from "../protocol/errors.ts";
import { log } from "../util/log.ts";
import type { Authorize, Dispatcher } from "./dispatcher.ts";
import { type Frame, LineSplitter, MAX_LINE_BYTES } from "../util/framing.ts";

const encoder = new TextEncoder();

/**
 * The byte stream a connection needs. Plain `read`/`write` rather than `conn.readable`:
 * Deno's stream closes the whole socket at EOF, which would drop the answers still owed
 * to a peer that half-closed (the forwarder does).
 */
export interface ByteConn {
  /** Reads into `p`; `null` at EOF. */
  read(p: Uint8Array): Promise<number | null>;
  /** Writes some of `p`; returns how much. */
  write(p: Uint8Array): Promise<number>;
}

/**
 * Serves requests on `conn` until the peer closes its side; in-flight requests are still
 * answered before this resolves.
 */
export async function serveConnection(
  conn: ByteConn,
  dispatcher: Dispatcher,
  authorize?: Authorize,
): Promise<void> {
  const splitter = new LineSplitter(MAX_LINE_BYTES);
  const inflight = new Set<Promise<void>>();
  let writing: Promise<void> = Promise.resolve();
  let writable = true;

  // Writes are chained so two answers never interleave on the wire.
  const send = (line: string): Promise<void> => {
    const bytes = encoder.encode(line + "\n");
    writing = writing.then(async () => {
      if (!writable) return;
      try {
        let off = 0;
        while (off < bytes.length) off += await conn.write(bytes.subarray(off));
      } catch {
        writable = false; // The peer went away; nothing left to tell it.
      }
    });
    return writing;
  };

  const track = (p: Promise<void>) => {
    const q: Promise<void> = p
      .catch((err) => log("error", "request crashed", { error: String(err) }))
      .finally(() => inflight.delete(q));
    inflight.add(q);
  };

  const serve = (frame: Frame) => {
    if ("tooLong" in frame) {
      const err = new DriverError(
        "invalid_request",
        `Line of ${frame.tooLong} bytes exceeds the ${MAX_LINE_BYTES}-byte limit`,
        { limit: MAX_LINE_BYTES },
      );
      track(send(JSON.stringify({ jsonrpc: "2.0", id: null, error: toRpcError(err) })));
      return;
    }
    track(
      dispatcher.handleLine(frame.line, authorize).then((answer) => {
        if (answer !== undefined) return send(answer);
      }),
    );
  };

  const buf = new Uint8Array(64 * 1024);
  try {
    while (true) {
      const n = await conn.read(buf);
      if (n === null) break;
      for (const frame of splitter.push(buf.subarray(0, n))) serve(frame);
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.ConnectionReset || err instanceof Deno.errors.BadResource)) {
      log("debug", "connection read failed", { error: String(err) });
    }
  }
  for (const frame of splitter.end()) serve(frame);
  while (inflight.size > 0) await Promise.all([...inflight]);
  await writing;
}
