/**
 * What one client can make a connection hold (issue 48): answers it does not read, lines
 * it never ends, tokens it guesses. Real sockets, a real {@link Server}, a stub op table.
 */
import assert from "node:assert/strict";
import { Dispatcher, type Handlers } from "./dispatcher.ts";
import { Server, type ServerOptions } from "./server.ts";
import { tokenMatches } from "./token.ts";
import { DriverError } from "../protocol/errors.ts";
import { LineSplitter, MAX_LINE_BYTES } from "../util/framing.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
const TOKEN = "t".repeat(64);

/** A dispatcher whose `hello` answers `pad` bytes of name; every other op fails. */
function stub(pad: number, served: { n: number }): Dispatcher {
  const hello = () => {
    served.n++;
    return Promise.resolve({
      name: "x".repeat(pad),
      version: "0",
      protocol: 1 as const,
      os: "linux",
      pid: 1,
      engines: [],
      ops: [],
      live: { watched: 0, limit: 8 },
      engine: "none",
    });
  };
  const fail = () => Promise.reject(new DriverError("driver_unavailable", "None"));
  const handlers = new Proxy({ hello } as unknown as Handlers, {
    get: (target, op) => (op === "hello" ? target.hello : fail),
  });
  return new Dispatcher(handlers, { checkResults: false });
}

