/**
 * The driver's closed error hierarchy. Every failure that reaches a caller is a
 * {@link DriverError} with a stable `code` (protocol.md, "Errors"); it is turned into a
 * JSON-RPC error object in exactly one place, {@link toRpcError}.
 *
 * @module
 */

/** The driver's names for errors, as sent in `error.data.code`. */
export type ErrorCode =
  | "parse_error"
  | "invalid_request"
  | "invalid_params"
  | "method_not_found"
  | "unauthorized"
  | "stale_version"
  | "app_not_running"
  | "window_not_found"
  | "element_not_found"
  | "action_not_supported"
  | "driver_unavailable"
  | "timeout"
  | "busy"
  | "obscured"
  | "focus_denied"
  | "internal";

/** JSON-RPC numbers: the standard ones, then the driver's own in the server range. */
const RPC_NUMBER: Record<ErrorCode, number> = {
  parse_error: -32700,
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  internal: -32603,
  unauthorized: -32001,
  stale_version: -32002,
  app_not_running: -32003,
  window_not_found: -32004,
  element_not_found: -32005,
  action_not_supported: -32006,
  driver_unavailable: -32007,
  timeout: -32008,
  busy: -32009,
  obscured: -32010,
  focus_denied: -32011,
};

/** An error a caller can act on: a stable code plus the data needed to recover. */
export class DriverError extends Error {
  /** The driver's name for the error. */
  readonly code: ErrorCode;
  /** Extra members of `error.data` besides `code`. */
  readonly data: Record<string, unknown>;

  /** Makes an error with `code`, a sentence-case `message` and recovery `data`. */
  constructor(
    code: ErrorCode,
    message: string,
    data: Record<string, unknown> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "DriverError";
    this.code = code;
    this.data = data;
  }
}

/** The JSON-RPC error object sent on the wire. */
export interface RpcError {
  /** JSON-RPC number. */
  code: number;
  /** Human sentence. */
  message: string;
  /** `code` is the driver's name; the rest helps the caller recover. */
  data: { code: ErrorCode } & Record<string, unknown>;
}

/** Turns any thrown value into the wire error; unknown throws become `internal`. */
export function toRpcError(err: unknown): RpcError {
  if (err instanceof DriverError) {
    return {
      code: RPC_NUMBER[err.code],
      message: err.message,
      data: { ...err.data, code: err.code },
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: RPC_NUMBER.internal, message, data: { code: "internal", message } };
}

/** Is `err` a DriverError with `code`? */
export function isDriverError(err: unknown, code?: ErrorCode): err is DriverError {
  return err instanceof DriverError && (code === undefined || err.code === code);
}
