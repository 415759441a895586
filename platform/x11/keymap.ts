/**
 * The server's core keyboard mapping: which keycode (and whether Shift) produces a
 * keysym, and spare keycodes to bind keysyms the layout lacks, the way xdotool does.
 *
 * @module
 */
import { checkStatus, checkX } from "../../ffi/linux_x11.ts";
import { DriverError } from "../../protocol/errors.ts";
import { onClose, sameConnection, type X11Display, type X11Handle, x11Handle } from "./display.ts";
import { pingFocusedApp } from "./ping.ts";

/** How to produce one keysym: a keycode, pressed with or without Shift. */
export interface Stroke {
  /** X keycode. */
  keycode: number;
  /** Hold Shift around the key (the keysym is the keycode's second column). */
  shift: boolean;
}

/**
 * Toolkits (GTK via XKB) reload the keymap lazily, when they translate a key event, not
 * when it is sent; unbinding a scratch keycode before the app read its key turns the typed
 * character into nothing. So the bindings stay until the focused app answers a ping sent
 * after the keys (it has read them then), for at most PING_TIMEOUT_MS: an app that takes
 * longer is hung, and the keyboard is given back anyway.
 */
const PING_TIMEOUT_MS = 2_000;
/**
 * The wait instead of the ping when the focused app takes no pings. A margin, not a
 * guarantee: with 0 ms mousepad lost every bound character; with 100 ms it typed them all
 * in repeated runs on an idle machine.
 */
const RESTORE_GRACE_MS = 100;

/** A snapshot of the core keyboard mapping. */
export class Keymap {
  readonly #min: number;
  readonly #perCode: number;
  readonly #syms: BigUint64Array;

  private constructor(min: number, perCode: number, syms: BigUint64Array) {
    this.#min = min;
    this.#perCode = perCode;
    this.#syms = syms;
  }

  /** Reads the current mapping from the server. */
  static read({ x11, dpy }: X11Handle): Keymap {
    const range = new Int32Array(2);
    x11.XDisplayKeycodes(dpy, range.subarray(0, 1), range.subarray(1, 2));
    const [min, max] = [range[0]!, range[1]!];
    const count = max - min + 1;
    const per = new Int32Array(1);
    const ptr = x11.XGetKeyboardMapping(dpy, min, count, per);
    checkStatus(ptr, "read the keyboard mapping", dpy);
    try {
      const perCode = per[0]!;
      const syms = new BigUint64Array(count * perCode);
      Deno.UnsafePointerView.copyInto(ptr!, syms);
      return new Keymap(min, perCode, syms);
    } finally {
      x11.XFree(ptr);
    }
  }

  /** The keycode producing `keysym` without Shift, else with Shift; undefined when none. */
  lookup(keysym: bigint): Stroke | undefined {
    // Only the first two columns (group 1, levels 1-2): higher ones need AltGr or a group
    // switch that plain XTest presses cannot rely on.
    for (const column of [0, 1]) {
      if (column >= this.#perCode) break;
      for (let i = column; i < this.#syms.length; i += this.#perCode) {
        if (this.#syms[i] === keysym) {
          return { keycode: this.#min + (i - column) / this.#perCode, shift: column === 1 };
        }
      }
    }
    return undefined;
  }

  /** Keycodes with no keysym at all, highest first (the lowest ones are often special). */
  spare(): number[] {
    const out: number[] = [];
    const count = this.#syms.length / this.#perCode;
    for (let k = count - 1; k >= 0; k--) {
      const row = this.#syms.subarray(k * this.#perCode, (k + 1) * this.#perCode);
      if (row.every((s) => s === 0n)) out.push(this.#min + k);
    }
    return out;
  }
}

/**
 * Keysyms temporarily bound to spare keycodes; {@link restore} unbinds them, and so does
 * closing the display first if it comes sooner.
 */
export class ScratchKeys {
  readonly #display: X11Display;
  readonly #free: number[];
  readonly #bound = new Map<bigint, number>();
  #forget: (() => void) | undefined;
  /** The connection the keycodes were bound on: the only server they are bound on. */
  #connection: number | undefined;

  /** Uses the spare keycodes of `keymap` on `display`. */
  constructor(display: X11Display, keymap: Keymap) {
    this.#display = display;
    this.#free = keymap.spare();
  }

  /** Whether the keycodes can still be unbound: their connection is open and alive. */
  get #reachable(): boolean {
    return this.#connection === undefined ||
      sameConnection(this.#display, this.#connection) !== undefined;
  }

  /** How many distinct keysyms can be bound at once. */
  get capacity(): number {
    return this.#free.length + this.#bound.size;
  }

  /** Binds each keysym (both Shift levels) to its own spare keycode and syncs. */
  bind(keysyms: Iterable<bigint>): void {
    const { x11, dpy, connection } = x11Handle(this.#display);
    if (this.#connection !== undefined && this.#connection !== connection) {
      throw new DriverError("driver_unavailable", "Cannot type: the X server was replaced", {
        reason: "x_display_gone",
        display: this.#display.name,
      });
    }
    this.#connection = connection;
    this.#forget ??= onClose(this.#display, () => this.#unbind());
    for (const sym of keysyms) {
      if (this.#bound.has(sym)) continue;
      const keycode = this.#free.shift();
      if (keycode === undefined) {
        throw new DriverError(
          "action_not_supported",
          "Cannot type: no spare keycode left to bind a character the keyboard layout lacks",
          { reason: "no_spare_keycode" },
        );
      }
      this.#bound.set(sym, keycode);
      x11.XChangeKeyboardMapping(dpy, keycode, 2, new BigUint64Array([sym, sym]), 1);
    }
    checkX(x11, dpy, "bind a keysym to a spare keycode");
  }

  /** The stroke for a bound keysym. */
  stroke(keysym: bigint): Stroke | undefined {
    const keycode = this.#bound.get(keysym);
    return keycode === undefined ? undefined : { keycode, shift: false };
  }

  /**
   * Waits until the focused app has read the keys sent so far (see PING_TIMEOUT_MS), then
   * unbinds everything. Never aborted. Nothing left to do when the display closed meanwhile
   * (closing unbound them) or its server went (the bindings went with it).
   */
  async restore(): Promise<void> {
    if (this.#bound.size === 0) return;
    if (!this.#reachable) return this.#bound.clear();
    const ping = this.#display.closed
      ? "no_client"
      // A server that cannot take a second connection proves nothing either way.
      : await pingFocusedApp(this.#display, PING_TIMEOUT_MS).catch(() => "no_client" as const);
    // A window that went before answering may have gone for another reason than our keys.
    if (ping === "no_client" || ping === "gone") {
      await new Promise((resolve) => setTimeout(resolve, RESTORE_GRACE_MS));
    }
    if (this.#display.closed || !this.#reachable) return this.#bound.clear();
    this.#forget?.();
    this.#forget = undefined;
    this.#unbind();
    const { x11, dpy } = x11Handle(this.#display);
    checkX(x11, dpy, "restore the keyboard mapping");
  }

  #unbind(): void {
    const { x11, dpy } = x11Handle(this.#display);
    for (const keycode of this.#bound.values()) {
      x11.XChangeKeyboardMapping(dpy, keycode, 1, new BigUint64Array([0n]), 1);
      this.#free.unshift(keycode);
    }
    this.#bound.clear();
  }
}
