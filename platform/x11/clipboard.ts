/**
 * The X selections (CLIPBOARD, PRIMARY) read and owned by the driver itself, as ICCCM
 * section 2 has clients do it, without xclip or xsel.
 *
 * X keeps no clipboard contents: a selection is only an owner, a client that converts its
 * data on request into a property of the requestor's window. So the driver reads by
 * asking the owner ({@link readSelection}) and "copies" by becoming the owner and
 * answering everyone who asks, for as long as it owns ({@link SelectionOwner}).
 *
 * Each reader and each owner uses a connection of its own, with an unmapped 1x1
 * InputOnly window: the selection events come only there, and errors about requestors
 * that vanish stay there. Events are read by polling `XPending` between timers, never by
 * blocking in `XNextEvent`, so a slow owner never stalls the event loop.
 *
 * @module
 */
import { checkConnection, checkX, cString } from "../../ffi/linux_x11.ts";
import { DriverError, isDriverError } from "../../protocol/errors.ts";
import { X11Display, type X11Handle, x11Handle } from "./display.ts";
import { type PropertyValue, readProperty } from "./window_props.ts";

/** The selections the driver reads and owns. */
export type SelectionName = "CLIPBOARD" | "PRIMARY";

/** What {@link readSelection} takes. */
export interface ReadSelectionOptions {
  /** How long the whole read may take, ms, an incremental (INCR) transfer included. */
  timeoutMs: number;
  /** Most bytes kept, counted as the owner sends them (UTF-8; Latin-1 for `STRING`). */
  maxBytes: number;
  /** Stops the read: it rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A selection's text as its owner gave it. */
export interface SelectionText {
  /** The text (whole characters only when truncated). */
  text: string;
  /** True when the owner had more than `maxBytes` bytes: `text` is their beginning. */
  truncated: boolean;
}

// Predefined atoms (Xatom.h) and protocol constants (X.h).
const XA_ATOM = 4n;
const XA_INTEGER = 19n;
const XA_STRING = 31n;
const NONE = 0n;
const PROP_MODE_REPLACE = 0;
const PROP_MODE_APPEND = 2;
const PROPERTY_NEW_VALUE = 0;
const PROPERTY_DELETE = 1;
const INPUT_ONLY = 2;
const PROPERTY_CHANGE_MASK = 1n << 22n;
const STRUCTURE_NOTIFY_MASK = 1n << 17n;
const DESTROY_NOTIFY = 17;
const PROPERTY_NOTIFY = 28;
const SELECTION_CLEAR = 29;
const SELECTION_REQUEST = 30;
const SELECTION_NOTIFY = 31;
/** sizeof(XEvent): a union padded to 24 longs. */
const XEVENT_SIZE = 192;
/** XPropertyEvent on x86_64, after type, serial, send_event and display. */
const PROP_EV = { window: 32, atom: 40, time: 48, state: 56 } as const;
/** XSelectionEvent (SelectionNotify) on x86_64. */
const NOTIFY_EV = { requestor: 32, selection: 40, target: 48, property: 56, time: 64 } as const;
/** XSelectionRequestEvent on x86_64. */
const REQUEST_EV = {
  owner: 32,
  requestor: 40,
  selection: 48,
  target: 56,
  property: 64,
  time: 72,
} as const;
/** XSelectionClearEvent's `selection`; XDestroyWindowEvent's `window` is at the same place. */
const CLEAR_SELECTION_OFF = 40;
const DESTROYED_WINDOW_OFF = 40;
/** Largest property written in one piece: GTK's limit, below any server's request size. */
const MAX_CHUNK = 256 * 1024;
/** Room for the ChangeProperty request's own fields within the server's request size. */
const REQUEST_HEADER_BYTES = 100;
/** A requestor silent this long in an INCR transfer has given up (ICCCM leaves it open). */
const INCR_IDLE_MS = 10_000;
/** How often an owner looks for requests: a paste waits at most this long for it. */
const IDLE_POLL_MS = 10;
/** Between the chunks of an INCR transfer the requestor answers at once. */
const BUSY_POLL_MS = 1;
const MAX_PAUSE_MS = 16;
/** Default deadline for taking a selection: one round trip to the server. */
const CLAIM_TIMEOUT_MS = 2_000;

/** The atoms a reader or an owner of one selection needs. */
interface Atoms {
  selection: bigint;
  utf8: bigint;
  text: bigint;
  targets: bigint;
  timestamp: bigint;
  incr: bigint;
  /** Where the reader has the owner put the data. */
  property: bigint;
  /** Touched to learn the server's time. */
  stamp: bigint;
}

function internAtoms(h: X11Handle, selection: SelectionName): Atoms {
  const atom = (name: string) => h.x11.XInternAtom(h.dpy, cString(name), 0);
  return {
    selection: atom(selection),
    utf8: atom("UTF8_STRING"),
    text: atom("TEXT"),
    targets: atom("TARGETS"),
    timestamp: atom("TIMESTAMP"),
    incr: atom("INCR"),
    property: atom("ALLTERNIT_SELECTION"),
    stamp: atom("ALLTERNIT_TIMESTAMP"),
  };
}

/** An unmapped 1x1 InputOnly window that hears about its own properties. */
function createWindow(h: X11Handle): bigint {
  const win = h.x11.XCreateWindow(h.dpy, h.root, -1, -1, 1, 1, 0, 0, INPUT_ONLY, null, 0n, null);
  h.x11.XSelectInput(h.dpy, win, PROPERTY_CHANGE_MASK);
  checkX(h.x11, h.dpy, "create a window for the selection");
  return win;
}

const EMPTY = new Uint8Array(0);

/** Replaces property `prop` of `win` with `count` items (format 32 items are C longs). */
function replaceProperty(
  h: X11Handle,
  win: bigint,
  prop: bigint,
  type: bigint,
  format: 8 | 32,
  data: Uint8Array,
  count: number,
): void {
  h.x11.XChangeProperty(h.dpy, win, prop, type, format, PROP_MODE_REPLACE, data, count);
}

/**
 * Appends nothing to a property of `win`: the PropertyNotify that follows carries the
 * server's time, which ICCCM wants in selection requests instead of CurrentTime.
 */
function askServerTime(h: X11Handle, win: bigint, stamp: bigint): void {
  h.x11.XChangeProperty(h.dpy, win, stamp, stamp, 8, PROP_MODE_APPEND, EMPTY, 0);
  h.x11.XFlush(h.dpy);
}

function isPropertyEvent(v: DataView, win: bigint, atom: bigint, state: number): boolean {
  return v.getInt32(0, true) === PROPERTY_NOTIFY &&
    v.getBigUint64(PROP_EV.window, true) === win &&
    v.getBigUint64(PROP_EV.atom, true) === atom &&
    v.getInt32(PROP_EV.state, true) === state;
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** A deadline that ends a wait with `timeout` (or the signal's reason). */
interface Until {
  at: number;
  signal: AbortSignal | undefined;
  timeout: () => DriverError;
}

/** Reads events until one `match`es; the others are dropped. Never blocks in Xlib. */
async function waitEvent(
  h: X11Handle,
  event: Uint8Array,
  until: Until,
  match: (v: DataView) => boolean,
): Promise<DataView> {
  const view = new DataView(event.buffer);
  for (let ms = 1;; ms = Math.min(ms * 2, MAX_PAUSE_MS)) {
    while (h.x11.XPending(h.dpy) > 0) {
      h.x11.XNextEvent(h.dpy, event);
      if (match(view)) return view;
    }
    // A lost connection has no events to wait for: say so now, not at the deadline.
    checkConnection(h.dpy, "read the selection");
    until.signal?.throwIfAborted();
    const left = until.at - performance.now();
    if (left <= 0) throw until.timeout();
    await pause(Math.min(ms, left), until.signal);
  }
}

/**
 * Reads at most a little over `budget` bytes of `prop` and deletes it, which tells an INCR
 * owner to send the next chunk. `undefined` when the property is not there.
 */
function takeProperty(
  h: X11Handle,
  win: bigint,
  prop: bigint,
  budget: number,
): PropertyValue | undefined {
  // One 32-bit unit past the budget, so that a longer value shows as one.
  const units = Math.min(Math.ceil(Math.max(budget, 0) / 4) + 1, 0x1fff_ffff);
  const chunk = readProperty(h, win, prop, BigInt(units), true);
  // Xlib deletes only a property read to its end.
  if (chunk?.more) h.x11.XDeleteProperty(h.dpy, win, prop);
  return chunk;
}

/** The first `max` bytes of UTF-8 `bytes`, backed off to a character boundary. */
function utf8Prefix(bytes: Uint8Array, max: number): Uint8Array {
  let end = Math.min(max, bytes.length);
  while (end > 0 && end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

function latin1Text(bytes: Uint8Array): string {
  // Not TextDecoder("latin1"): the Encoding Standard maps that label to windows-1252.
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return out;
}

/** `text` in ISO 8859-1, as ICCCM's STRING is; `undefined` when a character has none. */
function latin1Bytes(text: string): Uint8Array | undefined {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) return undefined;
    out[i] = code;
  }
  return out;
}

function decode(type: bigint, bytes: Uint8Array, more: boolean, maxBytes: number): SelectionText {
  const truncated = more || bytes.length > maxBytes;
  if (type === XA_STRING) {
    return { text: latin1Text(truncated ? bytes.subarray(0, maxBytes) : bytes), truncated };
  }
  const kept = truncated ? utf8Prefix(bytes, maxBytes) : bytes;
  return { text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(kept), truncated };
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * The text the owner put in the reader's property: whole, or in INCR chunks that each
 * come as a new value once the previous one was deleted, until an empty one.
 */
async function receive(
  h: X11Handle,
  win: bigint,
  atoms: Atoms,
  maxBytes: number,
  wait: (match: (v: DataView) => boolean) => Promise<DataView>,
): Promise<SelectionText | undefined> {
  const first = takeProperty(h, win, atoms.property, maxBytes);
  if (!first) return undefined;
  if (first.type !== atoms.incr) {
    return first.format === 8 ? decode(first.type, first.bytes, first.more, maxBytes) : undefined;
  }
  // Deleting the INCR property (takeProperty did) starts the transfer.
  h.x11.XFlush(h.dpy);
  const parts: Uint8Array[] = [];
  let size = 0;
  let type = atoms.utf8;
  let more = false;
  while (!more) {
    await wait((v) => isPropertyEvent(v, win, atoms.property, PROPERTY_NEW_VALUE));
    const chunk = takeProperty(h, win, atoms.property, maxBytes - size);
    h.x11.XFlush(h.dpy);
    if (!chunk) continue;
    if (chunk.bytes.length === 0) break;
    type = chunk.type;
    parts.push(chunk.bytes);
    size += chunk.bytes.length;
    // Past the budget the rest is not wanted: the owner gives up once the window is gone.
    more = chunk.more || size > maxBytes;
  }
  return decode(type, concat(parts, size), more, maxBytes);
}

/**
 * Reads selection `selection` of X display `displayName` as text: asks its owner for
 * `UTF8_STRING`, and for `STRING` (Latin-1) when the owner refuses that. Follows INCR
 * transfers, and keeps at most `maxBytes` bytes (`truncated` says so).
 *
 * @returns `null` when nobody owns the selection or the owner has no text to give.
 * @throws {DriverError} `timeout` when the owner does not answer within `timeoutMs`;
 *   `driver_unavailable` when the display cannot be opened.
 */
export async function readSelection(
  displayName: string,
  selection: SelectionName,
  opts: ReadSelectionOptions,
): Promise<SelectionText | null> {
  opts.signal?.throwIfAborted();
  const until: Until = {
    at: performance.now() + opts.timeoutMs,
    signal: opts.signal,
    timeout: () =>
      new DriverError(
        "timeout",
        `Cannot read the "${selection}" selection: its owner did not answer within ${opts.timeoutMs} ms`,
        { ms: opts.timeoutMs, selection },
      ),
  };
  // Its own connection, for one read: a server lost meanwhile fails the read.
  using conn = X11Display.open(displayName, { reconnect: false });
  const h = x11Handle(conn);
  const atoms = internAtoms(h, selection);
  if (h.x11.XGetSelectionOwner(h.dpy, atoms.selection) === NONE) return null;
  const win = createWindow(h);
  const event = new Uint8Array(XEVENT_SIZE);
  const wait = (match: (v: DataView) => boolean) => waitEvent(h, event, until, match);
  try {
    askServerTime(h, win, atoms.stamp);
    const stamped = await wait((v) => isPropertyEvent(v, win, atoms.stamp, PROPERTY_NEW_VALUE));
    const time = stamped.getBigUint64(PROP_EV.time, true);
    for (const target of [atoms.utf8, XA_STRING]) {
      h.x11.XConvertSelection(h.dpy, atoms.selection, target, atoms.property, win, time);
      h.x11.XFlush(h.dpy);
      const notify = await wait((v) =>
        v.getInt32(0, true) === SELECTION_NOTIFY &&
        v.getBigUint64(NOTIFY_EV.requestor, true) === win &&
        v.getBigUint64(NOTIFY_EV.selection, true) === atoms.selection
      );
      // Property None: the owner refused this target (or had just gone).
      if (notify.getBigUint64(NOTIFY_EV.property, true) === NONE) continue;
      const got = await receive(h, win, atoms, opts.maxBytes, wait);
      if (got) return got;
    }
    return null;
  } finally {
    // Also how an INCR owner learns that a reader that stopped early is gone.
    h.x11.XDestroyWindow(h.dpy, win);
    h.x11.XFlush(h.dpy);
  }
}

/** What {@link SelectionOwner.claim} takes. */
export interface SelectionOwnerOptions {
  /** How long taking the selection may wait for the server, ms (default 2000). */
  timeoutMs?: number;
  /** Stops taking the selection: the claim rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called once when another client takes the selection (not on {@link SelectionOwner.close}). */
  onLost?: () => void;
  /**
   * Told of an X error while serving one request, other than a requestor that vanished;
   * that request fails, and serving goes on.
   */
  onError?: (err: DriverError) => void;
}

/** An INCR transfer in progress: what is left to send to one requestor's property. */
interface Transfer {
  requestor: bigint;
  property: bigint;
  type: bigint;
  data: Uint8Array;
  /** Bytes sent so far. */
  offset: number;
  /** When the requestor last deleted the property (performance.now()). */
  at: number;
}

/**
 * The handle of `conn`, or undefined once its server is gone (found now or before): a
 * timer's poll must never throw for that.
 */
function liveHandle(conn: X11Display): X11Handle | undefined {
  if (conn.lost) return undefined;
  try {
    return x11Handle(conn);
  } catch (err) {
    if (conn.lost) return undefined;
    throw err;
  }
}

/** The owner per display and selection: the process owns each selection at most once. */
const owners = new Map<string, SelectionOwner>();
/** Claims of one selection run one after another. */
const claims = new Map<string, Promise<void>>();

/**
 * The driver as owner of one selection, holding a text and converting it for every client
 * that asks (TARGETS, UTF8_STRING, STRING, TEXT, TIMESTAMP; texts over 256 KiB through
 * INCR), until another client takes the selection or {@link close} is called. It polls its
 * connection on a timer, which keeps the process alive while it owns: on X the copied
 * text lives only as long as its owner.
 */
export class SelectionOwner {
  /** The display it owns the selection on (`":77"`). */
  readonly displayName: string;
  /** The selection it owns. */
  readonly selection: SelectionName;
  /** Called once when another client takes the selection (not on {@link close}). */
  onLost: (() => void) | undefined;
  /** Told of X errors while serving a request (a requestor that vanished is not one). */
  onError: ((err: DriverError) => void) | undefined;
  readonly #key: string;
  #conn: X11Display | undefined;
  readonly #win: bigint;
  readonly #atoms: Atoms;
  /** Largest property written at once; longer texts go by INCR. */
  readonly #chunk: number;
  #text = "";
  #utf8: Uint8Array = EMPTY;
  #latin1: Uint8Array | undefined = EMPTY;
  /** The server time it took the selection at; undefined until then. */
  #since: bigint | undefined;
  /** The time of the last stamp asked for, once the server sent it. */
  #stamp: bigint | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #transfers = new Map<string, Transfer>();
  readonly #event = new Uint8Array(XEVENT_SIZE);
  readonly #view = new DataView(this.#event.buffer);

  private constructor(displayName: string, selection: SelectionName, key: string) {
    this.displayName = displayName;
    this.selection = selection;
    this.#key = key;
    // The selection lives on this connection: a server lost takes it along (no reconnect).
    const conn = X11Display.open(displayName, { reconnect: false });
    try {
      const h = x11Handle(conn);
      this.#atoms = internAtoms(h, selection);
      this.#win = createWindow(h);
      const units = Number(h.x11.XExtendedMaxRequestSize(h.dpy)) ||
        Number(h.x11.XMaxRequestSize(h.dpy));
      this.#chunk = Math.min(MAX_CHUNK, units * 4 - REQUEST_HEADER_BYTES);
    } catch (err) {
      conn.close();
      throw err;
    }
    this.#conn = conn;
  }

  /**
   * Makes the driver the owner of `selection` on `displayName`, holding `text`. The
   * process owns each selection once: while an earlier owner still owns it, that one
   * takes the new text, takes the selection again (clipboard managers see a new copy),
   * is returned, and gets `onLost`/`onError` when given.
   *
   * @throws {DriverError} `internal` (reason `selection_refused`) when the server kept
   *   another owner; `timeout` when the server did not answer within `timeoutMs`;
   *   `driver_unavailable` when the display cannot be opened.
   */
  static claim(
    displayName: string,
    selection: SelectionName,
    text: string,
    options: SelectionOwnerOptions = {},
  ): Promise<SelectionOwner> {
    const key = `${displayName}\n${selection}`;
    const adopt = (owner: SelectionOwner) => {
      if (options.onLost) owner.onLost = options.onLost;
      if (options.onError) owner.onError = options.onError;
      return owner;
    };
    const turn = async (): Promise<SelectionOwner> => {
      const live = owners.get(key);
      if (live?.owned) {
        try {
          await live.#take(text, options);
          return adopt(live);
        } catch (err) {
          // Lost to another client meanwhile: a new owner takes the selection back.
          if (live.#conn) throw err;
        }
      }
      const owner = new SelectionOwner(displayName, selection, key);
      try {
        await owner.#take(text, options);
      } catch (err) {
        owner.close();
        throw err;
      }
      owners.set(key, owner);
      owner.#schedule();
      return adopt(owner);
    };
    const claimed = (claims.get(key) ?? Promise.resolve()).then(turn);
    const done = claimed.then(() => {}, () => {});
    claims.set(key, done);
    void done.then(() => {
      if (claims.get(key) === done) claims.delete(key);
    });
    return claimed;
  }

  /** Whether it still owns the selection (pending events are read first). */
  get owned(): boolean {
    this.#pump();
    return this.#conn !== undefined && this.#since !== undefined;
  }

  /** The text it serves. */
  get text(): string {
    return this.#text;
  }

  /**
   * Gives the selection up (unless another client took it since), stops serving and
   * closes the connection. Idempotent; does not call `onLost`.
   */
  close(): void {
    const conn = this.#conn;
    if (!conn) return;
    this.#conn = undefined;
    clearTimeout(this.#timer);
    this.#transfers.clear();
    if (owners.get(this.#key) === this) owners.delete(this.#key);
    const h = liveHandle(conn);
    if (!h) {
      // The server and the selection are gone: nothing to give up, no request to make.
      this.#since = undefined;
      conn.close();
      return;
    }
    // At its own time: the server ignores this when someone took the selection later.
    if (this.#since !== undefined) {
      h.x11.XSetSelectionOwner(h.dpy, this.#atoms.selection, NONE, this.#since);
      this.#since = undefined;
    }
    h.x11.XDestroyWindow(h.dpy, this.#win);
    conn.close();
  }

  /** Same as {@link close}, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }

  /** Takes the selection with `text`, at a fresh server time; checks it really got it. */
  async #take(text: string, options: SelectionOwnerOptions): Promise<void> {
    const before = [this.#text, this.#utf8, this.#latin1] as const;
    // Set first: requests may come as soon as the server moves the selection.
    this.#text = text;
    this.#utf8 = new TextEncoder().encode(text);
    this.#latin1 = latin1Bytes(text);
    try {
      const ms = options.timeoutMs ?? CLAIM_TIMEOUT_MS;
      const time = await this.#serverTime(performance.now() + ms, ms, options.signal);
      const h = this.#handle();
      h.x11.XSetSelectionOwner(h.dpy, this.#atoms.selection, this.#win, time);
      // The server ignores a take older than the selection's last change: ask who won.
      if (h.x11.XGetSelectionOwner(h.dpy, this.#atoms.selection) !== this.#win) {
        throw new DriverError(
          "internal",
          `Cannot own the "${this.selection}" selection: the X server kept another owner`,
          { reason: "selection_refused", selection: this.selection },
        );
      }
      this.#since = time;
    } catch (err) {
      // A failed retake leaves an owner serving what it served before.
      [this.#text, this.#utf8, this.#latin1] = before;
      throw err;
    }
  }

  async #serverTime(at: number, ms: number, signal: AbortSignal | undefined): Promise<bigint> {
    this.#stamp = undefined;
    askServerTime(this.#handle(), this.#win, this.#atoms.stamp);
    for (let wait = 1;; wait = Math.min(wait * 2, MAX_PAUSE_MS)) {
      this.#pump();
      if (this.#stamp !== undefined) return this.#stamp;
      this.#handle();
      signal?.throwIfAborted();
      const left = at - performance.now();
      if (left <= 0) {
        throw new DriverError(
          "timeout",
          `Cannot own the "${this.selection}" selection: the X server did not answer within ${ms} ms`,
          { ms, selection: this.selection },
        );
      }
      await pause(Math.min(wait, left), signal);
    }
  }

  #handle(): X11Handle {
    if (!this.#conn) {
      throw new DriverError(
        "driver_unavailable",
        `The "${this.selection}" selection owner is closed`,
        { reason: "closed" },
      );
    }
    return x11Handle(this.#conn);
  }

  #schedule(): void {
    if (!this.#conn) return;
    const ms = this.#transfers.size > 0 ? BUSY_POLL_MS : IDLE_POLL_MS;
    this.#timer = setTimeout(() => {
      this.#pump();
      this.#schedule();
    }, ms);
  }

  /** Handles every event that has come, without waiting for one. */
  #pump(): void {
    if (!this.#conn) return;
    // Its X server went: the selection went with it, as if another client took it.
    const h = liveHandle(this.#conn);
    if (!h) return this.#lose();
    const v = this.#view;
    let wrote = false;
    while (h.x11.XPending(h.dpy) > 0) {
      h.x11.XNextEvent(h.dpy, this.#event);
      switch (v.getInt32(0, true)) {
        case SELECTION_REQUEST:
          this.#serve(h, v);
          wrote = true;
          break;
        case SELECTION_CLEAR:
          if (v.getBigUint64(CLEAR_SELECTION_OFF, true) === this.#atoms.selection) {
            this.#lose();
            return;
          }
          break;
        case PROPERTY_NOTIFY: {
          const win = v.getBigUint64(PROP_EV.window, true);
          const atom = v.getBigUint64(PROP_EV.atom, true);
          if (win === this.#win && atom === this.#atoms.stamp) {
            this.#stamp = v.getBigUint64(PROP_EV.time, true);
          } else if (v.getInt32(PROP_EV.state, true) === PROPERTY_DELETE) {
            wrote = this.#advance(h, win, atom) || wrote;
          }
          break;
        }
        case DESTROY_NOTIFY:
          this.#drop(h, v.getBigUint64(DESTROYED_WINDOW_OFF, true));
          break;
      }
    }
    const now = performance.now();
    for (const t of this.#transfers.values()) {
      if (now - t.at <= INCR_IDLE_MS) continue;
      this.#finish(h, t);
      wrote = true;
    }
    if (wrote) this.#settle(h);
  }

  /** Another client took the selection: serving ends with the connection. */
  #lose(): void {
    // Nothing to give up: the server already moved the selection.
    this.#since = undefined;
    this.close();
    this.onLost?.();
  }

  /** Answers one SelectionRequest with a SelectionNotify: the property, or None if refused. */
  #serve(h: X11Handle, v: DataView): void {
    const requestor = v.getBigUint64(REQUEST_EV.requestor, true);
    const selection = v.getBigUint64(REQUEST_EV.selection, true);
    const target = v.getBigUint64(REQUEST_EV.target, true);
    const asked = v.getBigUint64(REQUEST_EV.property, true);
    const time = v.getBigUint64(REQUEST_EV.time, true);
    // Obsolete requestors name no property: ICCCM has the target stand in for it.
    const property = asked === NONE ? target : asked;
    const ok = v.getBigUint64(REQUEST_EV.owner, true) === this.#win &&
      selection === this.#atoms.selection && this.#ownedAt(time) &&
      this.#answer(h, requestor, property, target);
    const event = new Uint8Array(XEVENT_SIZE);
    const out = new DataView(event.buffer);
    out.setInt32(0, SELECTION_NOTIFY, true);
    out.setBigUint64(NOTIFY_EV.requestor, requestor, true);
    out.setBigUint64(NOTIFY_EV.selection, selection, true);
    out.setBigUint64(NOTIFY_EV.target, target, true);
    out.setBigUint64(NOTIFY_EV.property, ok ? property : NONE, true);
    out.setBigUint64(NOTIFY_EV.time, time, true);
    h.x11.XSendEvent(h.dpy, requestor, 0, 0n, event);
  }

  /** ICCCM: refuse requests stamped before the selection was taken (32-bit wrap aware). */
  #ownedAt(time: bigint): boolean {
    if (this.#since === undefined) return false;
    return time === 0n || ((time - this.#since) & 0xffff_ffffn) < 0x8000_0000n;
  }

  #answer(h: X11Handle, requestor: bigint, property: bigint, target: bigint): boolean {
    const a = this.#atoms;
    const longs = (type: bigint, items: bigint[]) => {
      const data = new Uint8Array(BigUint64Array.from(items).buffer);
      replaceProperty(h, requestor, property, type, 32, data, items.length);
      return true;
    };
    switch (target) {
      case a.targets: {
        const offered = [a.targets, a.timestamp, a.utf8, a.text];
        if (this.#latin1) offered.push(XA_STRING);
        return longs(XA_ATOM, offered);
      }
      case a.timestamp:
        return longs(XA_INTEGER, [this.#since!]);
      case a.utf8:
        return this.#put(h, requestor, property, a.utf8, this.#utf8);
      case XA_STRING:
        return !!this.#latin1 && this.#put(h, requestor, property, XA_STRING, this.#latin1);
      case a.text:
        // The owner picks TEXT's encoding: STRING reaches the oldest clients.
        return this.#latin1
          ? this.#put(h, requestor, property, XA_STRING, this.#latin1)
          : this.#put(h, requestor, property, a.utf8, this.#utf8);
      default:
        return false;
    }
  }

  /** Writes `data` whole, or starts an INCR transfer when it is larger than a request. */
  #put(h: X11Handle, requestor: bigint, property: bigint, type: bigint, data: Uint8Array): boolean {
    if (data.length <= this.#chunk) {
      replaceProperty(h, requestor, property, type, 8, data, data.length);
      return true;
    }
    // Watched before the INCR property is written: its deletion must not be missed.
    h.x11.XSelectInput(h.dpy, requestor, PROPERTY_CHANGE_MASK | STRUCTURE_NOTIFY_MASK);
    const size = new Uint8Array(BigUint64Array.of(BigInt(data.length)).buffer);
    replaceProperty(h, requestor, property, this.#atoms.incr, 32, size, 1);
    const t: Transfer = { requestor, property, type, data, offset: 0, at: performance.now() };
    this.#transfers.set(`${requestor}:${property}`, t);
    return true;
  }

  /** The requestor deleted a property: the next INCR chunk, or the empty one that ends it. */
  #advance(h: X11Handle, requestor: bigint, property: bigint): boolean {
    const t = this.#transfers.get(`${requestor}:${property}`);
    if (!t) return false;
    const end = Math.min(t.offset + this.#chunk, t.data.length);
    const chunk = t.data.subarray(t.offset, end);
    replaceProperty(h, requestor, property, t.type, 8, chunk, chunk.length);
    if (chunk.length === 0) this.#finish(h, t);
    t.offset = end;
    t.at = performance.now();
    return true;
  }

  /** Drops the transfers to a requestor window that was destroyed. */
  #drop(h: X11Handle, requestor: bigint): void {
    for (const t of this.#transfers.values()) {
      if (t.requestor === requestor) this.#finish(h, t, false);
    }
  }

  /** Ends a transfer; the requestor's events are deselected after its last one. */
  #finish(h: X11Handle, t: Transfer, unwatch = true): void {
    this.#transfers.delete(`${t.requestor}:${t.property}`);
    if (!unwatch) return;
    if ([...this.#transfers.values()].some((other) => other.requestor === t.requestor)) return;
    h.x11.XSelectInput(h.dpy, t.requestor, 0n);
  }

  /** Syncs; a requestor that vanished meanwhile only ends its own request. */
  #settle(h: X11Handle): void {
    try {
      checkX(h.x11, h.dpy, `serve the "${this.selection}" selection`);
    } catch (err) {
      if (isDriverError(err, "window_not_found")) return;
      if (isDriverError(err)) this.onError?.(err);
      else throw err;
    }
  }
}
