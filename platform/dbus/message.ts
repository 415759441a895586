/**
 * D-Bus message headers and bodies (spec, "Message Format"): a 12-byte fixed part, an
 * `a(yv)` array of header fields, padding to 8, then the body.
 *
 * @module
 */

import { readSignatureValue, readValue, readValues, WireReader } from "./decode.ts";
import { writeValue, writeValues } from "./encode.ts";
import { DBusProtocolError } from "./errors.ts";
import { WireWriter } from "./wire_writer.ts";

/** Largest whole message the spec allows (128 MiB). */
export const MAX_MESSAGE_LENGTH = 128 * 1024 * 1024;

/** Message type codes. */
export const MessageType = { METHOD_CALL: 1, METHOD_RETURN: 2, ERROR: 3, SIGNAL: 4 } as const;
/** One of the four message types the spec defines. */
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

/** Header flag bits. */
export const MessageFlags = {
  NO_REPLY_EXPECTED: 0x1,
  NO_AUTO_START: 0x2,
  ALLOW_INTERACTIVE_AUTHORIZATION: 0x4,
} as const;

/** Header field codes, each with the one signature its variant must carry. */
const FIELDS = [
  ["path", 1, "o"],
  ["interface", 2, "s"],
  ["member", 3, "s"],
  ["errorName", 4, "s"],
  ["replySerial", 5, "u"],
  ["destination", 6, "s"],
  ["sender", 7, "s"],
  ["signature", 8, "g"],
  ["unixFds", 9, "u"],
] as const;

/** A message to send; which fields are required depends on `type`. */
export interface OutgoingMessage {
  /** The message type. */
  readonly type: MessageType;
  /** Bitwise OR of {@link MessageFlags}. */
  readonly flags?: number;
  /** Object path (PATH). */
  readonly path?: string;
  /** Interface name (INTERFACE). */
  readonly interface?: string;
  /** Method or signal name (MEMBER). */
  readonly member?: string;
  /** Error name (ERROR_NAME), for ERROR messages. */
  readonly errorName?: string;
  /** Serial of the call being answered (REPLY_SERIAL). */
  readonly replySerial?: number;
  /** Receiving bus name (DESTINATION). */
  readonly destination?: string;
  /** Sending bus name (SENDER); the bus daemon fills this in. */
  readonly sender?: string;
  /** Body signature; defaults to empty. */
  readonly signature?: string;
  /** Body values, one per complete type in `signature`. */
  readonly body?: readonly unknown[];
  /** Number of unix fds attached (UNIX_FDS). */
  readonly unixFds?: number;
}

/** A decoded header; fields a message lacks are `undefined`. */
export interface MessageHeader {
  /** The message type; unknown types are passed through so callers can ignore them. */
  readonly type: number;
  /** Header flag bits. */
  readonly flags: number;
  /** The sender's serial for this message. */
  readonly serial: number;
  /** Whether the message was little-endian on the wire. */
  readonly littleEndian: boolean;
  /** Offset of the body within the message bytes. */
  readonly bodyOffset: number;
  /** Length of the body in bytes. */
  readonly bodyLength: number;
  /** PATH field. */
  readonly path: string | undefined;
  /** INTERFACE field. */
  readonly interface: string | undefined;
  /** MEMBER field. */
  readonly member: string | undefined;
  /** ERROR_NAME field. */
  readonly errorName: string | undefined;
  /** REPLY_SERIAL field. */
  readonly replySerial: number | undefined;
  /** DESTINATION field. */
  readonly destination: string | undefined;
  /** SENDER field. */
  readonly sender: string | undefined;
  /** SIGNATURE field, `""` when absent. */
  readonly signature: string;
  /** UNIX_FDS field. */
  readonly unixFds: number | undefined;
}

/** A fully decoded message. */
export interface DBusMessage extends MessageHeader {
  /** Body values. */
  readonly body: unknown[];
}

const REQUIRED: Record<number, readonly string[]> = {
  1: ["path", "member"],
  2: ["replySerial"],
  3: ["errorName", "replySerial"],
  4: ["path", "interface", "member"],
};

