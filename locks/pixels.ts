/**
 * The pixel lock: input that lands by screen position (a click standing in for an element
 * action, a batch's pixel step, keys typed into the focused window) runs one at a time,
 * even from ops that own different windows. Screen-wide `pixel_*` ops already exclude all
 * window input; this closes the gap between two window owners, whose pointer moves and
 * presses would otherwise interleave.
 *
 * Taken only inside a window's input lock and released before it, never while waiting for
 * anything else, so it cannot deadlock with the window locks.
 *
 * @module
 */
import { busyError } from "./busy.ts";
import { type Holder, type Waiter, waitInLine } from "./queue.ts";

/** Pixel lock options. */
export interface PixelLockOptions {
  /** How long a section waits before `busy`. */
  timeoutMs: number;
  /** Clock in ms (tests inject one). */
  now?: () => number;
}

/** One section of positional input at a time, first come first served. */
export class PixelLock {
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #line: Waiter[] = [];
  #holder: Holder | undefined;

  /** Makes a free pixel lock. */
  constructor(opts: PixelLockOptions) {
    this.#timeoutMs = opts.timeoutMs;
    this.#now = opts.now ?? (() => performance.now());
  }

  /** The section running now, if any. */
  get holder(): Holder | undefined {
    return this.#holder;
  }

  /**
   * Runs `fn` as the only positional input, for `op` on `window`. Rejects with `busy`
   * after `timeoutMs` of waiting, or with the signal's reason; releases on every path.
   */
  async run<T>(window: string, op: string, fn: () => Promise<T>, signal: AbortSignal): Promise<T> {
    signal.throwIfAborted();
    const who: Holder = { op, window, since: this.#now() };
    if (this.#holder === undefined && this.#line.length === 0) {
      this.#holder = who;
    } else {
      await waitInLine(this.#line, who, {
        timeoutMs: this.#timeoutMs,
        signal,
        onTimeout: () => busyError("input", null, this.#holder, this.#now(), this.#timeoutMs),
      });
    }
    try {
      return await fn();
    } finally {
      this.#holder = undefined;
      const next = this.#line.shift();
      if (next) {
        this.#holder = { op: next.op, window: next.window, since: this.#now() };
        next.grant();
      }
    }
  }
}
