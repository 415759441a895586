/**
 * HRESULTs to typed errors: the one check helper for every COM call (code style rule 2).
 * Each failure becomes a {@link DriverError} whose code tells the caller what to do (the
 * element is gone, the app hangs, the app quit, ...) and whose `cause` is an
 * {@link HResultError} with the raw value and the method that returned it.
 *
 * @module
 */
import { DriverError, type ErrorCode } from "../../protocol/errors.ts";

/** HRESULTs the driver names, as the signed 32-bit values FFI calls return. */
export const HR = {
  S_OK: 0,
  S_FALSE: 1,
  E_NOTIMPL: 0x80004001 | 0,
  E_NOINTERFACE: 0x80004002 | 0,
  E_POINTER: 0x80004003 | 0,
  E_ABORT: 0x80004004 | 0,
  E_FAIL: 0x80004005 | 0,
  E_UNEXPECTED: 0x8000ffff | 0,
  E_ACCESSDENIED: 0x80070005 | 0,
  E_OUTOFMEMORY: 0x8007000e | 0,
  E_INVALIDARG: 0x80070057 | 0,
  ERROR_INVALID_WINDOW_HANDLE: 0x80070578 | 0,
  ERROR_TIMEOUT: 0x800705b4 | 0,
  RPC_S_SERVER_UNAVAILABLE: 0x800706ba | 0,
  RPC_S_CALL_FAILED: 0x800706be | 0,
  RPC_E_CALL_REJECTED: 0x80010001 | 0,
  RPC_E_CALL_CANCELED: 0x80010002 | 0,
  RPC_E_SERVER_DIED: 0x80010007 | 0,
  RPC_E_SERVER_DIED_DNE: 0x80010012 | 0,
  RPC_E_CHANGED_MODE: 0x80010106 | 0,
  RPC_E_DISCONNECTED: 0x80010108 | 0,
  RPC_E_SERVERCALL_RETRYLATER: 0x8001010a | 0,
  RPC_E_TIMEOUT: 0x8001011f | 0,
  REGDB_E_CLASSNOTREG: 0x80040154 | 0,
  CO_E_NOTINITIALIZED: 0x800401f0 | 0,
  CO_E_OBJNOTCONNECTED: 0x800401fd | 0,
  UIA_E_ELEMENTNOTENABLED: 0x80040200 | 0,
  UIA_E_ELEMENTNOTAVAILABLE: 0x80040201 | 0,
  UIA_E_NOCLICKABLEPOINT: 0x80040202 | 0,
  UIA_E_PROXYASSEMBLYNOTLOADED: 0x80040203 | 0,
  UIA_E_NOTSUPPORTED: 0x80040204 | 0,
  UIA_E_TIMEOUT: 0x80131505 | 0,
  UIA_E_INVALIDOPERATION: 0x80131509 | 0,
} as const;

/** A name the driver knows for an HRESULT. */
export type HResultName = keyof typeof HR;

/** What each named failure means to a caller; anything not listed is `internal`. */
const MEANING: Partial<Record<HResultName, ErrorCode>> = {
  // The element was destroyed, or its provider disconnected it.
  UIA_E_ELEMENTNOTAVAILABLE: "element_not_found",
  CO_E_OBJNOTCONNECTED: "element_not_found",
  ERROR_INVALID_WINDOW_HANDLE: "window_not_found",
  // A hung app: UIA's own timeouts, and COM giving up on a busy or blocked server.
  UIA_E_TIMEOUT: "timeout",
  ERROR_TIMEOUT: "timeout",
  RPC_E_TIMEOUT: "timeout",
  RPC_E_CALL_REJECTED: "timeout",
  RPC_E_SERVERCALL_RETRYLATER: "timeout",
  RPC_E_CALL_CANCELED: "timeout",
  // The provider's process is gone.
  RPC_E_DISCONNECTED: "app_not_running",
  RPC_E_SERVER_DIED: "app_not_running",
  RPC_E_SERVER_DIED_DNE: "app_not_running",
  RPC_S_SERVER_UNAVAILABLE: "app_not_running",
  RPC_S_CALL_FAILED: "app_not_running",
  // The element exists but will not do this.
  UIA_E_ELEMENTNOTENABLED: "action_not_supported",
  UIA_E_NOTSUPPORTED: "action_not_supported",
  UIA_E_INVALIDOPERATION: "action_not_supported",
  UIA_E_NOCLICKABLEPOINT: "action_not_supported",
  E_NOTIMPL: "action_not_supported",
  // UI Automation itself cannot serve this process.
  REGDB_E_CLASSNOTREG: "driver_unavailable",
  RPC_E_CHANGED_MODE: "driver_unavailable",
  CO_E_NOTINITIALIZED: "driver_unavailable",
  // An elevated app behind UIPI: a normal-integrity driver may not read or drive it.
  E_ACCESSDENIED: "driver_unavailable",
};

