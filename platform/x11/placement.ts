/**
 * Where watched client windows are on screen, as X says, and when that changes.
 *
 * A window manager moves, resizes and reparents client windows into its frames, and the
 * apps often announce none of it over accessibility: a cached map would keep every bound
 * from before. X tells: StructureNotify on the client gives its ConfigureNotify (real, or
 * the synthetic one ICCCM makes the window manager send when it moves the frame) and its
 * ReparentNotify; StructureNotify on the frame gives the frame's own moves and resizes.
 * Only watched windows are selected, so the rest of the desktop costs nothing.
 *
 * Everything runs on a connection of its own (as `ping.ts` does): its event queue holds
 * only these events, and errors about windows that vanished stay on it. Events are read
 * without waiting ({@link PlacementWatch.changed}: `XPending` never blocks), and a window
 * counts as changed only when its place did: a raise or a restack sends ConfigureNotify
 * too, and must not cost a read.
 *
 * When the X server is lost its windows and selections go with it: the connection opens
 * again on the next use once a server answers, and everything watched is forgotten then
 * (its windows were the old server's).
 *
 * @module
 */
import { checkX } from "../../ffi/linux_x11.ts";
import { X11Display, type X11Handle, x11Handle } from "./display.ts";
import { geometry, queryTree, screenOrigin } from "./window_props.ts";
import { clientWindowOf } from "./client_window.ts";

const STRUCTURE_NOTIFY_MASK = 1n << 17n;
const NO_EVENTS = 0n;
const DESTROY_NOTIFY = 17;
/** sizeof(XEvent) on x86_64. */
const XEVENT_SIZE = 192;
/**
 * `window` of the StructureNotify events (XConfigureEvent, XReparentEvent, XMapEvent,
 * XDestroyWindowEvent ...) on x86_64: after type, serial, send_event, display, event.
 */
const EVENT_WINDOW_OFF = 40;

/** A client's place: its own screen rectangle and its top-level ancestor's (the frame). */
interface Place {
  /** The child of the root that holds the client (the frame; the client itself bare). */
  top: bigint;
  /** Both rectangles, as one comparable string. */
  key: string;
}

/** Watched client windows of one X display, with the place each was last seen at. */
export class PlacementWatch {
  readonly #conn: X11Display;
  readonly #places = new Map<bigint, Place>();
  /** Frame → the client it holds, for the frames' own events. */
  readonly #clientOfTop = new Map<bigint, bigint>();
  readonly #event = new Uint8Array(XEVENT_SIZE);
  /** The connection the watched windows were selected on. */
  #connection: number | undefined;

  private constructor(conn: X11Display) {
    this.#conn = conn;
  }

  /** The handle; on a new connection (the server was replaced) nothing is watched. */
  #handle(): X11Handle {
    const h = x11Handle(this.#conn);
    if (this.#connection !== h.connection) {
      this.#connection = h.connection;
      this.#places.clear();
      this.#clientOfTop.clear();
    }
    return h;
  }

  /** Opens a connection of its own to display `name` (throws `driver_unavailable`). */
  static open(name: string): PlacementWatch {
    return new PlacementWatch(X11Display.open(name));
  }

