/**
 * UIA's own per-call limits (IUIAutomation2::put_ConnectionTimeout and
 * put_TransactionTimeout): a provider that does not answer within them makes the call
 * fail with UIA_E_TIMEOUT instead of hanging the worker. Set per request, only when the
 * value changes.
 *
 * @module
 */
import type { ComPtr } from "../../ffi/windows/com.ts";
import { isDriverError } from "../../protocol/errors.ts";
import { IUIAutomation as U } from "./interfaces.ts";
import { UiaCompat } from "./compat.ts";

/** Below this every cross-process call would fail; above it a hung app drags on. */
const MIN_TIMEOUT_MS = 100;
const MAX_TIMEOUT_MS = 60_000;

/** The automation object's timeouts. */
export class UiaTimeouts {
  readonly #automation: ComPtr;
  readonly #compat: UiaCompat;
  #current = 0;

  /** Sets the timeouts of `automation` (an IUIAutomation2). */
  constructor(automation: ComPtr, compat: UiaCompat = new UiaCompat()) {
    this.#automation = automation;
    this.#compat = compat;
  }

  /** Sets both timeouts to `ms` (clamped); returns the value in force. */
  apply(ms: number): number {
    const t = Math.round(Math.min(MAX_TIMEOUT_MS, Math.max(MIN_TIMEOUT_MS, ms)));
    if (t !== this.#current) {
      this.#compat.run(
        "IUIAutomation2::put_ConnectionTimeout",
        "no per-call UIA timeout: a caller gets the engine's timeout, the worker waits on",
        () => {
          this.#automation.call(U.put_ConnectionTimeout, t);
          this.#automation.call(U.put_TransactionTimeout, t);
        },
        () => undefined,
      );
      this.#current = t;
    }
    return t;
  }

  /** Runs `fn` under a timeout of `ms`; a `timeout` error reports the `ms` in force. */
  run<T>(ms: number, fn: () => T): T {
    const t = this.apply(ms);
    try {
      return fn();
    } catch (err) {
      if (isDriverError(err, "timeout")) err.data.ms ??= t;
      throw err;
    }
  }
}
