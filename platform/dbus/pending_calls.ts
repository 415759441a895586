/**
 * The table of calls waiting for replies, keyed by serial, with their timers and abort hooks.
 * Every way out of the table goes through one place so no timer or listener outlives its call.
 *
 * @module
 */

import { DBusTimeoutError } from "./errors.ts";

// setTimeout cannot wait longer than this; longer limits are treated as "no limit".
const MAX_TIMER_MS = 0x7fffffff;

interface Entry {
  resolve(body: unknown[]): void;
  reject(error: unknown): void;
  timer: ReturnType<typeof setTimeout> | undefined;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/** The outcome callbacks of one waiting call. */
export interface Settler {
  /** Fulfils the call with a reply body. */
  resolve(body: unknown[]): void;
  /** Fails the call. */
  reject(error: unknown): void;
}

/** Calls awaiting replies. */
export class PendingCalls {
  readonly #entries = new Map<number, Entry>();

  /** How many calls are waiting. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Registers call `serial`: it fails with DBusTimeoutError after `timeoutMs` (describing it
   * as `what`) or with the reason of `signal` when that aborts, unless settled first.
   */
  add(
    serial: number,
    settler: Settler,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    what: string,
  ): void {
    const entry: Entry = {
      resolve: settler.resolve,
      reject: settler.reject,
      timer: undefined,
      signal,
      onAbort: undefined,
    };
    if (timeoutMs <= MAX_TIMER_MS) {
      entry.timer = setTimeout(() => {
        this.take(serial)?.reject(new DBusTimeoutError(timeoutMs, what));
      }, timeoutMs);
    }
    if (signal !== undefined) {
      entry.onAbort = () => this.take(serial)?.reject(signal.reason);
      signal.addEventListener("abort", entry.onAbort, { once: true });
    }
    this.#entries.set(serial, entry);
  }

  /** Removes call `serial` and returns its callbacks, or undefined if it is not waiting. */
  take(serial: number): Settler | undefined {
    const entry = this.#entries.get(serial);
    if (entry === undefined) return undefined;
    this.#entries.delete(serial);
    clearTimeout(entry.timer);
    if (entry.onAbort !== undefined) entry.signal?.removeEventListener("abort", entry.onAbort);
    return entry;
  }

  /** Fails every waiting call with `reason`. */
  rejectAll(reason: unknown): void {
    for (const serial of [...this.#entries.keys()]) this.take(serial)?.reject(reason);
  }
}
