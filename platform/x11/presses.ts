/**
 * XTEST event plumbing for `input.ts`: {@link Presses} remembers what is held so every
 * path out can release it, and {@link delay} is the abortable pause between event groups.
 *
 * @module
 */
import type { X11, Xtst } from "../../ffi/linux_x11.ts";
import { onClose, sameConnection, type X11Display, x11Handle } from "./display.ts";
import type { Stroke } from "./keymap.ts";

/**
 * XTEST events, remembering what is held so {@link releaseAll} can let it all go, also
 * when the display closes mid-input. Once it is closed, or its connection lost, every call
 * is a no-op: the `Display *` is freed then, and using it would crash the process; and
 * presses meant for a server that died must not reach the one that replaced it.
 */
export class Presses {
  readonly #display: X11Display;
  readonly #x11: X11;
  readonly #xt: Xtst;
  readonly #keys: number[] = [];
  readonly #buttons: number[] = [];
  readonly #forget: () => void;
  readonly #connection: number;

  /** Sends on `display` through libXtst `xt`; {@link dispose} when done. */
  constructor(display: X11Display, xt: Xtst) {
    this.#display = display;
    const h = x11Handle(display);
    this.#x11 = h.x11;
    this.#connection = h.connection;
    this.#xt = xt;
    this.#forget = onClose(display, () => this.releaseAll());
  }

  /** Moves the pointer to screen point (x, y) and flushes. */
  move(x: number, y: number): void {
    // Screen -1: the screen the pointer is on (XTEST's "current screen").
    const dpy = this.#dpy();
    if (dpy) this.#xt.XTestFakeMotionEvent(dpy, -1, Math.round(x), Math.round(y), 0n);
    this.flush();
  }

  /** Presses or releases pointer button `button` (1 left, 2 middle, 3 right, 4-7 wheel). */
  button(button: number, down: boolean): void {
    const dpy = this.#dpy();
    if (dpy) this.#xt.XTestFakeButtonEvent(dpy, button, down ? 1 : 0, 0n);
    track(this.#buttons, button, down);
  }

  /** Presses or releases `keycode`; a second press of a held key is skipped. */
  key(keycode: number, down: boolean): void {
    if (down && this.#keys.includes(keycode)) return;
    const dpy = this.#dpy();
    if (dpy) this.#xt.XTestFakeKeyEvent(dpy, keycode, down ? 1 : 0, 0n);
    track(this.#keys, keycode, down);
  }

  /** Press and release one stroke, Shift around it when needed. */
  tap(stroke: Stroke, shift: number): void {
    if (stroke.shift) this.key(shift, true);
    this.key(stroke.keycode, true);
    this.key(stroke.keycode, false);
    if (stroke.shift) this.key(shift, false);
    this.flush();
  }

  /** Sends buffered requests now (XTEST requests sit in Xlib's buffer until flushed). */
  flush(): void {
    const dpy = this.#dpy();
    if (dpy) this.#x11.XFlush(dpy);
  }

  /** Releases held keys and buttons, last pressed first. */
  releaseAll(): void {
    for (const keycode of this.#keys.toReversed()) this.key(keycode, false);
    for (const button of this.#buttons.toReversed()) this.button(button, false);
    this.flush();
  }

  /** Releases everything and stops watching for the display's close. */
  dispose(): void {
    this.releaseAll();
    this.#forget();
  }

  #dpy(): Deno.PointerObject | undefined {
    return sameConnection(this.#display, this.#connection)?.dpy;
  }
}

function track(held: number[], code: number, down: boolean): void {
  const at = held.indexOf(code);
  if (down && at === -1) held.push(code);
  if (!down && at !== -1) held.splice(at, 1);
}

/** Resolves after `ms`; rejects with the signal's reason as soon as it aborts. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
