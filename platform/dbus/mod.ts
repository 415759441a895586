/**
 * A pure-TypeScript D-Bus client for Deno: addresses, the wire format, messages, and a
 * pipelined connection over unix sockets.
 *
 * ```ts
 * const bus = await DBusConnection.connect(Deno.env.get("DBUS_SESSION_BUS_ADDRESS") ?? "");
 * const [names] = await bus.call({
 *   destination: "org.freedesktop.DBus",
 *   path: "/org/freedesktop/DBus",
 *   interface: "org.freedesktop.DBus",
 *   member: "ListNames",
 * });
 * bus.close();
 * ```
 *
 * @module
 */

export { parseAddress, resolveUnixAddress } from "./address.ts";
export type { DBusAddressEntry, UnixSocketAddress } from "./address.ts";
export { DBusConnection } from "./connection.ts";
export {
  DBusAuthError,
  DBusClosedError,
  DBusError,
  DBusProtocolError,
  DBusTimeoutError,
} from "./errors.ts";
export { MessageFramer, messageLength } from "./framer.ts";
export { marshal, unmarshal } from "./marshal.ts";
export type { UnmarshalOptions } from "./marshal.ts";
export {
  decodeBody,
  decodeHeader,
  decodeMessage,
  encodeMessageBytes,
  MAX_MESSAGE_LENGTH,
  MessageFlags,
  MessageType,
} from "./message.ts";
export type { DBusMessage, MessageHeader, OutgoingMessage } from "./message.ts";
export { alignmentOf, parseSignature } from "./signature.ts";
export type { BasicCode, DBusType } from "./signature.ts";
export type {
  CallOptions,
  ConnectOptions,
  DBusSignal,
  IncomingCall,
  MethodCall,
  SignalEmission,
} from "./types.ts";
export { Variant } from "./variant.ts";