/** Appends `msg` with `serial` to `w`, as one complete little-endian message. */
export function encodeMessage(w: WireWriter, msg: OutgoingMessage, serial: number): void {
  for (const name of REQUIRED[msg.type] ?? []) {
    if (msg[name as keyof OutgoingMessage] === undefined) {
      throw new TypeError(`D-Bus message of type ${msg.type} needs "${name}"`);
    }
  }
  const start = w.pos;
  const savedBase = w.base;
  w.base = start;
  try {
    w.reserve(16);
    w.buf.set([0x6c, msg.type, msg.flags ?? 0, 1], start);
    w.view.setUint32(start + 8, serial, true);
    w.pos = start + 12;
    w.u32(0);
    const fieldsStart = w.pos;
    for (const [name, code, sig] of FIELDS) {
      const value = msg[name];
      if (value === undefined || (name === "signature" && value === "")) continue;
      w.align(8);
      w.u8(code);
      w.u8(1);
      w.u8(sig.charCodeAt(0));
      w.u8(0);
      writeValue(w, sig, value);
    }
    w.view.setUint32(start + 12, w.pos - fieldsStart, true);
    w.align(8);
    const bodyStart = w.pos;
    writeValues(w, msg.signature ?? "", msg.body ?? []);
    if (w.pos - start > MAX_MESSAGE_LENGTH) {
      throw new RangeError(`D-Bus message of ${w.pos - start} bytes is over the 128 MiB limit`);
    }
    w.view.setUint32(start + 4, w.pos - bodyStart, true);
  } catch (e) {
    // Leave no half-written message behind in a shared batch buffer.
    w.pos = start;
    throw e;
  } finally {
    w.base = savedBase;
  }
}

/** Encodes `msg` with `serial` into a fresh byte array. */
export function encodeMessageBytes(msg: OutgoingMessage, serial: number): Uint8Array {
  const w = new WireWriter(256);
  encodeMessage(w, msg, serial);
  return w.bytes().slice();
}

/** Decodes the fixed part and header fields of the whole message `bytes`. */
export function decodeHeader(bytes: Uint8Array): MessageHeader {
  const endian = bytes[0];
  if (endian !== 0x6c && endian !== 0x42) {
    throw new DBusProtocolError(`D-Bus message has bad endianness byte ${endian}`);
  }
  if (bytes.length < 16) throw new DBusProtocolError("D-Bus message is shorter than its header");
  if (bytes[3] !== 1) throw new DBusProtocolError(`D-Bus protocol version ${bytes[3]}`);
  const r = new WireReader(bytes, endian === 0x6c, 16);
  const fields: Record<string, unknown> = {};
  const fieldsEnd = 16 + r.view.getUint32(12, r.littleEndian);
  if (fieldsEnd > bytes.length) throw new DBusProtocolError("D-Bus header fields overrun");
  try {
    while (r.pos < fieldsEnd) {
      r.pos = (r.pos + 7) & ~7;
      const code = bytes[r.pos++] ?? 0;
      const sig = readSignatureValue(r);
      const value = readValue(r, sig);
      const known = FIELDS[code - 1];
      if (known === undefined) continue; // Unknown fields must be ignored (spec).
      if (sig !== known[2]) {
        throw new DBusProtocolError(`D-Bus header field ${code} has signature "${sig}"`);
      }
      fields[known[0]] = value;
    }
  } catch (e) {
    if (e instanceof RangeError) throw new DBusProtocolError("D-Bus header fields truncated");
    throw e;
  }
  const bodyOffset = (fieldsEnd + 7) & ~7;
  const header: MessageHeader = {
    type: bytes[1] ?? 0,
    flags: bytes[2] ?? 0,
    serial: r.view.getUint32(8, r.littleEndian),
    littleEndian: r.littleEndian,
    bodyOffset,
    bodyLength: r.view.getUint32(4, r.littleEndian),
    path: fields.path as string | undefined,
    interface: fields.interface as string | undefined,
    member: fields.member as string | undefined,
    errorName: fields.errorName as string | undefined,
    replySerial: fields.replySerial as number | undefined,
    destination: fields.destination as string | undefined,
    sender: fields.sender as string | undefined,
    signature: (fields.signature as string | undefined) ?? "",
    unixFds: fields.unixFds as number | undefined,
  };
  if (header.serial === 0) throw new DBusProtocolError("D-Bus message has serial 0");
  if (bodyOffset + header.bodyLength > bytes.length) {
    throw new DBusProtocolError("D-Bus message is shorter than its body length");
  }
  for (const name of REQUIRED[header.type] ?? []) {
    if (fields[name] === undefined) {
      throw new DBusProtocolError(`D-Bus message of type ${header.type} lacks "${name}"`);
    }
  }
  return header;
}

/** Decodes the body of the message `bytes` whose header is `header`. */
export function decodeBody(bytes: Uint8Array, header: MessageHeader): unknown[] {
  const end = header.bodyOffset + header.bodyLength;
  // Trim to the body's end so a value cannot read past it into trailing bytes.
  const r = new WireReader(bytes.subarray(0, end), header.littleEndian, header.bodyOffset);
  return readValues(r, header.signature);
}

/** Decodes a whole message. */
export function decodeMessage(bytes: Uint8Array): DBusMessage {
  const header = decodeHeader(bytes);
  return { ...header, body: decodeBody(bytes, header) };
}
