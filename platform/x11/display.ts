/**
 * {@link X11Display}: one connection to an X server, owned by the driver.
 *
 * The `Display *` stays in a private field. Sibling modules (input, capture) reach it
 * through {@link x11Handle}, which `mod.ts` does not re-export.
 *
 * When the X server dies the connection is lost, not the process (`ffi/linux_x11.ts`):
 * the next use of the display retires the dead `Display *` (closed, never used again) and,
 * unless it was opened with `reconnect: false`, opens the display's name again. While no
 * server answers there, every use throws `driver_unavailable` (reason `x_display_gone`).
 * What belonged to the old connection (held keys, selected events, owned selections) is
 * gone with its server: its `onClose` hooks are dropped unrun, and holders of such state
 * compare {@link X11Handle.connection} to tell.
 *
 * @module
 */
import {
  checkConnection,
  checkStatus,
  checkX,
  connectionLost,
  cString,
  displayGone,
  loadX11,
  loadXtst,
  releaseErrorTrap,
  retainErrorTrap,
  type X11,
  type Xtst,
} from "../../ffi/linux_x11.ts";
import { DriverError } from "../../protocol/errors.ts";

/** What sibling modules need to talk to the server. Internal: not re-exported. */
export interface X11Handle {
  /** libX11 functions. */
  readonly x11: X11;
  /** The open `Display *`. */
  readonly dpy: Deno.PointerObject;
  /** The default screen's root window. */
  readonly root: bigint;
  /** The default screen number. */
  readonly screen: number;
  /**
   * Which connection of the display this is (1 for the first, 2 after one reconnect...):
   * state kept on the server for one connection is gone on the next.
   */
  readonly connection: number;
}

/** How {@link X11Display.open} behaves when the server goes. */
export interface OpenOptions {
  /**
   * Open the display again on the first use after its server was lost (default true).
   * False for connections whose whole point is state on that one server (selections,
   * event selections): once lost they stay lost.
   */
  reconnect?: boolean;
}

/** Closes `dpy`, then drops its error trap (closing a lost display still calls the trap). */
function closeConnection(x11: X11, dpy: Deno.PointerObject): void {
  x11.XCloseDisplay(dpy);
  releaseErrorTrap(x11, dpy);
}

// Backstop only: a display dropped without close() still gets its connection closed.
const leaked = new FinalizationRegistry<{ x11: X11; dpy: Deno.PointerObject }>((held) => {
  closeConnection(held.x11, held.dpy);
});

let handleOf: (display: X11Display) => X11Handle;
let xtestOf: (display: X11Display) => Xtst;
let closersOf: (display: X11Display) => Set<() => void>;
let currentOf: (display: X11Display) => X11Handle | undefined;

/** A connection to an X server (the `DISPLAY` one unless named). */
export class X11Display {
  #x11: X11;
  #dpy: Deno.PointerObject | null;
  #root: bigint;
  #screen: number;
  #xtst: Xtst | undefined;
  #closed = false;
  #connection = 1;
  readonly #reconnect: boolean;
  readonly #closers = new Set<() => void>();
  /** The display name it was opened with (`":77"`). */
  readonly name: string;

  static {
    handleOf = (d) => d.#handle();
    xtestOf = (d) => d.#xtest();
    closersOf = (d) => d.#closers;
    currentOf = (d) => d.#current();
  }

  private constructor(x11: X11, dpy: Deno.PointerObject, name: string, reconnect: boolean) {
    this.#x11 = x11;
    this.#dpy = dpy;
    this.name = name;
    this.#reconnect = reconnect;
    this.#root = x11.XDefaultRootWindow(dpy);
    this.#screen = x11.XDefaultScreen(dpy);
    retainErrorTrap(x11, dpy, name);
    leaked.register(this, { x11, dpy }, this);
  }

  /**
   * Opens `name` (default: `$DISPLAY`). Throws `driver_unavailable` with reason
   * `no_display` when it is unset or the server does not answer, `no_libx11` without libX11.
   */
  static open(
    name: string | undefined = Deno.env.get("DISPLAY"),
    options: OpenOptions = {},
  ): X11Display {
    if (!name) {
      throw new DriverError("driver_unavailable", "Cannot open X display: DISPLAY is not set", {
        reason: "no_display",
      });
    }
    const x11 = loadX11();
    const dpy = x11.XOpenDisplay(cString(name));
    if (dpy === null) {
      throw new DriverError(
        "driver_unavailable",
        `Cannot open X display "${name}": no X server answered there`,
        { reason: "no_display", display: name },
      );
    }
    return new X11Display(x11, dpy, name, options.reconnect ?? true);
  }