/** A server on a fresh unix socket (or loopback TCP with the token) and a way to connect. */
async function serve(
  dispatcher: Dispatcher,
  options: ServerOptions & { tcp?: boolean } = {},
): Promise<{ server: Server; connect: () => Promise<Deno.Conn>; done: () => Promise<void> }> {
  const server = new Server(dispatcher, options);
  const dir = await Deno.makeTempDir();
  if (options.tcp) {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    server.add({ listener, authorize: (req) => tokenMatches(req.token, TOKEN) });
    const { port } = listener.addr;
    return {
      server,
      connect: () => Deno.connect({ hostname: "127.0.0.1", port }),
      done: async () => {
        await server.close();
        await Deno.remove(dir, { recursive: true });
      },
    };
  }
  const path = `${dir}/s`;
  server.add({ listener: Deno.listen({ transport: "unix", path }) });
  return {
    server,
    connect: () => Deno.connect({ transport: "unix", path }),
    done: async () => {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Reads answer lines until `n` came, the peer closed, or `ms` passed. */
async function read(
  conn: Deno.Conn,
  n: number,
  ms: number,
): Promise<{ answers: Record<string, unknown>[]; closed: boolean }> {
  const answers: Record<string, unknown>[] = [];
  const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
  const buf = new Uint8Array(256 * 1024);
  const deadline = performance.now() + ms;
  while (answers.length < n) {
    const left = deadline - performance.now();
    if (left <= 0) return { answers, closed: false };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const got = await Promise.race([
      conn.read(buf).catch(() => null),
      new Promise<"late">((ok) => timer = setTimeout(() => ok("late"), left)),
    ]);
    clearTimeout(timer);
    if (got === "late") return { answers, closed: false };
    if (got === null) return { answers, closed: true };
    for (const f of splitter.push(buf.subarray(0, got))) {
      if ("line" in f) answers.push(JSON.parse(dec.decode(f.line)));
    }
  }
  return { answers, closed: false };
}

/** Writes all of `bytes`; resolves false when the peer closed first. */
async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<boolean> {
  try {
    for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
    return true;
  } catch {
    return false;
  }
}

const code = (a: Record<string, unknown>) =>
  (a.error as { data?: { code?: string } } | undefined)?.data?.code ?? "ok";

/** Polls `ok` every 10 ms until it holds or `ms` passed; returns whether it held. */
async function until(ok: () => boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

Deno.test("serveConnection() closes a TCP connection after 3 wrong tokens, answering those only", async () => {
  const served = { n: 0 };
  const refused: string[] = [];
  const s = await serve(stub(0, served), { tcp: true, onRefused: (m) => refused.push(m) });
  try {
    const conn = await s.connect();
    const wrong = Array.from(
      { length: 2_000 },
      (_, i) => JSON.stringify({ jsonrpc: "2.0", id: i, method: "hello", token: `guess${i}` }),
    ).join("\n") + "\n";
    const writing = writeAll(conn, enc.encode(wrong));
    const { answers, closed } = await read(conn, 10_000, 5_000);
    await writing;
    conn.close();
    assert.ok(closed, "the driver closed the connection");
    assert.deepEqual(answers.map((a) => a.id), [0, 1, 2, null]);
    assert.ok(answers.every((a) => code(a) === "unauthorized"));
    assert.match(JSON.stringify(answers[3]), /3 requests refused/);
    assert.equal(refused.length, 3, "only the three read were refused");
    assert.equal(served.n, 0);
  } finally {
    await s.done();
  }
});

Deno.test("serveConnection() keeps a connection with the right token after a wrong one", async () => {
  const s = await serve(stub(0, { n: 0 }), { tcp: true });
  try {
    const conn = await s.connect();
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "hello", token: "nope" },
      { jsonrpc: "2.0", id: 2, method: "hello", token: TOKEN },
      { jsonrpc: "2.0", id: 3, method: "hello", token: "nope" },
      { jsonrpc: "2.0", id: 4, method: "hello", token: TOKEN },
    ].map((r) => JSON.stringify(r) + "\n").join("");
    await writeAll(conn, enc.encode(lines));
    const { answers } = await read(conn, 4, 5_000);
    conn.close();
    const byId = new Map(answers.map((a) => [a.id, code(a)]));
    assert.deepEqual([1, 2, 3, 4].map((id) => byId.get(id)), [
      "unauthorized",
      "ok",
      "unauthorized",
      "ok",
    ]);
  } finally {
    await s.done();
  }
});

Deno.test("serveConnection() reads no further from a client that does not read its answers, then serves it all", async () => {
  const served = { n: 0 };
  const s = await serve(stub(16 * 1024, served));
  try {
    const conn = await s.connect();
    const total = 5_000; // 80 MB of answers were it all served at once
    const requests = enc.encode(
      Array.from({ length: total }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"hello"}\n`)
        .join(""),
    );
    const writing = writeAll(conn, requests);
    // The server stops once a bounded number of answers wait (what it holds plus what the
    // kernel's socket buffers take), however long the client stays away.
    assert.equal(await until(() => served.n >= 1_000, 1_500), false, `served ${served.n}`);
    const { answers, closed } = await read(conn, total, 30_000);
    assert.ok(await writing);
    conn.close();
    assert.equal(closed, false);
    assert.equal(answers.length, total, "every answer once it reads");
    assert.equal(new Set(answers.map((a) => a.id)).size, total);
  } finally {
    await s.done();
  }
});

Deno.test("serveConnection() drops a connection whose unread answers pass the hard bound", async () => {
  const logged: string[] = [];
  const original = Deno.stderr.writeSync;
  Deno.stderr.writeSync = (p: Uint8Array) => (logged.push(dec.decode(p)), p.length);
  const served = { n: 0 };
  const s = await serve(stub(256 * 1024, served), {
    maxInflight: 64,
    pauseBytes: 8 * 1024 * 1024,
    maxQueuedBytes: 2 * 1024 * 1024,
  });
  try {
    const conn = await s.connect();
    const requests = Array.from(
      { length: 200 },
      (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"hello"}\n`,
    ).join("");
    await writeAll(conn, enc.encode(requests));
    assert.ok(await until(() => s.server.connections === 0, 5_000), "the connection was dropped");
    const { closed } = await read(conn, 1_000, 5_000);
    assert.ok(closed, "the client sees the end");
    conn.close();
  } finally {
    Deno.stderr.writeSync = original;
    await s.done();
  }
  assert.ok(logged.some((l) => /answers are not being read/.test(l)), "the drop is logged");
  assert.ok(served.n < 200, `served ${served.n}: reading stopped before the drop`);
});

Deno.test("serveConnection() refuses a line at once when it passes the limit, holding none of it", async () => {
  const s = await serve(stub(0, { n: 0 }));
  try {
    const conn = await s.connect();
    // No newline, ever: the refusal cannot wait for one.
    const writing = writeAll(conn, new Uint8Array(MAX_LINE_BYTES + 1).fill(0x61));
    const { answers } = await read(conn, 1, 5_000);
    assert.equal(answers.length, 1, "answered before any newline");
    assert.equal(code(answers[0]!), "invalid_request");
    assert.ok(await writing);
    await writeAll(conn, enc.encode('\n{"jsonrpc":"2.0","id":7,"method":"hello"}\n'));
    const after = await read(conn, 1, 5_000);
    assert.equal(after.answers[0]?.id, 7, "the connection stays usable");
    conn.close();
  } finally {
    await s.done();
  }
});

Deno.test("Server bounds unfinished lines across connections: past the budget a line is refused busy", async () => {
  const s = await serve(stub(0, { n: 0 }), { maxPendingLineBytes: 8 * 1024 * 1024 });
  const conns: Deno.Conn[] = [];
  try {
    // Each sends 3.9 MiB with no newline: without a shared bound, 250 of them held 1 GB.
    const partial = new Uint8Array(Math.floor(3.9 * 1024 * 1024)).fill(0x20);
    for (let i = 0; i < 4; i++) conns.push(await s.connect());
    const sent = await Promise.all(conns.map((c) => writeAll(c, partial)));
    assert.ok(sent.every(Boolean));
    const heard = await Promise.all(conns.map((c) => read(c, 1, 1_000)));
    const codes = heard.map((h) => h.answers.map(code)).flat();
    assert.equal(codes.filter((c) => c === "busy").length, 2, `answers: ${codes}`);
    // Ending a held line gives its bytes back: a refused client can then be served.
    const hello = '{"jsonrpc":"2.0","id":1,"method":"hello"}\n';
    const held = heard.findIndex((h) => h.answers.length === 0);
    await writeAll(conns[held]!, enc.encode("\n"));
    const busy = heard.findIndex((h) => h.answers.length === 1);
    await writeAll(conns[busy]!, enc.encode(`\n${hello}`));
    assert.equal((await read(conns[busy]!, 1, 5_000)).answers[0]?.id, 1);
  } finally {
    for (const c of conns) c.close();
    await s.done();
  }
});
