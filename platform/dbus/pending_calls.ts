/**
 * The table of calls waiting for replies, keyed by serial, with their deadlines and abort
 * hooks. Every way out of the table goes through one place so no timer or listener outlives
 * its call.
 *
 * A window read sends hundreds of calls in a few milliseconds, all with the same limit and
 * the same abort signal. A timer and an abort listener per call cost a fifth of the
 * driver's CPU in such a read (GTK 3 mousepad, measured), so the table keeps one timer, set
 * for its earliest deadline, and one listener per signal.
 *
 * @module
 */

import { DBusTimeoutError } from "./errors.ts";

// setTimeout cannot wait longer than this; longer limits are treated as "no limit".
const MAX_TIMER_MS = 0x7fffffff;

interface Entry {
  resolve(body: unknown[]): void;
  reject(error: unknown): void;
  /** `performance.now()` past which the call times out; Infinity for no limit. */
  deadline: number;
  timeoutMs: number;
  what: string;
  signal: AbortSignal | undefined;
}

/** The outcome callbacks of one waiting call. */
export interface Settler {
  /** Fulfils the call with a reply body. */
  resolve(body: unknown[]): void;
  /** Fails the call. */
  reject(error: unknown): void;
}

/** The calls waiting on one abort signal, and the one listener that fails them. */
interface SignalHook {
  serials: Set<number>;
  onAbort: () => void;
}

/** Calls awaiting replies. */
export class PendingCalls {
  readonly #entries = new Map<number, Entry>();
  readonly #hooks = new Map<AbortSignal, SignalHook>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The deadline {@link #timer} fires at. */
  #armedFor = Infinity;

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
    const deadline = timeoutMs <= MAX_TIMER_MS ? performance.now() + timeoutMs : Infinity;
    this.#entries.set(serial, {
      resolve: settler.resolve,
      reject: settler.reject,
      deadline,
      timeoutMs,
      what,
      signal,
    });
    if (deadline < this.#armedFor) this.#arm(deadline);
    if (signal !== undefined) this.#hook(signal).serials.add(serial);
  }

  /** Removes call `serial` and returns its callbacks, or undefined if it is not waiting. */
  take(serial: number): Settler | undefined {
    const entry = this.#entries.get(serial);
    if (entry === undefined) return undefined;
    this.#entries.delete(serial);
    if (this.#entries.size === 0) this.#disarm();
    if (entry.signal !== undefined) this.#unhook(entry.signal, serial);
    return entry;
  }

  /** Fails every waiting call with `reason`. */
  rejectAll(reason: unknown): void {
    for (const serial of [...this.#entries.keys()]) this.take(serial)?.reject(reason);
  }

  #arm(deadline: number): void {
    clearTimeout(this.#timer);
    this.#armedFor = deadline;
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, deadline - performance.now()));
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = Infinity;
  }

  /** Fails the calls past their deadline and sets the timer for the next one. */
  #expire(): void {
    this.#timer = undefined;
    this.#armedFor = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const [serial, entry] of [...this.#entries]) {
      if (entry.deadline <= now) {
        this.take(serial)?.reject(new DBusTimeoutError(entry.timeoutMs, entry.what));
      } else if (entry.deadline < next) {
        next = entry.deadline;
      }
    }
    // A call's reject may have added calls (and armed the timer) already.
    if (next < this.#armedFor && this.#entries.size > 0) this.#arm(next);
  }

  #hook(signal: AbortSignal): SignalHook {
    let hook = this.#hooks.get(signal);
    if (hook === undefined) {
      const serials = new Set<number>();
      const onAbort = () => {
        for (const serial of [...serials]) this.take(serial)?.reject(signal.reason);
      };
      hook = { serials, onAbort };
      this.#hooks.set(signal, hook);
      signal.addEventListener("abort", onAbort, { once: true });
    }
    return hook;
  }

  #unhook(signal: AbortSignal, serial: number): void {
    const hook = this.#hooks.get(signal);
    if (hook === undefined) return;
    hook.serials.delete(serial);
    if (hook.serials.size > 0) return;
    this.#hooks.delete(signal);
    signal.removeEventListener("abort", hook.onAbort);
  }
}
