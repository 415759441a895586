/**
 * The per-window locks a request takes: one tree walk of a window at a time (with reuse
 * of a walk that just finished), and one input owner per window, screen-wide input
 * excluding all window input. Walks and input don't exclude each other: reading a tree
 * while a key goes in is what a watcher does anyway.
 *
 * @module
 */
import { InputLocks } from "./inputs.ts";
import { PixelLock } from "./pixels.ts";
import { WalkLocks, type WalkResult } from "./walks.ts";

/** Lock options. */
export interface WindowLocksOptions {
  /** How long a request waits for a lock before `busy` (config `lock_timeout_ms`). */
  timeoutMs: number;
  /** A waiting reader reuses a walk that finished this recently (config `walk_reuse_ms`). */
  walkReuseMs: number;
  /** Clock in ms (tests inject one; default `performance.now`). */
  now?: () => number;
}

/** What is held right now. */
export interface HeldLocks {
  /** Windows with a walk running. */
  walks: number;
  /** Windows with an input owner. */
  inputs: number;
  /** Screen-wide input runs. */
  screen: boolean;
}

/** Walk and input locks for all windows. */
export class WindowLocks {
  readonly #walks: WalkLocks;
  readonly #inputs: InputLocks;
  readonly #pixels: PixelLock;

  /** Makes locks; nothing is held. */
  constructor(opts: WindowLocksOptions) {
    const now = opts.now ?? (() => performance.now());
    this.#walks = new WalkLocks({ timeoutMs: opts.timeoutMs, walkReuseMs: opts.walkReuseMs, now });
    this.#inputs = new InputLocks({ timeoutMs: opts.timeoutMs, now });
    this.#pixels = new PixelLock({ timeoutMs: opts.timeoutMs, now });
  }

  /** Runs `fn`, a walk of `window`, alone; a reader that waited may reuse a fresh walk. */
  walk<T>(
    window: string,
    op: string,
    fn: () => Promise<T>,
    signal: AbortSignal,
  ): Promise<WalkResult<T>> {
    return this.#walks.walk(window, op, fn, signal);
  }

  /** Runs `fn` as the input owner of `window`, or with null as screen-wide input. */
  input<T>(
    window: string | null,
    op: string,
    fn: () => Promise<T>,
    signal: AbortSignal,
  ): Promise<T> {
    return this.#inputs.input(window, op, fn, signal);
  }

  /**
   * Runs `fn`, input that lands by screen position on behalf of `window`'s input owner,
   * as the only such input anywhere (see pixels.ts). Call it only while owning `window`.
   */
  pixels<T>(window: string, op: string, fn: () => Promise<T>, signal: AbortSignal): Promise<T> {
    return this.#pixels.run(window, op, fn, signal);
  }

  /** Counts for diagnostics and tests. */
  get held(): HeldLocks {
    return { walks: this.#walks.held, inputs: this.#inputs.windows, screen: this.#inputs.screen };
  }
}
