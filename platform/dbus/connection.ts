/**
 * A D-Bus client connection over a unix socket: SASL EXTERNAL, Hello, pipelined method calls
 * matched to replies by serial, signals, and a background read loop.
 *
 * @module
 */

import { resolveUnixAddress } from "./address.ts";
import { DBusClosedError, DBusError } from "./errors.ts";
import { MessageFramer } from "./framer.ts";
import { INVALID_ARGS, toIncomingCall, toSignal, unhandledCallError } from "./incoming.ts";
import { decodeBody, decodeHeader, MessageFlags } from "./message.ts";
import { MessageType, type OutgoingMessage } from "./message.ts";
import { OutgoingQueue } from "./outgoing.ts";
import { PendingCalls } from "./pending_calls.ts";
import { authenticate } from "./sasl.ts";
import type { CallOptions, ConnectOptions, DBusSignal, IncomingCall } from "./types.ts";
import type { MethodCall, SignalEmission } from "./types.ts";

const BUS = {
  destination: "org.freedesktop.DBus",
  path: "/org/freedesktop/DBus",
  interface: "org.freedesktop.DBus",
} as const;
const DEFAULT_TIMEOUT_MS = 25_000;

/** A connection to a message bus. Create one with {@link DBusConnection.connect}. */
export class DBusConnection implements AsyncDisposable {
  readonly #conn: Deno.Conn;
  readonly #out: OutgoingQueue;
  readonly #pending = new PendingCalls();
  readonly #signalListeners = new Set<(s: DBusSignal) => void>();
  readonly #callHandlers = new Set<(c: IncomingCall) => void>();
  readonly #closeListeners = new Set<(reason: DBusClosedError) => void>();
  readonly #onListenerError: (error: unknown) => void;
  #serial = 0;
  #uniqueName = "";
  #closed = false;