  /** True once {@link close} ran. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * True while the connection is lost: its server went, and no new connection was made
   * since (one is tried on the next use, unless opened with `reconnect: false`).
   */
  get lost(): boolean {
    if (this.#closed) return false;
    return this.#dpy === null || connectionLost(this.#dpy);
  }

  /** The root window's id (the whole screen). */
  get rootWindow(): number {
    return Number(this.#root);
  }

  /** Size of the default screen in pixels (= points on X). */
  screenSize(): { width: number; height: number } {
    const { x11, dpy, screen } = this.#handle();
    return { width: x11.XDisplayWidth(dpy, screen), height: x11.XDisplayHeight(dpy, screen) };
  }

  /** Where the pointer is now, in screen points, and the buttons and modifiers held (`mask`). */
  pointerPosition(): { x: number; y: number; mask: number } {
    const { x11, dpy, root } = this.#handle();
    const win = new BigUint64Array(2);
    const ints = new Int32Array(5);
    const ok = x11.XQueryPointer(
      dpy,
      root,
      win.subarray(0, 1),
      win.subarray(1, 2),
      ints.subarray(0, 1),
      ints.subarray(1, 2),
      ints.subarray(2, 3),
      ints.subarray(3, 4),
      ints.subarray(4, 5),
    );
    checkStatus(ok, "query the pointer", dpy);
    return { x: ints[0]!, y: ints[1]!, mask: ints[4]! };
  }

  /** Waits until the server processed everything sent; throws recorded X errors. */
  sync(what = "talk to the X server"): void {
    const { x11, dpy } = this.#handle();
    checkX(x11, dpy, what);
  }

  /**
   * Closes the connection. Idempotent. Input still in flight first releases what it holds:
   * the server keeps XTEST presses down after their client disconnects.
   */
  close(): void {
    if (this.#closed) return;
    const dpy = this.#dpy;
    if (dpy === null || connectionLost(dpy)) {
      this.#closed = true;
      if (dpy !== null) this.#retire(dpy);
      return;
    }
    // Still open while they run: they undo things on this connection.
    for (const closer of [...this.#closers]) closer();
    this.#closers.clear();
    this.#closed = true;
    this.#dpy = null;
    leaked.unregister(this);
    closeConnection(this.#x11, dpy);
  }

  /** Same as {@link close}, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }

  #handle(): X11Handle {
    if (this.#closed) {
      throw new DriverError("driver_unavailable", `X display "${this.name}" is closed`, {
        reason: "closed",
      });
    }
    if (this.#dpy !== null && this.#died(this.#dpy)) this.#retire(this.#dpy);
    if (this.#dpy === null) this.#reopen();
    return {
      x11: this.#x11,
      dpy: this.#dpy!,
      root: this.#root,
      screen: this.#screen,
      connection: this.#connection,
    };
  }

  /**
   * Whether the connection is known lost, or is found so now: `XPending` reads what the
   * socket holds without waiting or a round trip, and a server that went since the last
   * use shows as end of file there. Without this, the first use after a server came back
   * would fail on the old connection (a display idle while the server was away).
   */
  #died(dpy: Deno.PointerObject): boolean {
    if (connectionLost(dpy)) return true;
    this.#x11.XPending(dpy);
    return connectionLost(dpy);
  }

  /** The handle of the connection open now, if it is alive; never reconnects. */
  #current(): X11Handle | undefined {
    if (this.#closed || this.#dpy === null || connectionLost(this.#dpy)) return undefined;
    return {
      x11: this.#x11,
      dpy: this.#dpy,
      root: this.#root,
      screen: this.#screen,
      connection: this.#connection,
    };
  }

  /**
   * Lets go of a lost connection: what was kept for it is dropped unrun (a dead
   * `Display *` must not be used), and it is closed. libX11 1.8 makes that safe: every
   * request on a failed display returns at once, and the trap's handlers just return.
   * Closing rather than leaking it gives back its socket and memory, once per loss.
   */
  #retire(dpy: Deno.PointerObject): void {
    this.#closers.clear();
    this.#xtst = undefined;
    this.#dpy = null;
    leaked.unregister(this);
    closeConnection(this.#x11, dpy);
  }

  /** A new connection to the same name after a loss; `x_display_gone` while none answers. */
  #reopen(): void {
    const what = "talk to the X server";
    if (!this.#reconnect) throw displayGone(this.name, what);
    const dpy = this.#x11.XOpenDisplay(cString(this.name));
    if (dpy === null) throw displayGone(this.name, what, "no X server answers there now");
    this.#dpy = dpy;
    this.#connection++;
    this.#root = this.#x11.XDefaultRootWindow(dpy);
    this.#screen = this.#x11.XDefaultScreen(dpy);
    retainErrorTrap(this.#x11, dpy, this.name);
    leaked.register(this, { x11: this.#x11, dpy }, this);
  }

  #xtest(): Xtst {
    if (this.#xtst) return this.#xtst;
    const { dpy } = this.#handle();
    const xtst = loadXtst();
    const out = new Int32Array(4);
    const has = xtst.XTestQueryExtension(
      dpy,
      out.subarray(0, 1),
      out.subarray(1, 2),
      out.subarray(2, 3),
      out.subarray(3, 4),
    );
    if (!has) {
      // A connection that died during the query answers "no" to everything.
      checkConnection(dpy, `send input on X display "${this.name}"`);
      throw new DriverError(
        "driver_unavailable",
        `Cannot send input on X display "${this.name}": the server lacks the XTEST extension`,
        { reason: "no_xtest" },
      );
    }
    this.#xtst = xtst;
    return xtst;
  }
}

/** Internal: the raw handle of an open display (throws when closed). */
export function x11Handle(display: X11Display): X11Handle {
  return handleOf(display);
}

/**
 * Internal: the raw handle of connection number `connection` of the display, while that
 * one is open and alive; undefined once it was closed, lost or replaced. For state that
 * lives on one connection only (held keys, bound keycodes): it must never reach another.
 */
export function sameConnection(display: X11Display, connection: number): X11Handle | undefined {
  const h = currentOf(display);
  return h?.connection === connection ? h : undefined;
}

/**
 * Internal: runs `fn` while the display is still open when it closes; returns the undo.
 * A lost connection drops `fn` unrun: the server it would undo something on is gone.
 */
export function onClose(display: X11Display, fn: () => void): () => void {
  const closers = closersOf(display);
  closers.add(fn);
  return () => closers.delete(fn);
}

/** Internal: libXtst, loaded and checked against the server once per display. */
export function xtestFor(display: X11Display): Xtst {
  return xtestOf(display);
}
