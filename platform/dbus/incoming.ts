/**
 * Turns decoded SIGNAL and METHOD_CALL headers into the plain objects listeners receive.
 *
 * @module
 */

import { MessageFlags, type MessageHeader } from "./message.ts";
import type { DBusSignal, IncomingCall } from "./types.ts";

/** The listener view of a SIGNAL message (its required fields are checked by decodeHeader). */
export function toSignal(h: MessageHeader, body: unknown[]): DBusSignal {
  return {
    sender: h.sender ?? "",
    path: h.path ?? "",
    interface: h.interface ?? "",
    member: h.member ?? "",
    signature: h.signature,
    body,
  };
}

/** The handler view of a METHOD_CALL message. */
export function toIncomingCall(h: MessageHeader, body: unknown[]): IncomingCall {
  return {
    serial: h.serial,
    sender: h.sender ?? "",
    path: h.path ?? "",
    interface: h.interface,
    member: h.member ?? "",
    signature: h.signature,
    body,
    noReplyExpected: (h.flags & MessageFlags.NO_REPLY_EXPECTED) !== 0,
  };
}

/** Error name for a call whose body does not decode. */
export const INVALID_ARGS = "org.freedesktop.DBus.Error.InvalidArgs";

/**
 * The answer to a call no handler took, as a well-behaved peer gives it: `undefined` for an
 * empty reply (Peer.Ping, so callers can probe liveness), otherwise an UnknownMethod error.
 */
export function unhandledCallError(call: IncomingCall): [string, string] | undefined {
  if (call.interface === "org.freedesktop.DBus.Peer" && call.member === "Ping") return undefined;
  const what = `${call.interface ?? ""}.${call.member} on ${call.path}`;
  return ["org.freedesktop.DBus.Error.UnknownMethod", `No method ${what}`];
}
