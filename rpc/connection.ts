/**
 * Serves one connection: frames lines, dispatches each request concurrently (answers may
 * go out of order, matched by id) and writes answers one whole line at a time.
 *
 * What a connection may hold is bounded. A peer that sends requests and does not read the
 * answers is read no further while {@link DEFAULT_MAX_INFLIGHT} requests are being served or
 * {@link DEFAULT_PAUSE_BYTES} of answers wait to be written (its own writes then block in
 * the kernel), and is dropped once {@link DEFAULT_MAX_QUEUED_BYTES} wait. A line is held
 * only up to the line limit and the server's shared budget. After
 * {@link DEFAULT_MAX_REFUSALS} requests refused by the transport's check (a wrong token),
 * the connection is closed.
 *
 * @module
 */
import { DriverError, toRpcError } from "../protocol/errors.ts";
import { log } from "../util/log.ts";
import type { Authorize, Dispatcher } from "./dispatcher.ts";
import { type Frame, type LineBudget, LineSplitter, MAX_LINE_BYTES } from "../util/framing.ts";

const encoder = new TextEncoder();

/** Requests served at once per connection before it is read no further. */
export const DEFAULT_MAX_INFLIGHT = 64;

/** Answer bytes waiting to be written before the connection is read no further. */
export const DEFAULT_PAUSE_BYTES = 1024 * 1024;

/** Answer bytes waiting past which the connection is dropped: its peer does not read. */
export const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024 * 1024;

/** Requests refused by the transport's check (wrong token) before the connection closes. */
export const DEFAULT_MAX_REFUSALS = 3;

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
  /** Refused requests after which the connection is closed (0: never). */
  maxRefusals?: number;
  /** Requests served at once before reading pauses ({@link DEFAULT_MAX_INFLIGHT}). */
  maxInflight?: number;
  /** Unwritten answer bytes before reading pauses ({@link DEFAULT_PAUSE_BYTES}). */
  pauseBytes?: number;
  /** Unwritten answer bytes past which the connection is dropped. */
  maxQueuedBytes?: number;
  /** Bytes of unfinished lines all connections may hold together (the server's). */
  lineBudget?: LineBudget;
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
  const maxInflight = Math.max(1, options.maxInflight ?? DEFAULT_MAX_INFLIGHT);
  const pauseBytes = options.pauseBytes ?? DEFAULT_PAUSE_BYTES;
  const maxQueued = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
  const maxRefusals = options.maxRefusals ?? DEFAULT_MAX_REFUSALS;
  const splitter = new LineSplitter(MAX_LINE_BYTES, options.lineBudget);
  const inflight = new Set<Promise<void>>();
  let writing: Promise<void> = Promise.resolve();
  let writable = true;
  let authorised = false;
  let refusals = 0;
  // Unwritten answer bytes: what a peer that does not read makes us hold.
  let queued = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  // Set once no more requests are to be read: the read loop ends at its next turn.
  let stopping = false;
  // Ends the read under way, if any (a refusal found while waiting for bytes).
  let interrupt: ((n: null) => void) | undefined;
  // Wakes the read loop waiting for room (an answer written, a request done).
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const stop = () => {
    stopping = true;
    interrupt?.(null);
    notify();
  };
  const closeConn = () => {
    try {
      conn.close();
    } catch {
      // The peer closed it meanwhile.
    }
  };

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
    send(errorLine(err)).finally(closeConn);
  };
  // This connection, as handlers see it: what a connection owns (its trace) is keyed by it.
  const session = {};
  const check: Authorize | undefined = authorize && ((req) => {
    const ok = authorize(req);
    if (ok) authorised = true;
    else {
      options.onRefused?.(typeof req.method === "string" ? req.method : "");
      // A peer guessing tokens gets a few tries, not a connection to flood the audit with.
      if (++refusals === maxRefusals) stop();
    }
    return ok;
  });

  // Writes are chained so two answers never interleave on the wire.
  const send = (line: string): Promise<void> => {
    if (!writable) return writing;
    const bytes = encoder.encode(line + "\n");
    if (queued > 0 && queued + bytes.length > maxQueued) {
      // Reading stopped long ago and still nothing is taken: let it all go.
      log("warn", "connection dropped: its answers are not being read", {
        queued_bytes: queued,
        max_queued_bytes: maxQueued,
      });
      writable = false;
      stop();
      closeConn(); // Fails the write under way, so the queued answers are let go.
      return writing;
    }
    queued += bytes.length;
    writing = writing.then(async () => {
      try {
        if (!writable) return;
        let off = 0;
        while (off < bytes.length) off += await conn.write(bytes.subarray(off));
      } catch {
        // The peer went away: nothing left to tell it, so nothing more to read either.
        writable = false;
        stop();
      } finally {
        queued -= bytes.length;
        notify();
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
        notify();
      });
    inflight.add(q);
  };

  const serve = (frame: Frame) => {
    if ("tooLong" in frame) {
      const err = frame.busy
        ? new DriverError(
          "busy",
          "Too many unfinished requests are held by the driver; line dropped, try again",
          { limit: options.lineBudget?.max },
        )
        : new DriverError(
          "invalid_request",
          `Line exceeds the ${MAX_LINE_BYTES}-byte limit; dropped up to its newline`,
          { limit: MAX_LINE_BYTES },
        );
      track(send(errorLine(err)));
      return;
    }
    track(
      dispatcher.handleLine(frame.line, check, session).then((answer) => {
        if (answer !== undefined) return send(answer);
      }),
    );
    // A request the check let through (or no check at all: the private socket).
    if (!check) authorised = true;
  };

  // Room to serve one more request: the answers owed must be taken first (backpressure).
  const room = async () => {
    while (!stopping && (inflight.size >= maxInflight || queued >= pauseBytes)) {
      await new Promise<void>((ok) => wake = ok);
    }
  };

  // 16 KiB per connection: a bigger buffer is memory every idle connection holds.
  const buf = new Uint8Array(16 * 1024);
  arm();
  try {
    while (!stopping) {
      // A fresh promise per read, not a race with one long-lived promise: every race
      // would leave a reaction on it for as long as the connection lasts.
      const n = await new Promise<number | null>((ok, fail) => {
        interrupt = ok;
        conn.read(buf).then(ok, fail);
      });
      interrupt = undefined;
      if (n === null) break;
      for (const frame of splitter.push(buf.subarray(0, n))) {
        await room();
        if (stopping) break;
        serve(frame);
      }
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.ConnectionReset || err instanceof Deno.errors.BadResource)) {
      log("debug", "connection read failed", { error: String(err) });
    }
  }
  if (!stopping) { for (const frame of splitter.end()) serve(frame); }
  splitter.release();
  while (inflight.size > 0) await Promise.all([...inflight]);
  if (maxRefusals > 0 && refusals >= maxRefusals && writable) {
    const err = new DriverError(
      "unauthorized",
      `${refusals} requests refused: missing or wrong token; connection closed`,
      { refused: refusals },
    );
    await send(errorLine(err));
  }
  await writing;
  clearTimeout(idleTimer);
  // Stopped early (wrong tokens, answers not read): the peer is not heard any further.
  if (stopping) closeConn();
  await dispatcher.sessionEnded(session);
}

function errorLine(err: DriverError): string {
  return JSON.stringify({ jsonrpc: "2.0", id: null, error: toRpcError(err) });
}
