/**
 * Typed AT-SPI calls over the accessibility bus. Every call has a deadline; D-Bus failures
 * become the driver's errors here, in one place (code-style: one check helper per library).
 *
 * @module
 */
import {
  DBusClosedError,
  DBusConnection,
  DBusError,
  DBusTimeoutError,
} from "../../platform/dbus/mod.ts";
import { DriverError } from "../../protocol/errors.ts";
import { StateSet } from "./states.ts";

/** An accessible object: the app's bus name and the object's path. */
export interface Ref {
  /** Unique bus name of the app (`:1.42`). */
  bus: string;
  /** Object path. */
  path: string;
}

/** `Ref` ⇄ the handle string the engine hands out. */
export const handleOf = (r: Ref): string => `${r.bus}|${r.path}`;
/** Parses a handle made by {@link handleOf}. */
export function refOf(handle: string): Ref {
  const i = handle.indexOf("|");
  if (i < 0) throw new DriverError("element_not_found", `Not an AT-SPI handle: "${handle}"`);
  return { bus: handle.slice(0, i), path: handle.slice(i + 1) };
}

/** The null reference AT-SPI uses for "no object". */
export const NULL_PATH = "/org/a11y/atspi/null";

const A11Y = "org.a11y.atspi.";
const GONE = new Set([
  "org.freedesktop.DBus.Error.ServiceUnknown",
  "org.freedesktop.DBus.Error.NameHasNoOwner",
  "org.freedesktop.DBus.Error.Disconnected",
  "org.freedesktop.DBus.Error.NoReply",
]);
const NO_OBJECT = new Set([
  "org.freedesktop.DBus.Error.UnknownObject",
  "org.freedesktop.DBus.Error.UnknownMethod",
  "org.freedesktop.DBus.Error.UnknownInterface",
  "org.freedesktop.DBus.Error.InvalidArgs",
]);

