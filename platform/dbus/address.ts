/**
 * D-Bus server addresses (spec, "Server Addresses"): `transport:key=value,...` entries joined
 * by `;`, values percent-escaped. Only the unix transport is usable from Deno.
 *
 * @module
 */

/** One `;`-separated entry of an address. */
export interface DBusAddressEntry {
  /** The transport name before the colon, e.g. `unix` or `tcp`. */
  readonly transport: string;
  /** The unescaped key/value pairs. */
  readonly params: ReadonlyMap<string, string>;
}

/** A unix socket to connect to. */
export interface UnixSocketAddress {
  /** The path to hand to `Deno.connect`; abstract names start with `"\0"`. */
  readonly socketPath: string;
  /** Whether the socket lives in the Linux abstract namespace. */
  readonly abstract: boolean;
  /** The server GUID, when the address names one. */
  readonly guid: string | undefined;
}

function fail(address: string, reason: string): never {
  throw new Error(`Cannot parse D-Bus address "${address}": ${reason}`);
}

function unescapeValue(address: string, value: string): string {
  if (!value.includes("%")) return value;
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c !== 0x25) {
      bytes.push(c);
      continue;
    }
    const hex = value.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) fail(address, `bad escape "%${hex}"`);
    bytes.push(parseInt(hex, 16));
    i += 2;
  }
  // Escapes encode bytes, so multi-byte UTF-8 must be reassembled before decoding.
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Splits `address` into its entries; throws on syntax errors, skips empty entries. */
export function parseAddress(address: string): DBusAddressEntry[] {
  const entries: DBusAddressEntry[] = [];
  for (const part of address.split(";")) {
    if (part === "") continue;
    const colon = part.indexOf(":");
    if (colon <= 0) fail(address, `entry "${part}" has no transport`);
    const params = new Map<string, string>();
    const rest = part.slice(colon + 1);
    for (const pair of rest === "" ? [] : rest.split(",")) {
      const eq = pair.indexOf("=");
      if (eq <= 0) fail(address, `"${pair}" is not key=value`);
      const key = pair.slice(0, eq);
      if (params.has(key)) fail(address, `key "${key}" repeats`);
      params.set(key, unescapeValue(address, pair.slice(eq + 1)));
    }
    entries.push({ transport: part.slice(0, colon), params });
  }
  return entries;
}

/** Picks the first unix entry of `address` that names a socket to connect to. */
export function resolveUnixAddress(address: string): UnixSocketAddress {
  for (const entry of parseAddress(address)) {
    if (entry.transport !== "unix") continue;
    const path = entry.params.get("path");
    const abstractName = entry.params.get("abstract");
    if (path !== undefined && abstractName !== undefined) {
      fail(address, "unix entry has both path and abstract");
    }
    const guid = entry.params.get("guid");
    if (path !== undefined) return { socketPath: path, abstract: false, guid };
    if (abstractName !== undefined) {
      return { socketPath: `\0${abstractName}`, abstract: true, guid };
    }
    // tmpdir=, dir= and runtime= are listen-only forms; a later entry may still be usable.
  }
  fail(address, "no unix transport");
}
