/**
 * The soak bench's careless client: bad requests, each kind on a connection of its own so
 * that what it does to its connection stops nobody else. Invalid JSON lines, an unknown op,
 * bad params, a 1 MB line (garbage, or a request whose one string is 1 MB), and a burst of
 * pipelined `read_ui` whose answers are left unread for a while, then read.
 *
 * @module
 */
import { LineSplitter } from "../../util/framing.ts";

const enc = new TextEncoder();
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
const MB = 1024 * 1024;
/** read_ui requests in one pipelined burst. */
export const BURST = 200;

/** What the bad requests got, by kind. */
export type AbuseCounts = Record<string, { sent: number; answered: number; short: number }>;

const line = (id: number, method: string, params?: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
}

/**
 * Sends `payload` on a new connection, waits `holdMs` before reading anything, then reads
 * until `n` answer lines came, the driver closed, or `timeoutMs` passed; returns how many.
 */
async function exchange(
  socket: string,
  payload: Uint8Array,
  n: number,
  holdMs = 0,
  timeoutMs = 60_000,
): Promise<number> {
  const conn = await Deno.connect({ transport: "unix", path: socket });
  const timer = setTimeout(() => conn.close(), timeoutMs);
  let got = 0;
  try {
    const writing = writeAll(conn, payload).catch(() => {});
    if (holdMs) await sleep(holdMs);
    const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
    const buf = new Uint8Array(64 * 1024);
    while (got < n) {
      const k = await conn.read(buf).catch(() => null);
      if (k === null) break;
      for (const f of splitter.push(buf.subarray(0, k))) if ("line" in f) got++;
    }
    await writing;
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch { /* closed by the timer */ }
  }
  return got;
}

/** The kinds of bad request, each: its lines and how many answers they should get. */
function kinds(target: () => number | undefined): [string, () => [string[], number] | null][] {
  return [
    [
      "invalid JSON",
      () => [["{not json", "[1,2", '{"jsonrpc":"2.0","id":', "\u0000\u00ff", "}"], 5],
    ],
    ["unknown op", () => [[line(1, "no_such_op"), line(2, "read_everything", { app: 1 })], 2]],
    ["bad params", () => [[
      line(1, "read_ui", { app: 1.5 }),
      line(2, "find", { window: "nope", query: { role: 7 } }),
      line(3, "act", { window: "w", version: -1, id: "", action: "explode" }),
      line(4, "read_ui", { window: 5, since: "yesterday" }),
    ], 4]],
    ["1 MB line", () => [["x".repeat(MB)], 1]],
    [
      "1 MB string",
      () => [[line(1, "find", { window: "w1", query: { name: "n".repeat(MB) } })], 1],
    ],
    ["pipelined read_ui", () => {
      const pid = target();
      if (pid === undefined) return null;
      return [Array.from({ length: BURST }, (_, i) => line(i + 1, "read_ui", { app: pid })), BURST];
    }],
  ];
}

/**
 * Sends bad requests in turn until `until` (a performance.now() time), about one kind every
 * `pauseMs`; `target` names a live app for the pipelined reads (none: that kind is skipped).
 */
export async function abuse(
  socket: string,
  until: number,
  target: () => number | undefined,
  pauseMs = 1_500,
): Promise<AbuseCounts> {
  const counts: AbuseCounts = {};
  const all = kinds(target);
  for (let i = 0; performance.now() < until; i++) {
    const [name, make] = all[i % all.length]!;
    const made = make();
    if (made) {
      const [lines, n] = made;
      const c = counts[name] ??= { sent: 0, answered: 0, short: 0 };
      c.sent++;
      const hold = name.startsWith("pipelined") ? 2_000 : 0;
      const got = await exchange(socket, enc.encode(lines.join("\n") + "\n"), n, hold)
        .catch(() => 0);
      if (got >= n) c.answered++;
      else c.short++;
    }
    await sleep(pauseMs);
  }
  return counts;
}

/** One line per kind: `kind sent/answered in full`. */
export const describeAbuse = (c: AbuseCounts): string =>
  Object.entries(c).map(([k, v]) => `${k} ${v.answered}/${v.sent}`).join(", ");