  /**
   * The client window of process `pid` titled `title` (see `client_window.ts`), looked up
   * on this connection so that errors about windows vanishing meanwhile stay here.
   */
  clientOf(pid: number, title: string): number | undefined {
    const h = this.#handle();
    try {
      return clientWindowOf(this.#conn, pid, title);
    } finally {
      settle(h);
    }
  }

  /** How many client windows are watched now. */
  get size(): number {
    if (this.#conn.lost) this.#forgetLost();
    return this.#places.size;
  }

  /** The client windows watched now. */
  get watched(): number[] {
    if (this.#conn.lost) this.#forgetLost();
    return [...this.#places.keys()].map(Number);
  }

  /**
   * Starts watching client window `xid` (a no-op when watched). Its place now is the
   * baseline: any change from here on is reported. False when the window is gone.
   */
  add(xid: number): boolean {
    const client = BigInt(xid);
    const h = this.#handle();
    if (this.#places.has(client)) return true;
    // Selected before the place is read: a change in between is reported, not lost.
    h.x11.XSelectInput(h.dpy, client, STRUCTURE_NOTIFY_MASK);
    const place = placeOf(h, client);
    if (!place) {
      h.x11.XSelectInput(h.dpy, client, NO_EVENTS);
      settle(h);
      return false;
    }
    this.#places.set(client, place);
    this.#selectTop(h, client, place.top);
    settle(h);
    return true;
  }

  /** Stops watching client window `xid`. */
  remove(xid: number): void {
    const client = BigInt(xid);
    const place = this.#places.get(client);
    if (!place || this.#conn.lost) return;
    const h = this.#handle();
    this.#places.delete(client);
    this.#unselectTop(h, place.top, client);
    h.x11.XSelectInput(h.dpy, client, NO_EVENTS);
    settle(h);
  }

  /**
   * Reads the events that have come, never waiting for one, and answers the watched
   * clients whose place (or their frame's) differs from when last seen. With `sync`, first
   * waits for the server to hand over every event it made before now (one round trip):
   * a caller about to trust a cached map sees every move X has already made.
   */
  changed(sync = false): number[] {
    if (this.#conn.lost) this.#forgetLost();
    if (this.#places.size === 0) return [];
    const h = this.#handle();
    if (this.#places.size === 0) return []; // a new server: nothing of it watched yet
    if (sync) h.x11.XSync(h.dpy, 0);
    const touched = new Set<bigint>();
    const view = new DataView(this.#event.buffer);
    while (h.x11.XPending(h.dpy) > 0) {
      h.x11.XNextEvent(h.dpy, this.#event);
      const win = view.getBigUint64(EVENT_WINDOW_OFF, true);
      const client = this.#places.has(win) ? win : this.#clientOfTop.get(win);
      if (client === undefined) continue;
      if (view.getInt32(0, true) === DESTROY_NOTIFY && win === client) {
        // Gone: the app's own notifications say so; nothing to select any more.
        this.#unselectTop(h, this.#places.get(client)!.top, client);
        this.#places.delete(client);
        touched.delete(client);
        continue;
      }
      touched.add(client);
    }
    const out: number[] = [];
    for (const client of touched) {
      const was = this.#places.get(client)!;
      const now = placeOf(h, client);
      if (!now) continue; // Vanishing: its DestroyNotify comes next.
      if (now.top !== was.top) {
        // Reparented (into a frame, or out of one): follow the new frame.
        this.#unselectTop(h, was.top, client);
        this.#selectTop(h, client, now.top);
      }
      this.#places.set(client, now);
      if (now.key !== was.key) out.push(Number(client));
    }
    settle(h);
    return out;
  }

  /** Closes the connection (the server drops its selections with it); idempotent. */
  close(): void {
    this.#places.clear();
    this.#clientOfTop.clear();
    this.#conn.close();
  }

  /** The server went: so did every window watched on it. */
  #forgetLost(): void {
    this.#places.clear();
    this.#clientOfTop.clear();
  }

  #selectTop(h: X11Handle, client: bigint, top: bigint): void {
    if (top === client) return;
    this.#clientOfTop.set(top, client);
    h.x11.XSelectInput(h.dpy, top, STRUCTURE_NOTIFY_MASK);
  }

  #unselectTop(h: X11Handle, top: bigint, client: bigint): void {
    if (top === client || this.#clientOfTop.get(top) !== client) return;
    this.#clientOfTop.delete(top);
    h.x11.XSelectInput(h.dpy, top, NO_EVENTS);
  }
}

/** Syncs and drops the errors about windows that vanished meanwhile (BadWindow). */
function settle(h: X11Handle): void {
  try {
    checkX(h.x11, h.dpy, "watch window placement");
  } catch { /* a watched window vanished: its DestroyNotify says so */ }
}

/** Where `client` and its frame are now; undefined when it is gone. */
function placeOf(h: X11Handle, client: bigint): Place | undefined {
  let top = client;
  for (let depth = 0; depth < 8; depth++) {
    const links = queryTree(h, top);
    if (!links) return undefined;
    if (links.parent === h.root || links.parent === 0n) break;
    top = links.parent;
  }
  const own = rectOf(h, client, true);
  const frame = top === client ? own : rectOf(h, top, false);
  if (!own || !frame) return undefined;
  return { top, key: `${own.join(",")} ${frame.join(",")}` };
}

/** `[x, y, w, h]` of `win` on screen (`absolute`) or in its parent (a child of the root). */
function rectOf(h: X11Handle, win: bigint, absolute: boolean): number[] | undefined {
  const inParent = geometry(h, win);
  if (!inParent) return undefined;
  if (!absolute) return [inParent.x, inParent.y, inParent.w, inParent.h];
  const at = screenOrigin(h, win);
  return at ? [at.x, at.y, inParent.w, inParent.h] : undefined;
}