/** Maps a failed call to the driver's error; `what` names the call for the message. */
export function toDriverError(err: unknown, what: string, ref: Ref): Error {
  if (err instanceof DriverError) return err;
  if (err instanceof DBusTimeoutError) {
    return new DriverError("timeout", `The app did not answer ${what} in time`, {
      ms: err.ms,
    }, { cause: err });
  }
  if (err instanceof DBusError) {
    if (err.errorName === "org.freedesktop.DBus.Error.NoReply") {
      return new DriverError("timeout", `The app did not answer ${what}`, { ms: 0 }, {
        cause: err,
      });
    }
    if (GONE.has(err.errorName)) {
      return new DriverError("app_not_running", `The app at "${ref.bus}" is gone`, {}, {
        cause: err,
      });
    }
    if (NO_OBJECT.has(err.errorName)) {
      return new DriverError("element_not_found", `Element "${ref.path}" is gone`, {}, {
        cause: err,
      });
    }
  }
  if (err instanceof DBusClosedError) {
    // A peer connection straight to the app closes when the app exits.
    return new DriverError("app_not_running", `The app at "${ref.bus}" is gone`, {}, {
      cause: err,
    });
  }
  if (err instanceof DOMException && err.name === "TimeoutError") {
    return new DriverError("timeout", `The caller's deadline passed during ${what}`, { ms: 0 }, {
      cause: err,
    });
  }
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * The accessibility bus connection closed under a call made through it: the bus (or the
 * session bus it was found on) went away, not the app.
 */
export function busGone(err: DBusClosedError): DriverError {
  return new DriverError(
    "driver_unavailable",
    `The accessibility bus is gone: ${err.message}`,
    { reason: "no_accessibility_bus" },
    { cause: err },
  );
}

/**
 * `.catch` for a call on an object or interface the app may not have: "not found" (a
 * node that went away, or one without that interface, which D-Bus reports alike) is
 * undefined; any other failure is thrown on.
 */
export function absent(err: unknown): undefined {
  if (err instanceof DriverError && err.code === "element_not_found") return undefined;
  throw err;
}

/** `Collection`'s match type "all of these" (`ATSPI_Collection_MATCH_ALL`). */
const MATCH_ALL = 1;
/** `Collection`'s sort order "as the tree has them" (`ATSPI_Collection_SORT_ORDER_CANONICAL`). */
const SORT_CANONICAL = 1;

/**
 * A `Collection` match rule `(aiia{ss}iaiiasib)` for the objects in state `state`: states
 * as a bit set, no attribute, role or interface asked for, not inverted.
 */
function matchState(state: number): unknown[] {
  const words = [0, 0];
  words[state >> 5] = (1 << (state & 31)) | 0;
  return [words, MATCH_ALL, new Map(), MATCH_ALL, [], MATCH_ALL, [], MATCH_ALL, false];
}

/** Per-call limits. */
export interface CallLimits {
  /** Per-call D-Bus timeout. */
  timeoutMs: number;
  /** The request's deadline. */
  signal?: AbortSignal | undefined;
}

/**
 * Typed AT-SPI calls on one accessibility-bus connection. Apps that offer it (GTK 3 and
 * Chromium through atk-bridge: `Application.GetApplicationBusAddress`) are called over a
 * peer connection straight to their socket, as libatspi does, which skips the bus daemon's
 * hop on every call; the others (GTK 4) through the bus.
 */
export class AtspiClient {
  readonly #bus: DBusConnection;
  readonly #direct = new Map<string, Promise<DBusConnection | null>>();
  /** Each app's peer socket address, or `null` when it offers none (asked once per app). */
  readonly #addresses = new Map<string, Promise<string | null>>();
  /** Calls made so far. */
  calls = 0;

  /** Uses `bus`, which the caller owns; peer connections it opens are its own. */
  constructor(bus: DBusConnection) {
    this.#bus = bus;
  }

  /** The peer connection to app `bus`, or `null` to go through the bus. */
  #route(bus: string): Promise<DBusConnection | null> {
    let route = this.#direct.get(bus);
    if (!route) {
      route = this.#openDirect(bus).catch(() => null);
      this.#direct.set(bus, route);
    }
    return route;
  }

  async #openDirect(bus: string): Promise<DBusConnection | null> {
    const peer = await this.#openPeer(bus);
    peer?.onClose(() => {
      this.#direct.delete(bus);
      this.#addresses.delete(bus);
    });
    return peer;
  }

  /** A new peer connection to app `bus`, or `null` when it offers no peer socket. */
  async #openPeer(bus: string): Promise<DBusConnection | null> {
    let address = this.#addresses.get(bus);
    if (!address) {
      address = this.#askAddress(bus).catch(() => null);
      this.#addresses.set(bus, address);
    }
    const at = await address;
    if (at === null) return null;
    return await DBusConnection.connect(at, { peer: true, signal: AbortSignal.timeout(1_000) });
  }

  async #askAddress(bus: string): Promise<string | null> {
    if (!bus.startsWith(":")) return null; // the registry answers only on the bus
    this.calls++;
    const [address] = await this.#bus.call({
      destination: bus,
      path: "/org/a11y/atspi/accessible/root",
      interface: "org.a11y.atspi.Application",
      member: "GetApplicationBusAddress",
    }, { timeoutMs: 1_000 });
    return typeof address === "string" && address !== "" ? address : null;
  }

  /**
   * Opens the way to app `bus` ahead of its first call (as libatspi does when it first
   * sees an app), so that a window's first read does not wait for the peer connection.
   */
  prepare(bus: string): void {
    void this.#route(bus);
  }

  /** Forgets the routes of apps not in `present` (bus names never come back). */
  keep(present: ReadonlySet<string>): void {
    for (const [bus, route] of this.#direct) {
      if (present.has(bus)) continue;
      this.#direct.delete(bus);
      void route.then((peer) => peer?.close());
    }
    for (const bus of this.#addresses.keys()) if (!present.has(bus)) this.#addresses.delete(bus);
  }

  /** Apps called over their own peer socket, by bus name (those already asked). */
  async peers(): Promise<string[]> {
    const out: string[] = [];
    for (const [bus, route] of this.#direct) if (await route) out.push(bus);
    return out;
  }

  /**
   * Calls `iface.member` on `ref` over a peer connection of its own, closed once answered:
   * for calls that run the app's code inside the call (`DoAction`). atk-bridge (GTK 2/3,
   * LibreOffice, Java) answers `DoAction` first and then runs the action inside its
   * handler, and an action that opens a modal dialog (`gtk_dialog_run`) runs the dialog's
   * loop right there. That connection's messages are not dispatched again until the dialog
   * closes: every later call on it timed out (pyatspi's own connection as well), and a key
   * sent next deadlocked the app for good when the call had come through the bus. On a
   * connection used for this one call, the block stays there; the app answers every other
   * connection. Apps with no peer socket (GTK 4, Qt, whose bus code dispatches inside
   * nested loops) are called as usual.
   */
  async callAlone(
    ref: Ref,
    iface: string,
    member: string,
    limits: CallLimits,
    signature?: string,
    body?: unknown[],
  ): Promise<unknown[]> {
    let peer: DBusConnection | null;
    try {
      peer = await this.#openPeer(ref.bus);
    } catch {
      peer = null; // No socket to connect to (the app is leaving): the usual way says so.
    }
    if (peer === null) return await this.call(ref, iface, member, limits, signature, body);
    try {
      return await this.#send(peer, true, ref, iface, member, limits, signature, body);
    } finally {
      peer.close();
    }
  }

  /** Closes the peer connections (the bus connection belongs to the caller). */
  async close(): Promise<void> {
    const peers = await Promise.all(this.#direct.values());
    this.#direct.clear();
    this.#addresses.clear();
    for (const p of peers) p?.close();
  }

  /** Calls `iface.member` on `ref`; errors mapped by {@link toDriverError}. */
  async call(
    ref: Ref,
    iface: string,
    member: string,
    limits: CallLimits,
    signature?: string,
    body?: unknown[],
  ): Promise<unknown[]> {
    // Never rejects: an app with no peer socket is called through the bus.
    const peer = await this.#route(ref.bus);
    return await this.#send(
      peer ?? this.#bus,
      peer !== null,
      ref,
      iface,
      member,
      limits,
      signature,
      body,
    );
  }

  /** Sends one call on `conn` (to the app itself when `direct`, else through the bus). */
  async #send(
    conn: DBusConnection,
    direct: boolean,
    ref: Ref,
    iface: string,
    member: string,
    limits: CallLimits,
    signature?: string,
    body?: unknown[],
  ): Promise<unknown[]> {
    this.calls++;
    try {
      return await conn.call({
        ...(direct ? {} : { destination: ref.bus }),
        path: ref.path,
        interface: iface.includes(".") ? iface : A11Y + iface,
        member,
        ...(signature ? { signature, body: body ?? [] } : {}),
      }, { timeoutMs: limits.timeoutMs, ...(limits.signal ? { signal: limits.signal } : {}) });
    } catch (err) {
      // Through the bus, a closed connection is the bus's loss (the engine connects again).
      if (!direct && err instanceof DBusClosedError) throw busGone(err);
      throw toDriverError(err, `${iface}.${member}`, ref);
    }
  }

  /** A property of an AT-SPI interface. */
  async prop(ref: Ref, iface: string, name: string, limits: CallLimits): Promise<unknown> {
    const [v] = await this.call(
      ref,
      "org.freedesktop.DBus.Properties",
      "Get",
      limits,
      "ss",
      [A11Y + iface, name],
    );
    return (v as { value: unknown }).value;
  }

  /** Children references. */
  async children(ref: Ref, limits: CallLimits): Promise<Ref[]> {
    const [list] = await this.call(ref, "Accessible", "GetChildren", limits);
    return (list as [string, string][]).map(([bus, path]) => ({ bus, path }));
  }

  /**
   * The children of `ref` in state `state`, in order, at most `max` (Collection's
   * `GetMatches`, restricted to children). The app checks each child's state itself: one
   * call where `GetChildren` and a `GetState` per child took one more each.
   */
  async childrenIn(ref: Ref, state: number, max: number, limits: CallLimits): Promise<Ref[]> {
    const [list] = await this.call(
      ref,
      "Collection",
      "GetMatches",
      limits,
      "(aiia{ss}iaiiasib)uib",
      [matchState(state), SORT_CANONICAL, max, false],
    );
    return (list as [string, string][]).map(([bus, path]) => ({ bus, path }));
  }

  /** Process id of the connection that owns `bus` (asked of the bus daemon). */
  async pid(bus: string, limits: CallLimits): Promise<number> {
    this.calls++;
    try {
      const [pid] = await this.#bus.call({
        destination: "org.freedesktop.DBus",
        path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus",
        member: "GetConnectionUnixProcessID",
        signature: "s",
        body: [bus],
      }, { timeoutMs: limits.timeoutMs });
      return Number(pid);
    } catch (err) {
      if (err instanceof DBusClosedError) throw busGone(err);
      throw toDriverError(err, "GetConnectionUnixProcessID", { bus, path: "/" });
    }
  }

  /** The object's states. */
  async states(ref: Ref, limits: CallLimits): Promise<StateSet> {
    const [words] = await this.call(ref, "Accessible", "GetState", limits);
    return new StateSet(words as number[]);
  }

  /** Screen extents `[x, y, w, h]` (coord type 0: screen). */
  async extents(ref: Ref, limits: CallLimits): Promise<[number, number, number, number]> {
    const [box] = await this.call(ref, "Component", "GetExtents", limits, "u", [0]);
    return box as [number, number, number, number];
  }
}
