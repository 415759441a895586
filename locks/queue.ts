/**
 * Waiting in line for a lock: a FIFO of waiters, each bounded by a timeout and the
 * request's AbortSignal. Every way out of the line (granted, timed out, aborted) goes
 * through one place, so no timer or listener outlives its waiter.
 *
 * @module
 */
import type { DriverError } from "../protocol/errors.ts";

// setTimeout cannot wait longer than this; longer limits mean "no limit".
const MAX_TIMER_MS = 0x7fffffff;

/** Who holds a lock, for `busy` errors. */
export interface Holder {
  /** Op that holds it. */
  op: string;
  /** Its window; null for screen-wide input. */
  window: string | null;
  /** When it got the lock (or, for a waiter, started waiting), by the locks' clock. */
  since: number;
}

/** One request in line. */
export interface Waiter extends Holder {
  /** Hands the lock over: stops the timer and resolves the wait. The caller dequeues. */
  grant(): void;
}

/** How long and on what terms to wait. */
export interface WaitOptions {
  /** Give up after this long with {@link WaitOptions.onTimeout}'s error. */
  timeoutMs: number;
  /** The request's signal: aborting leaves the line with its reason. */
  signal: AbortSignal;
  /** The timeout error, built when it fires so it names the holder of that moment. */
  onTimeout: (self: Waiter) => DriverError;
  /** Runs after the waiter left the line without the lock (it may unblock others). */
  onLeave?: () => void;
}

/** Joins the end of `line` as `who`; resolves once granted, rejects on timeout or abort. */
export function waitInLine(line: Waiter[], who: Holder, opts: WaitOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      clearTimeout(timer);
      opts.signal.removeEventListener("abort", onAbort);
    };
    const leave = (error: unknown) => {
      const at = line.indexOf(waiter);
      if (at < 0) return; // already granted
      line.splice(at, 1);
      stop();
      reject(error);
      opts.onLeave?.();
    };
    const onAbort = () => leave(opts.signal.reason);
    const waiter: Waiter = {
      ...who,
      grant: () => {
        stop();
        resolve();
      },
    };
    line.push(waiter);
    if (opts.timeoutMs <= MAX_TIMER_MS) {
      timer = setTimeout(() => leave(opts.onTimeout(waiter)), opts.timeoutMs);
    }
    opts.signal.addEventListener("abort", onAbort, { once: true });
  });
}
