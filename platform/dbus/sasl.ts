/**
 * The client side of the D-Bus SASL handshake (spec, "Authentication Protocol"), EXTERNAL
 * mechanism only: the kernel vouches for our uid over the unix socket, so no secret is sent.
 *
 * @module
 */

import { DBusAuthError } from "./errors.ts";

/** A readable and writable byte stream; `Deno.Conn` fits. */
export interface Duplex {
  /** Reads into `p`; resolves with the byte count, or null at end of stream. */
  read(p: Uint8Array): Promise<number | null>;
  /** Writes some prefix of `p`; resolves with the byte count. */
  write(p: Uint8Array): Promise<number>;
}

/** What a successful handshake yields. */
export interface AuthResult {
  /** The server's GUID from its `OK` line. */
  readonly guid: string;
  /** Bytes read past the handshake, which belong to the message stream. */
  readonly leftover: Uint8Array;
}

const MAX_LINE = 16 * 1024;
const ascii = new TextEncoder();

async function writeAll(conn: Duplex, text: string): Promise<void> {
  const bytes = ascii.encode(text);
  for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
}

/** The hex form EXTERNAL wants: each ASCII digit of the decimal uid as two hex digits. */
export function externalIdentity(uid: number): string {
  return [...String(uid)].map((c) => c.charCodeAt(0).toString(16)).join("");
}

async function readLine(conn: Duplex): Promise<{ line: string; leftover: Uint8Array }> {
  const buf = new Uint8Array(MAX_LINE);
  let len = 0;
  while (true) {
    const end = buf.subarray(0, len).findIndex((b, i) => b === 0x0a && buf[i - 1] === 0x0d);
    if (end >= 0) {
      const line = new TextDecoder().decode(buf.subarray(0, end - 1));
      return { line, leftover: buf.slice(end + 1, len) };
    }
    if (len === buf.length) throw new DBusAuthError("D-Bus auth line is too long");
    const n = await conn.read(buf.subarray(len));
    if (n === null) throw new DBusAuthError("D-Bus server closed the connection during auth");
    len += n;
  }
}

/**
 * Runs the handshake on a fresh connection as user `uid` (default: this process's) and sends
 * `BEGIN`, after which the stream carries D-Bus messages. Throws DBusAuthError on refusal.
 */
export async function authenticate(
  conn: Duplex,
  uid: number | null = Deno.uid(),
): Promise<AuthResult> {
  if (uid === null) throw new DBusAuthError("D-Bus EXTERNAL auth needs a uid, which this OS lacks");
  // The leading NUL byte is required by the spec (it carries credentials on some systems).
  await writeAll(conn, `\0AUTH EXTERNAL ${externalIdentity(uid)}\r\n`);
  const { line, leftover } = await readLine(conn);
  const [command, guid] = line.split(" ");
  if (command !== "OK" || guid === undefined || !/^[0-9a-f]{32}$/i.test(guid)) {
    throw new DBusAuthError(`D-Bus server refused EXTERNAL auth: "${line}"`);
  }
  await writeAll(conn, "BEGIN\r\n");
  return { guid, leftover };
}
