/**
 * Input ownership: one owner per window, windows side by side, and screen-wide pixel input
 * (window null) excluding all window input, because it lands wherever the pointer or focus
 * happens to be.
 *
 * One line serves every request, first come first served, but a request only waits for
 * requests it conflicts with: input to w2 passes a request for w1 waiting on w1, while a
 * window request arriving after a waiting screen request queues behind it (otherwise a
 * steady stream of window input would starve the screen).
 *
 * @module
 */
import { busyError } from "./busy.ts";
import { type Holder, type Waiter, waitInLine } from "./queue.ts";

/** Input lock options. */
export interface InputLocksOptions {
  /** How long input waits before `busy`. */
  timeoutMs: number;
  /** Clock in ms (tests inject one). */
  now?: () => number;
}

type Claim = Pick<Holder, "window">;

// Two claims conflict when either is screen-wide or both name the same window.
function conflicts(a: Claim, b: Claim): boolean {
  return a.window === null || b.window === null || a.window === b.window;
}

/** Input locks for every window and the screen. */
export class InputLocks {
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, Holder>();
  #screen: Holder | undefined;
  readonly #line: Waiter[] = [];

  /** Makes input locks; nothing is held. */
  constructor(opts: InputLocksOptions) {
    this.#timeoutMs = opts.timeoutMs;
    this.#now = opts.now ?? (() => performance.now());
  }

  /** Windows whose input is owned right now. */
  get windows(): number {
    return this.#windows.size;
  }

  /** Screen-wide input runs. */
  get screen(): boolean {
    return this.#screen !== undefined;
  }

  /**
   * Runs `fn` as the input owner of `window` (null: screen-wide). Rejects with `busy`
   * after `timeoutMs` of waiting, or with the signal's reason; releases on every path.
   */
  async input<T>(
    window: string | null,
    op: string,
    fn: () => Promise<T>,
    signal: AbortSignal,
  ): Promise<T> {
    signal.throwIfAborted();
    const who: Holder = { op, window, since: this.#now() };
    if (this.#free(who) && !this.#line.some((w) => conflicts(w, who))) {
      this.#take(who);
    } else {
      await waitInLine(this.#line, who, {
        timeoutMs: this.#timeoutMs,
        signal,
        onTimeout: (self) => this.#busy(self),
        // A request leaving may have been all that held back the ones behind it.
        onLeave: () => this.#pump(),
      });
    }
    try {
      return await fn();
    } finally {
      if (window === null) this.#screen = undefined;
      else this.#windows.delete(window);
      this.#pump();
    }
  }

  #free(c: Claim): boolean {
    if (this.#screen !== undefined) return false;
    return c.window === null ? this.#windows.size === 0 : !this.#windows.has(c.window);
  }

  #take(h: Holder): void {
    const holder = { op: h.op, window: h.window, since: this.#now() };
    if (h.window === null) this.#screen = holder;
    else this.#windows.set(h.window, holder);
  }

  // Grants, in line order, every waiter that conflicts with no holder and no earlier waiter.
  #pump(): void {
    const ahead: Waiter[] = [];
    for (const w of [...this.#line]) {
      if (!this.#free(w) || ahead.some((a) => conflicts(a, w))) {
        ahead.push(w);
        continue;
      }
      this.#line.splice(this.#line.indexOf(w), 1);
      this.#take(w);
      w.grant();
    }
  }

  // Names the holder in the way; failing that, the request ahead in line that is.
  #busy(self: Waiter): ReturnType<typeof busyError> {
    const now = this.#now();
    let holder = this.#screen;
    if (holder === undefined && self.window !== null) holder = this.#windows.get(self.window);
    if (holder === undefined && self.window === null) {
      // The longest-running window owner is the likeliest culprit.
      holder = [...this.#windows.values()].sort((a, b) => a.since - b.since)[0];
    }
    if (holder !== undefined) return busyError("input", self.window, holder, now, this.#timeoutMs);
    const ahead = this.#line.slice(0, this.#line.indexOf(self)).find((w) => conflicts(w, self));
    return busyError("input", self.window, ahead, now, this.#timeoutMs, true);
  }
}
