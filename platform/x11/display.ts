/**
 * {@link X11Display}: one connection to an X server, owned by the driver.
 *
 * The `Display *` stays in a private field. Sibling modules (input, capture) reach it
 * through {@link x11Handle}, which `mod.ts` does not re-export.
 *
 * @module
 */
import {
  checkStatus,
  checkX,
  cString,
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
}

// Backstop only: a display dropped without close() still gets its connection closed.
const leaked = new FinalizationRegistry<{ x11: X11; dpy: Deno.PointerObject }>((held) => {
  releaseErrorTrap(held.x11, held.dpy);
  held.x11.XCloseDisplay(held.dpy);
});

let handleOf: (display: X11Display) => X11Handle;
let xtestOf: (display: X11Display) => Xtst;
let closersOf: (display: X11Display) => Set<() => void>;

/** A connection to an X server (the `DISPLAY` one unless named). */
export class X11Display {
  #x11: X11;
  #dpy: Deno.PointerObject | null;
  #root: bigint;
  #screen: number;
  #xtst: Xtst | undefined;
  readonly #closers = new Set<() => void>();
  /** The display name it was opened with (`":77"`). */
  readonly name: string;

  static {
    handleOf = (d) => d.#handle();
    xtestOf = (d) => d.#xtest();
    closersOf = (d) => d.#closers;
  }

  private constructor(x11: X11, dpy: Deno.PointerObject, name: string) {
    this.#x11 = x11;
    this.#dpy = dpy;
    this.name = name;
    this.#root = x11.XDefaultRootWindow(dpy);
    this.#screen = x11.XDefaultScreen(dpy);
    retainErrorTrap(x11);
    leaked.register(this, { x11, dpy }, this);
  }

  /**
   * Opens `name` (default: `$DISPLAY`). Throws `driver_unavailable` with reason
   * `no_display` when it is unset or the server does not answer, `no_libx11` without libX11.
   */
  static open(name: string | undefined = Deno.env.get("DISPLAY")): X11Display {
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
    return new X11Display(x11, dpy, name);
  }

  /** True once {@link close} ran. */
  get closed(): boolean {
    return this.#dpy === null;
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
    checkStatus(ok, "query the pointer");
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
    const dpy = this.#dpy;
    if (dpy === null) return;
    for (const closer of [...this.#closers]) closer();
    this.#closers.clear();
    this.#dpy = null;
    leaked.unregister(this);
    releaseErrorTrap(this.#x11, dpy);
    this.#x11.XCloseDisplay(dpy);
  }

  /** Same as {@link close}, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }

  #handle(): X11Handle {
    if (this.#dpy === null) {
      throw new DriverError("driver_unavailable", `X display "${this.name}" is closed`, {
        reason: "closed",
      });
    }
    return { x11: this.#x11, dpy: this.#dpy, root: this.#root, screen: this.#screen };
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

/** Internal: runs `fn` while the display is still open when it closes; returns the undo. */
export function onClose(display: X11Display, fn: () => void): () => void {
  const closers = closersOf(display);
  closers.add(fn);
  return () => closers.delete(fn);
}

/** Internal: libXtst, loaded and checked against the server once per display. */
export function xtestFor(display: X11Display): Xtst {
  return xtestOf(display);
}
