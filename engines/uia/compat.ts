/**
 * Calls a partial UI Automation answers with a stub result, and what the engine does
 * instead. Wine 10's uiautomationcore answers E_NOTIMPL for `CreateAndCondition`,
 * `AddPattern`, subtree cache scopes, the view walkers, the timeout setters,
 * `ElementFromHandleBuildCache` and the cached property getters; Windows answers them all.
 *
 * Every UIA call that has a fallback goes through {@link UiaCompat.run}: the native call
 * first, and only when it answers a stub result the fallback, which from then on runs
 * directly. On Windows the native calls succeed, so nothing changes there and nothing is
 * slower. Each fallback taken is named, and `hello` lists them as the engine's reason.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import { HR, hresultHex } from "../../ffi/windows/hresult.ts";

/** HRESULTs that say "this implementation lacks the call", not "this call failed". */
const STUB_RESULTS = new Set([hresultHex(HR.E_NOTIMPL)]);

/** Whether `err` is a stub answer (E_NOTIMPL) rather than a failure of the call. */
export function isStub(err: unknown): boolean {
  return err instanceof DriverError && STUB_RESULTS.has(String(err.data.hresult));
}

/** The fallbacks one automation object needed. */
export class UiaCompat {
  readonly #taken = new Map<string, string>();

  /**
   * Runs `native`; when it answers a stub result, notes `call` → `instead` and runs
   * `fallback`, and from then on runs `fallback` directly. Other errors pass through.
   */
  run<T>(call: string, instead: string, native: () => T, fallback: () => T): T {
    if (this.#taken.has(call)) return fallback();
    try {
      return native();
    } catch (err) {
      if (!isStub(err)) throw err;
      this.note(call, instead);
      return fallback();
    }
  }

  /** Records that `call` was a stub and `instead` runs in its place. */
  note(call: string, instead: string): void {
    this.#taken.set(call, instead);
  }

  /** Whether `call` answered a stub result. */
  has(call: string): boolean {
    return this.#taken.has(call);
  }

  /** Each fallback taken, as `call: what runs instead`, in the order they were met. */
  list(): string[] {
    return [...this.#taken].map(([call, instead]) => `${call}: ${instead}`);
  }
}
