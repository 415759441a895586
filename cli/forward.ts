/**
 * `allternit-driver rpc`, the stdio forwarder (`allternit-driver-rpc`): stdin lines go to
 * the driver, its answers to stdout. Used by the guest exec channel.
 *
 * @module
 */
import { splitEndpoint } from "../rpc/client.ts";
import { log } from "../util/log.ts";
import { resolveTarget, type TargetOptions } from "./target.ts";
import { LineSplitter } from "../util/framing.ts";
import { writeAllSync } from "../util/write.ts";

/** Exit codes of `rpc`. */
export const FORWARD_EXIT = {
  ok: 0,
  usage: 2,
  noDriver: 3,
  lost: 4,
} as const;

const encoder = new TextEncoder();

/** Forwards until stdin ends and the driver has answered; resolves with the exit code. */
export async function forward(options: TargetOptions): Promise<number> {
  const target = resolveTarget(options);
  let conn: Deno.Conn;
  try {
    conn = "socket" in target
      ? await Deno.connect({ transport: "unix", path: target.socket })
      : await (async () => {
        const [hostname, port] = splitEndpoint(target.endpoint);
        return await Deno.connect({ hostname, port });
      })();
  } catch (err) {
    const where = "socket" in target ? target.socket : target.endpoint;
    log("error", `Cannot reach a driver at "${where}"`, { error: String(err) });
    return FORWARD_EXIT.noDriver;
  }

  let stdinDone = false;
  const token = "token" in target ? target.token : undefined;
  const upstream = (async () => {
    const writer = conn.writable.getWriter();
    const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
    const send = async (line: Uint8Array) => {
      await writer.write(token ? withToken(line, token) : concat(line, NL));
    };
    for await (const chunk of Deno.stdin.readable) {
      for (const f of splitter.push(chunk)) if ("line" in f) await send(f.line);
    }
    for (const f of splitter.end()) if ("line" in f) await send(f.line);
    stdinDone = true;
    writer.releaseLock();
    // Half-close: the driver answers what is in flight, then closes its side.
    await conn.closeWrite();
  })();

  let lost = false;
  try {
    for await (const chunk of conn.readable) writeAllSync(Deno.stdout, chunk);
  } catch {
    lost = true;
  }
  if (!stdinDone) {
    // Waiting for stdin would hang: the driver is gone, so say so now.
    log("error", "The driver closed the connection before stdin ended");
    lost = true;
  } else {
    await upstream.catch(() => {
      lost = true;
    });
  }
  try {
    conn.close();
  } catch {
    // Closed by the driver.
  }
  return lost ? FORWARD_EXIT.lost : FORWARD_EXIT.ok;
}

const NL = new Uint8Array([0x0a]);

const decoder = new TextDecoder();

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Adds the launch token to a request line; a line that is not an object goes as it is. */
function withToken(line: Uint8Array, token: string): Uint8Array {
  const text = decoder.decode(line);
  try {
    const obj = JSON.parse(text);
    if (obj && typeof obj === "object" && !Array.isArray(obj) && !("token" in obj)) {
      return encoder.encode(JSON.stringify({ ...obj, token }) + "\n");
    }
  } catch {
    // Not JSON: the driver answers parse_error.
  }
  return concat(line, NL);
}
