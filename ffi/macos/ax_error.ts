/**
 * The one check helper for the Accessibility API: turns an `AXError` status into a
 * {@link DriverError} with the right code, the AX name of the status, and an
 * {@link AxStatusError} as `cause`. Pure: tested off macOS.
 *
 * @module
 */
import { DriverError, type ErrorCode } from "../../protocol/errors.ts";

/** `AXError` values (AXError.h). */
export const AX_ERROR = {
  kAXErrorSuccess: 0,
  kAXErrorFailure: -25200,
  kAXErrorIllegalArgument: -25201,
  kAXErrorInvalidUIElement: -25202,
  kAXErrorInvalidUIElementObserver: -25203,
  kAXErrorCannotComplete: -25204,
  kAXErrorAttributeUnsupported: -25205,
  kAXErrorActionUnsupported: -25206,
  kAXErrorNotificationUnsupported: -25207,
  kAXErrorNotImplemented: -25208,
  kAXErrorNotificationAlreadyRegistered: -25209,
  kAXErrorNotificationNotRegistered: -25210,
  kAXErrorAPIDisabled: -25211,
  kAXErrorNoValue: -25212,
  kAXErrorParameterizedAttributeUnsupported: -25213,
  kAXErrorNotEnoughPrecision: -25214,
} as const;

/** The name of an `AXError` constant. */
export type AxErrorName = keyof typeof AX_ERROR;

const NAMES = new Map<number, AxErrorName>(
  (Object.entries(AX_ERROR) as [AxErrorName, number][]).map(([name, n]) => [n, name]),
);

/** The constant's name for `status` (`kAXErrorCannotComplete`), or `AXError <n>`. */
export function axErrorName(status: number): string {
  return NAMES.get(status) ?? `AXError ${status}`;
}

/** The raw status an AX call returned; the `cause` of every AX DriverError. */
export class AxStatusError extends Error {
  /** The `AXError` value. */
  readonly status: number;

  /** Wraps `status` from the call described by `what`. */
  constructor(status: number, what: string) {
    super(`${what} returned ${axErrorName(status)} (${status})`);
    this.name = "AxStatusError";
    this.status = status;
  }
}

/** How each status reaches callers: code, the reason after the colon, extra data. */
const MAPPING: Readonly<Record<number, { code: ErrorCode; why: string; reason?: string }>> = {
  [AX_ERROR.kAXErrorAPIDisabled]: {
    code: "driver_unavailable",
    why: "accessibility access is not granted to this process",
    reason: "accessibility_not_trusted",
  },
  [AX_ERROR.kAXErrorCannotComplete]: { code: "timeout", why: "the app did not answer in time" },
  [AX_ERROR.kAXErrorInvalidUIElement]: { code: "element_not_found", why: "the element is gone" },
  [AX_ERROR.kAXErrorAttributeUnsupported]: {
    code: "action_not_supported",
    why: "the element has no such attribute",
  },
  [AX_ERROR.kAXErrorActionUnsupported]: {
    code: "action_not_supported",
    why: "the element offers no such action",
  },
  [AX_ERROR.kAXErrorParameterizedAttributeUnsupported]: {
    code: "action_not_supported",
    why: "the element has no such parameterized attribute",
  },
  [AX_ERROR.kAXErrorNoValue]: { code: "action_not_supported", why: "the attribute has no value" },
  [AX_ERROR.kAXErrorIllegalArgument]: {
    code: "action_not_supported",
    why: "the app refused the argument",
  },
  [AX_ERROR.kAXErrorNotImplemented]: {
    code: "action_not_supported",
    why: "the app does not implement this part of the accessibility API",
  },
  [AX_ERROR.kAXErrorNotificationUnsupported]: {
    code: "driver_unavailable",
    why: "the app does not post this notification",
    reason: "notifications_unsupported",
  },
};

/** Options of {@link axError} and {@link checkAx}. */
export interface AxErrorOptions {
  /** The messaging timeout in force, reported as `data.ms` on `timeout`. */
  timeoutMs?: number;
  /** Known actions of the element, reported as `data.actions` on `action_not_supported`. */
  actions?: readonly string[];
}

/**
 * The DriverError for a failed AX call.
 *
 * `kAXErrorAPIDisabled` is `driver_unavailable` with reason `accessibility_not_trusted`;
 * `kAXErrorCannotComplete` is `timeout` (the caller may turn it into `app_not_running`
 * once it knows the process is gone); `kAXErrorInvalidUIElement` is `element_not_found`;
 * unsupported attributes, actions and arguments are `action_not_supported`; the rest
 * (failure, observer and precision errors) are `internal`.
 *
 * @param status The `AXError` (non-zero).
 * @param what What was attempted, lower case: `read "AXValue" of "AXTextArea"`.
 */
export function axError(status: number, what: string, options: AxErrorOptions = {}): DriverError {
  const cause = new AxStatusError(status, what);
  const m = MAPPING[status];
  const name = axErrorName(status);
  if (!m) {
    return new DriverError("internal", `Cannot ${what}: ${name}`, { ax_error: name }, { cause });
  }
  const data: Record<string, unknown> = { ax_error: name };
  if (m.reason) data.reason = m.reason;
  if (m.code === "timeout") data.ms = options.timeoutMs ?? 0;
  if (m.code === "element_not_found") data.version = 0;
  if (m.code === "action_not_supported") data.actions = [...(options.actions ?? [])];
  return new DriverError(m.code, `Cannot ${what}: ${m.why} (${name})`, data, { cause });
}

/** Throws {@link axError} unless `status` is `kAXErrorSuccess`. */
export function checkAx(status: number, what: string, options: AxErrorOptions = {}): void {
  if (status !== AX_ERROR.kAXErrorSuccess) throw axError(status, what, options);
}

/** The error every read and `hello` give while the process is not a trusted AX client. */
export function notTrusted(): DriverError {
  return new DriverError(
    "driver_unavailable",
    "Accessibility access is not granted to this process: allow it in System Settings > " +
      "Privacy & Security > Accessibility, then try again",
    { reason: "accessibility_not_trusted" },
  );
}
