/**
 * Issue 48 on the real `serve` process: a client guessing tokens can neither keep its
 * connection nor flush the audit log, and one that does not read its answers holds a
 * bounded amount of the driver's memory.
 */
import assert from "node:assert/strict";
import { startDriver } from "./support/driver_process.ts";
import { LineSplitter } from "../util/framing.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Reads answer lines until `n` came, the peer closed or `ms` passed. */
async function drain(
  conn: Deno.Conn,
  ms: number,
  n = Infinity,
): Promise<{ lines: string[]; closed: boolean }> {
  const lines: string[] = [];
  const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
  const buf = new Uint8Array(64 * 1024);
  const deadline = performance.now() + ms;
  while (lines.length < n) {
    const left = deadline - performance.now();
    if (left <= 0) return { lines, closed: false };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const got = await Promise.race([
      conn.read(buf).catch(() => null),
      new Promise<"late">((ok) => timer = setTimeout(() => ok("late"), left)),
    ]);
    clearTimeout(timer);
    if (got === "late") return { lines, closed: false };
    if (got === null) return { lines, closed: true };
    for (const f of splitter.push(buf.subarray(0, got))) {
      if ("line" in f) lines.push(dec.decode(f.line));
    }
  }
  return { lines, closed: false };
}

Deno.test("tcp: wrong tokens close the connection after 3 and reach the audit log as counted lines", async () => {
  const d = await startDriver(["serve", "--tcp"]);
  let refused = 0;
  try {
    const [host, port] = d.ready.endpoint!.split(":");
    const connect = () => Deno.connect({ hostname: host!, port: Number(port) });
    const flood = enc.encode(
      Array.from(
        { length: 50_000 },
        (_, i) =>
          JSON.stringify({ jsonrpc: "2.0", id: i, method: "read_ui", token: `g${i}` }) + "\n",
      ).join(
        "",
      ),
    );
    // 200 connections, each flooding: each is closed after its third refusal.
    for (let c = 0; c < 200; c++) {
      const conn = await connect();
      const writing = (async () => {
        try {
          for (let off = 0; off < flood.length;) off += await conn.write(flood.subarray(off));
        } catch {
          // Closed by the driver mid-flood: what this test wants.
        }
      })();
      const { lines, closed } = await drain(conn, 10_000);
      await writing;
      conn.close();
      assert.ok(closed, `connection ${c} was closed`);
      const answers = lines.map((l) => JSON.parse(l));
      assert.deepEqual(answers.map((a) => a.id), [0, 1, 2, null]);
      assert.ok(answers.every((a) => a.error.data.code === "unauthorized"));
      refused += 3;
    }
    // The right token still works.
    const ok = await connect();
    await ok.write(enc.encode(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hello", token: d.ready.token }) + "\n",
    ));
    const { lines } = await drain(ok, 5_000, 1);
    ok.close();
    assert.ok(lines.some((l) => JSON.parse(l).result), "served with the token");
  } finally {
    assert.equal(await d.stop(), 0);
  }
  const audit = (await Deno.readTextFile(`${d.dataDir}/computer-use/driver/audit.jsonl`))
    .trim().split("\n").map((l) => JSON.parse(l));
  const lines = audit.filter((a) => a.outcome === "unauthorized");
  assert.ok(lines.length <= 3, `${lines.length} audit lines for ${refused} refusals`);
  assert.equal(lines.reduce((n, a) => n + (a.count ?? 1), 0), refused, "every refusal counted");
  assert.ok(lines.every((a) => a.op === "read_ui" && a.reason === "transport"));
});

Deno.test("unix socket: a client that never reads 100,000 pipelined answers holds bounded memory", async () => {
  const d = await startDriver(["serve"]);
  try {
    const rss = async () =>
      Number(
        /VmRSS:\s+(\d+)/.exec(await Deno.readTextFile(`/proc/${d.ready.pid}/status`))![1],
      ) * 1024;
    const before = await rss();
    const conn = await Deno.connect({ transport: "unix", path: d.ready.socket! });
    const requests = enc.encode(
      Array.from({ length: 100_000 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"hello"}\n`)
        .join(""),
    );
    let sent = 0;
    const writing = (async () => {
      try {
        while (sent < requests.length) sent += await conn.write(requests.subarray(sent));
      } catch {
        // Closed at the end of the test.
      }
    })();
    // The driver stops reading: the client's writes stall well short of the end.
    let last = -1;
    const deadline = performance.now() + 20_000;
    while (sent !== last && performance.now() < deadline) {
      last = sent;
      await new Promise((ok) => setTimeout(ok, 500));
    }
    assert.ok(sent < requests.length, `all ${sent} bytes were taken`);
    const grew = (await rss()) - before;
    assert.ok(grew < 64 * 1024 * 1024, `RSS grew by ${grew} bytes`);
    conn.close();
    await writing;
  } finally {
    assert.equal(await d.stop(), 0);
  }
});
