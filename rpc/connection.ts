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
  /** Closes both directions; a pending `read` then fails. */
  close(): void;
}

/** How long a quiet connection is kept, and who hears of refused requests. */
export interface ConnectionOptions {
  /** A connection with no authorised request yet is closed after this long without one. */
  idleMs?: number;
  /** After an authorised request, the quiet time allowed (0: no limit). */
  sessionIdleMs?: number;
  /** Told the method of each request the transport's check refused. */
  onRefused?: (method: string) => void;
}

/**
 * Serves requests on `conn` until the peer closes its side or stays quiet too long;
 * in-flight requests are still answered before this resolves. Quiet time counts whole
 * requests, not bytes, so a peer trickling a byte at a time cannot hold the connection.
 */
export async function serveConnection(
  conn: ByteConn,
  dispatcher: Dispatcher,
  authorize?: Authorize,
  options: ConnectionOptions = {},
): Promise<void> {
  const splitter = new LineSplitter(MAX_LINE_BYTES);
  const inflight = new Set<Promise<void>>();
  let writing: Promise<void> = Promise.resolve();
  let writable = true;
  let authorised = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;

  const quietLimit = () =>
    authorised ? options.sessionIdleMs ?? 0 : options.idleMs ?? options.sessionIdleMs ?? 0;
  const arm = () => {
    clearTimeout(idleTimer);
    const ms = quietLimit();
    if (ms <= 0) return;
    const timer = setTimeout(onQuiet, ms);
    Deno.unrefTimer(timer);
    idleTimer = timer;
  };
  const onQuiet = () => {
    if (inflight.size > 0) return arm(); // Still working for the peer: not idle.
    const ms = quietLimit();
    const err = new DriverError("timeout", `No request for ${ms} ms; connection closed`, { ms });
    send(JSON.stringify({ jsonrpc: "2.0", id: null, error: toRpcError(err) }))
      .finally(() => {
        try {
          conn.close();
        } catch {
          // The peer closed it meanwhile.
        }
      });
  };
  const check: Authorize | undefined = authorize && ((req) => {
    const ok = authorize(req);
    if (ok) authorised = true;
    else options.onRefused?.(typeof req.method === "string" ? req.method : "");
    return ok;
  });

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
      .finally(() => {
        inflight.delete(q);
        arm();
      });
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
      dispatcher.handleLine(frame.line, check).then((answer) => {
        if (answer !== undefined) return send(answer);
      }),
    );
    // A request the check let through (or no check at all: the private socket).
    if (!check) authorised = true;
  };

  // 16 KiB per connection: a bigger buffer is memory every idle connection holds.
  const buf = new Uint8Array(16 * 1024);
  arm();
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
  clearTimeout(idleTimer);
}
