/**
 * One tree walk of a window at a time. A reader that had to wait may reuse the newest
 * successful walk of that window instead of walking again, if it finished recently
 * enough: the tree it would read is practically the one just read.
 *
 * @module
 */
import { busyError } from "./busy.ts";
import { type Holder, type Waiter, waitInLine } from "./queue.ts";

/** Walk lock options. */
export interface WalkLocksOptions {
  /** How long a walk waits for the window before `busy`. */
  timeoutMs: number;
  /** A waiter reuses a walk that finished at most this long ago. */
  walkReuseMs: number;
  /** Clock in ms (tests inject one). */
  now?: () => number;
}

/** A walk's result: fresh, or another reader's reused. */
export interface WalkResult<T> {
  /** What the walk returned. */
  value: T;
  /** True when another reader's walk was reused and `fn` did not run. */
  reused: boolean;
}

interface WindowState {
  holder: Holder | undefined;
  line: Waiter[];
  last: { value: unknown; finishedAt: number } | undefined;
}

/** Per-window walk locks. */
export class WalkLocks {
  readonly #timeoutMs: number;
  readonly #reuseMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, WindowState>();

  /** Makes walk locks; nothing is held. */
  constructor(opts: WalkLocksOptions) {
    this.#timeoutMs = opts.timeoutMs;
    this.#reuseMs = opts.walkReuseMs;
    this.#now = opts.now ?? (() => performance.now());
  }

  /** Windows with a walk running. */
  get held(): number {
    let n = 0;
    for (const s of this.#windows.values()) if (s.holder !== undefined) n++;
    return n;
  }

  /**
   * Runs `fn`, the walk of `window`, when no other walk of it runs. A caller that waited
   * gets the newest successful walk instead when it finished within `walkReuseMs`.
   * Rejects with `busy` after `timeoutMs` of waiting, or with the signal's reason.
   */
  async walk<T>(
    window: string,
    op: string,
    fn: () => Promise<T>,
    signal: AbortSignal,
  ): Promise<WalkResult<T>> {
    signal.throwIfAborted();
    this.#sweep();
    let state = this.#windows.get(window);
    if (state === undefined) {
      this.#windows.set(window, state = { holder: undefined, line: [], last: undefined });
    }
    const s = state;
    const waited = s.holder !== undefined || s.line.length > 0;
    if (waited) {
      await waitInLine(s.line, { op, window, since: this.#now() }, {
        timeoutMs: this.#timeoutMs,
        signal,
        onTimeout: () => busyError("walk", window, s.holder, this.#now(), this.#timeoutMs),
      });
    } else {
      s.holder = { op, window, since: this.#now() };
    }
    try {
      if (waited && s.last !== undefined && this.#now() - s.last.finishedAt <= this.#reuseMs) {
        // Walks of one window all produce its tree, so the stored value has the caller's type.
        return { value: s.last.value as T, reused: true };
      }
      const value = await fn();
      s.last = { value, finishedAt: this.#now() };
      return { value, reused: false };
    } finally {
      this.#release(window, s);
    }
  }

  #release(window: string, s: WindowState): void {
    const next = s.line.shift();
    if (next === undefined) {
      s.holder = undefined;
      return;
    }
    // Handing over directly keeps the line first-come, first-served: nobody can barge in.
    s.holder = { op: next.op, window, since: this.#now() };
    next.grant();
  }

  // Idle windows are forgotten once their last walk is too old to reuse.
  #sweep(): void {
    const now = this.#now();
    for (const [window, s] of this.#windows) {
      const idle = s.holder === undefined && s.line.length === 0;
      if (idle && (s.last === undefined || now - s.last.finishedAt > this.#reuseMs)) {
        this.#windows.delete(window);
      }
    }
  }
}