  private constructor(
    conn: Deno.Conn,
    /** The server GUID from the SASL handshake. */
    readonly guid: string,
    options: ConnectOptions,
  ) {
    this.#conn = conn;
    this.#onListenerError = options.onListenerError ?? (() => {});
    this.#out = new OutgoingQueue(conn, (cause) => {
      this.#shutdown(new DBusClosedError("D-Bus connection failed to write", { cause }));
    });
  }

  /**
   * Connects to the first unix socket in `address`, authenticates, and says Hello. Needs
   * `--allow-read`/`--allow-write` on the socket path, `--allow-net=unix:PATH`, `--allow-sys=uid`.
   */
  static async connect(address: string, options: ConnectOptions = {}): Promise<DBusConnection> {
    const { signal } = options;
    signal?.throwIfAborted();
    const target = resolveUnixAddress(address);
    const conn = await Deno.connect({ transport: "unix", path: target.socketPath });
    // Closing the socket is what unblocks a pending read or write when the caller aborts.
    const onAbort = (): void => conn.close();
    signal?.addEventListener("abort", onAbort, { once: true });
    let bus: DBusConnection | undefined;
    try {
      const { guid, leftover } = await authenticate(conn);
      bus = new DBusConnection(conn, guid, options);
      void bus.#readLoop(leftover);
      if (!options.peer) {
        const [name] = await bus.call({ ...BUS, member: "Hello" });
        bus.#uniqueName = String(name);
      }
      return bus;
    } catch (error) {
      if (bus !== undefined) bus.close();
      else if (!signal?.aborted) conn.close();
      throw signal?.aborted ? signal.reason : error;
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** The unique name the bus gave this connection, e.g. `:1.42`. */
  get uniqueName(): string {
    return this.#uniqueName;
  }

  /** Whether the connection is closed (by {@link close}, the peer, or an I/O failure). */
  get closed(): boolean {
    return this.#closed;
  }

  /** Calls a method and resolves with the reply body; rejects with {@link DBusError} etc. */
  call(msg: MethodCall, options: CallOptions = {}): Promise<unknown[]> {
    const { signal, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
    return new Promise<unknown[]>((resolve, reject) => {
      if (this.#closed) return reject(new DBusClosedError());
      if (signal?.aborted) return reject(signal.reason);
      if (!(timeoutMs > 0)) return reject(new RangeError(`timeoutMs must be > 0: ${timeoutMs}`));
      const serial = this.#nextSerial();
      try {
        this.#out.enqueue({ ...msg, type: MessageType.METHOD_CALL }, serial);
      } catch (error) {
        return reject(error);
      }
      const what = `${msg.interface}.${msg.member} on ${msg.destination}`;
      this.#pending.add(serial, { resolve, reject }, timeoutMs, signal, what);
    });
  }

  /** Sends a method call flagged NO_REPLY_EXPECTED; throws if closed or `msg` is invalid. */
  callNoReply(msg: MethodCall): void {
    this.#send({ ...msg, type: MessageType.METHOD_CALL, flags: MessageFlags.NO_REPLY_EXPECTED });
  }

  /** Emits a signal; throws if closed or the body does not fit its signature. */
  emit(signal: SignalEmission): void {
    this.#send({ ...signal, type: MessageType.SIGNAL });
  }

  /** Asks the bus to route signals matching `rule` (match-rule syntax) to this connection. */
  async addMatch(rule: string): Promise<void> {
    await this.call({ ...BUS, member: "AddMatch", signature: "s", body: [rule] });
  }

  /** Undoes an {@link addMatch} with the identical `rule`. */
  async removeMatch(rule: string): Promise<void> {
    await this.call({ ...BUS, member: "RemoveMatch", signature: "s", body: [rule] });
  }

  /** Hears every signal routed to this connection; returns the unsubscribe function. */
  onSignal(listener: (signal: DBusSignal) => void): () => void {
    this.#signalListeners.add(listener);
    return () => this.#signalListeners.delete(listener);
  }

  /**
   * Hears method calls addressed to this connection; the handler answers with {@link reply} or
   * {@link replyError}. With no handler, calls get an UnknownMethod error (Peer.Ping excepted).
   */
  onMethodCall(handler: (call: IncomingCall) => void): () => void {
    this.#callHandlers.add(handler);
    return () => this.#callHandlers.delete(handler);
  }

  /** Answers `call` with a METHOD_RETURN. */
  reply(call: IncomingCall, signature = "", body: readonly unknown[] = []): void {
    const type = MessageType.METHOD_RETURN;
    this.#send({ type, replySerial: call.serial, destination: call.sender, signature, body });
  }

  /** Answers `call` with an ERROR named `errorName`. */
  replyError(call: IncomingCall, errorName: string, message: string): void {
    const base = { replySerial: call.serial, destination: call.sender, errorName };
    this.#send({ type: MessageType.ERROR, ...base, signature: "s", body: [message] });
  }

  /** Hears the connection closing (once); called at once if it is already closed. */
  onClose(listener: (reason: DBusClosedError) => void): () => void {
    if (this.#closed) this.#guard(() => listener(new DBusClosedError()));
    else this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** Closes the socket at once; pending calls reject with {@link DBusClosedError}. Idempotent. */
  close(): void {
    this.#shutdown(new DBusClosedError("D-Bus connection was closed by this client"));
  }

  /** Sends whatever is queued, then closes. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.#closed) await this.#out.flush();
    this.close();
  }

  #nextSerial(): number {
    this.#serial = this.#serial >= 0xffffffff ? 1 : this.#serial + 1;
    return this.#serial;
  }

  #send(msg: OutgoingMessage): void {
    if (this.#closed) throw new DBusClosedError();
    this.#out.enqueue(msg, this.#nextSerial());
  }

  #guard<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (error) {
      this.#onListenerError(error);
      return undefined;
    }
  }

  async #readLoop(leftover: Uint8Array): Promise<void> {
    const framer = new MessageFramer();
    // Reused across reads: the framer's views into it are decoded before the next read.
    const buf = new Uint8Array(256 * 1024);
    let reason = new DBusClosedError("D-Bus connection was closed by the peer");
    try {
      for (const m of framer.push(leftover)) this.#dispatch(m);
      for (let n = await this.#conn.read(buf); n !== null; n = await this.#conn.read(buf)) {
        for (const m of framer.push(buf.subarray(0, n))) this.#dispatch(m);
      }
    } catch (cause) {
      reason = new DBusClosedError("D-Bus connection failed", { cause });
    }
    this.#shutdown(reason);
  }

  #dispatch(bytes: Uint8Array): void {
    if (this.#closed) return; // A listener closed us mid-chunk; the rest is moot.
    const h = decodeHeader(bytes);
    if (h.type === MessageType.METHOD_RETURN || h.type === MessageType.ERROR) {
      const entry = this.#pending.take(h.replySerial ?? 0);
      if (entry === undefined) return; // Timed out or aborted: drop without decoding.
      let body: unknown[];
      try {
        body = decodeBody(bytes, h);
      } catch (error) {
        return entry.reject(error);
      }
      if (h.type === MessageType.METHOD_RETURN) return entry.resolve(body);
      const text = typeof body[0] === "string" ? body[0] : "";
      entry.reject(new DBusError(h.errorName ?? "", text, body));
    } else if (h.type === MessageType.SIGNAL && this.#signalListeners.size > 0) {
      // A body that does not decode spoils only this signal, not the connection.
      const signal = this.#guard(() => toSignal(h, decodeBody(bytes, h)));
      if (signal === undefined) return;
      for (const listener of this.#signalListeners) this.#guard(() => listener(signal));
    } else if (h.type === MessageType.METHOD_CALL) {
      const call = toIncomingCall(h, []);
      try {
        this.#onCall({ ...call, body: decodeBody(bytes, h) });
      } catch (error) {
        if (!call.noReplyExpected && !this.#closed) {
          this.replyError(call, INVALID_ARGS, String(error));
        }
      }
    }
  }

  #onCall(call: IncomingCall): void {
    if (this.#callHandlers.size > 0) {
      for (const handler of this.#callHandlers) this.#guard(() => handler(call));
      return;
    }
    if (call.noReplyExpected) return;
    const error = unhandledCallError(call);
    if (error === undefined) this.reply(call);
    else this.replyError(call, ...error);
  }

  #shutdown(reason: DBusClosedError): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#conn.close();
    } catch {
      // Already closed by the peer or an abort; nothing left to release.
    }
    this.#pending.rejectAll(reason);
    for (const listener of this.#closeListeners) this.#guard(() => listener(reason));
    this.#closeListeners.clear();
  }
}