const NAMES = new Map<number, HResultName>(
  (Object.entries(HR) as [HResultName, number][]).map(([name, hr]) => [hr, name]),
);

/** `SUCCEEDED(hr)`. */
export function succeeded(hr: number): boolean {
  return hr >= 0;
}

/** `0x80040201`: the unsigned hex form Windows documents. */
export function hresultHex(hr: number): string {
  return `0x${(hr >>> 0).toString(16).padStart(8, "0")}`;
}

/** The known name of `hr`, if any. */
export function hresultName(hr: number): HResultName | undefined {
  return NAMES.get(hr | 0);
}

/** A failed COM call: the raw HRESULT and the method that returned it. */
export class HResultError extends Error {
  /** Makes the error for `hr` returned by `method` (`IUIAutomationElement::FindAll`). */
  constructor(
    /** The signed HRESULT. */
    readonly hr: number,
    /** Interface and method. */
    readonly method: string,
  ) {
    const name = hresultName(hr);
    super(`${method} returned ${name ? `${name} (${hresultHex(hr)})` : hresultHex(hr)}`);
    this.name = "HResultError";
  }
}

/** Extra facts the error should carry. */
export interface HrContext {
  /** The per-call timeout that was in force, reported as `ms` on `timeout`. */
  timeoutMs?: number;
}

const LEAD: Record<ErrorCode, string> = {
  element_not_found: "The element is gone",
  window_not_found: "The window is gone",
  timeout: "The app did not answer in time",
  app_not_running: "The app quit",
  action_not_supported: "The element refused the call",
  driver_unavailable: "UI Automation cannot serve here",
  internal: "A UI Automation call failed",
  parse_error: "A UI Automation call failed",
  invalid_request: "A UI Automation call failed",
  invalid_params: "A UI Automation call failed",
  method_not_found: "A UI Automation call failed",
  unauthorized: "A UI Automation call failed",
  stale_version: "A UI Automation call failed",
  busy: "A UI Automation call failed",
  obscured: "A UI Automation call failed",
  focus_denied: "A UI Automation call failed",
};

/** The DriverError for a failed HRESULT (see {@link checkHr}). */
export function hresultError(hr: number, method: string, context: HrContext = {}): DriverError {
  const cause = new HResultError(hr, method);
  const name = hresultName(hr);
  const code = (name && MEANING[name]) ?? "internal";
  const data: Record<string, unknown> = { hresult: hresultHex(hr) };
  if (code === "timeout" && context.timeoutMs !== undefined) data.ms = context.timeoutMs;
  if (code === "driver_unavailable") data.reason = `uia_${(name ?? "failed").toLowerCase()}`;
  if (code === "action_not_supported") data.actions = [];
  return new DriverError(code, `${LEAD[code]}: ${cause.message}`, data, { cause });
}

/** Throws the mapped {@link DriverError} when `hr` is a failure; S_FALSE passes. */
export function checkHr(hr: number, method: string, context?: HrContext): void {
  if (hr < 0) throw hresultError(hr, method, context);
}
