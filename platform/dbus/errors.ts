/**
 * Errors raised by the D-Bus client. Each kind is its own class so callers can branch with
 * `instanceof` instead of parsing messages.
 *
 * @module
 */

/** An ERROR reply from the peer, e.g. `org.freedesktop.DBus.Error.ServiceUnknown`. */
export class DBusError extends Error {
  /** The D-Bus error name from the reply's ERROR_NAME header field. */
  readonly errorName: string;
  /** The whole reply body; by convention its first value is the human-readable message. */
  readonly body: unknown[];

  /** Makes an error for a reply named `errorName` whose body starts with `message`. */
  constructor(errorName: string, message: string, body: unknown[] = []) {
    super(message === "" ? errorName : `${errorName}: ${message}`);
    this.name = "DBusError";
    this.errorName = errorName;
    this.body = body;
  }
}

/** A call that got no reply within its time limit. */
export class DBusTimeoutError extends Error {
  /** The time limit that ran out, in milliseconds. */
  readonly ms: number;

  /** Makes an error for a call to `what` that waited `ms` milliseconds. */
  constructor(ms: number, what: string) {
    super(`D-Bus call ${what} timed out after ${ms} ms`);
    this.name = "DBusTimeoutError";
    this.ms = ms;
  }
}

/** The connection is closed, or closed while the call was waiting for its reply. */
export class DBusClosedError extends Error {
  /** Makes an error; `options.cause` carries the failure that closed the connection, if any. */
  constructor(message = "D-Bus connection is closed", options?: ErrorOptions) {
    super(message, options);
    this.name = "DBusClosedError";
  }
}

/** Bytes from the peer that break the D-Bus wire format. */
export class DBusProtocolError extends Error {
  /** Makes an error describing what was malformed. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "DBusProtocolError";
  }
}

/** The bus refused the SASL handshake. */
export class DBusAuthError extends Error {
  /** Makes an error carrying the server's last line or the local reason. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "DBusAuthError";
  }
}
