/**
 * The real `serve` process over the real unix socket and loopback TCP: framing, errors,
 * tokens, concurrency, socket lifecycle and the stdio forwarder (issue 2).
 */
import assert from "node:assert/strict";
import { rawExchange, startDriver } from "./support/driver_process.ts";
import { DriverClient } from "../rpc/client.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const HELLO = '{"jsonrpc":"2.0","id":99,"method":"hello"}\n';

Deno.test("unix socket: bad lines get structured errors and the connection stays usable", async () => {
  const d = await startDriver(["serve"]);
  try {
    const path = d.ready.socket!;
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    const dir = path.slice(0, path.lastIndexOf("/"));
    assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
    const big = "x".repeat(4 * 1024 * 1024 + 10);
    const payload = [
      "{not json",
      "42",
      '{"jsonrpc":"2.0","id":1,"method":"no_such_op"}',
      '{"jsonrpc":"2.0","id":2,"method":"read_ui","params":{"since":"one"}}',
      `{"jsonrpc":"2.0","id":3,"method":"hello","params":{"pad":"${big}"}}`,
      '{"jsonrpc":"2.0","method":"hello"}', // notification: no answer
      HELLO.trim(),
    ].join("\n") + "\n";
    const answers = await rawExchange(
      () => Deno.connect({ transport: "unix", path }),
      payload,
      6,
    );
    const codes = answers.map((a) =>
      (a.error as { data: { code: string } } | undefined)?.data.code ?? "ok"
    );
    assert.deepEqual(codes.sort(), [
      "invalid_params",
      "invalid_request",
      "invalid_request",
      "method_not_found",
      "ok",
      "parse_error",
    ]);
    assert.equal(answers.find((a) => a.id === 99)?.result !== undefined, true);
  } finally {
    assert.equal(await d.stop(), 0);
  }
});

Deno.test("unix socket: 50 concurrent clients each get their own answers", async () => {
  const d = await startDriver(["serve"]);
  try {
    const clients = await Promise.all(
      Array.from({ length: 50 }, () => DriverClient.connect({ socket: d.ready.socket! })),
    );
    const results = await Promise.all(clients.map(async (c, i) => {
      const [a, b] = await Promise.all([c.call("hello"), c.request("nope").catch((e) => e)]);
      await c.close();
      return { i, pid: a.pid, err: (b as { code: string }).code };
    }));
    assert.equal(results.length, 50);
    for (const r of results) {
      assert.equal(r.pid, d.ready.pid);
      assert.equal(r.err, "method_not_found");
    }
  } finally {
    await d.stop();
  }
});

Deno.test("unix socket: stale file is replaced, a live one makes the second driver exit 3", async () => {
  const dataDir = await Deno.makeTempDir();
  const sock = `${dataDir}/computer-use/allternit-driver.sock`;
  await Deno.mkdir(`${dataDir}/computer-use`, { recursive: true, mode: 0o700 });
  // A socket file nobody listens on, as a crashed driver leaves it: bound, never removed.
  const bind = await new Deno.Command("python3", {
    args: ["-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", sock],
  }).output();
  assert.equal(bind.code, 0);
  assert.ok((await Deno.lstat(sock)).isSocket);
  const first = await startDriver(["serve"], { dataDir });
  try {
    assert.equal(first.ready.socket, sock);
    const second = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "serve", "--data-dir", dataDir],
      stdout: "piped",
      stderr: "piped",
    });
    const out = await second.output();
    assert.equal(out.code, 3);
    assert.match(new TextDecoder().decode(out.stderr), /already listening/);
    // The first driver still serves.
    const c = await DriverClient.connect({ socket: sock });
    assert.equal((await c.call("hello")).pid, first.ready.pid);
    await c.close();
  } finally {
    assert.equal(await first.stop(), 0);
  }
  await assert.rejects(Deno.stat(sock), Deno.errors.NotFound, "SIGTERM removes the socket");
});

Deno.test("tcp: token required, compared exactly, never logged; endpoint file is 0600", async () => {
  const d = await startDriver(["serve", "--tcp"]);
  try {
    const { endpoint, token } = d.ready as { endpoint: string; token: string };
    assert.match(endpoint, /^127\.0\.0\.1:\d+$/);
    const [host, port] = [endpoint.split(":")[0]!, Number(endpoint.split(":")[1])];
    const file = `${d.dataDir}/computer-use/driver/endpoint.json`;
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    assert.equal(JSON.parse(await Deno.readTextFile(file)).token, token);
    const connect = () => Deno.connect({ hostname: host, port });
    // Flip the last character to one it is not, so the near-miss never equals the token.
    const nearMiss = token.slice(0, -1) + (token.endsWith("0") ? "1" : "0");
    const lines = [
      '{"jsonrpc":"2.0","id":1,"method":"hello"}',
      `{"jsonrpc":"2.0","id":2,"method":"hello","token":"${nearMiss}"}`,
      `{"jsonrpc":"2.0","id":3,"method":"hello","token":"${token}"}`,
    ].join("\n") + "\n";
    const answers = await rawExchange(connect, lines, 3);
    const byId = new Map(answers.map((a) => [a.id, a]));
    assert.equal((byId.get(1)!.error as { data: { code: string } }).data.code, "unauthorized");
    assert.equal((byId.get(2)!.error as { data: { code: string } }).data.code, "unauthorized");
    assert.ok(byId.get(3)!.result);
    const client = await DriverClient.connect({ endpoint, token });
    assert.equal((await client.call("hello")).protocol, 1);
    await client.close();
  } finally {
    await d.stop();
  }
  assert.equal(d.stderr().includes((d.ready as { token: string }).token), false);
});

Deno.test("rpc forwarder: stdin lines to the socket, every answer to stdout, exit 0", async () => {
  const d = await startDriver(["serve"]);
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "rpc", "--socket", d.ready.socket!],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(HELLO + '{"jsonrpc":"2.0","id":5,"method":"nope"}\n'));
    await w.close();
    const out = await child.output();
    assert.equal(out.code, 0);
    const answers = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.equal(answers.length, 2);
    assert.equal(answers.find((a) => a.id === 99).result.name, "allternit-driver");
    assert.equal(answers.find((a) => a.id === 5).error.data.code, "method_not_found");
  } finally {
    await d.stop();
  }
});

Deno.test("rpc forwarder kept open: each request answered before the next is written", async () => {
  const d = await startDriver(["serve"]);
  try {
    const fwd = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "rpc", "--socket", d.ready.socket!],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const w = fwd.stdin.getWriter();
    const r = fwd.stdout.getReader();
    let pending = "";
    for (let i = 0; i < 50; i++) {
      await w.write(new TextEncoder().encode(`{"jsonrpc":"2.0","id":${i},"method":"hello"}\n`));
      while (!pending.includes("\n")) pending += new TextDecoder().decode((await r.read()).value);
      const line = pending.slice(0, pending.indexOf("\n"));
      pending = pending.slice(line.length + 1);
      assert.equal(JSON.parse(line).id, i, "one answer per request, in turn");
    }
    await w.close();
    r.releaseLock();
    await fwd.stdout.cancel();
    assert.equal((await fwd.status).code, 0, "EOF on stdin ends the session with 0");
  } finally {
    await d.stop();
  }
});

Deno.test("rpc forwarder: exit 3 with a clear message when no driver listens", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "rpc", "--socket", "/tmp/allternit-nobody-here.sock"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 3);
  assert.match(new TextDecoder().decode(out.stderr), /Cannot reach a driver/);
});

Deno.test("call: one-shot in process when no driver runs, non-zero on error", async () => {
  const dataDir = await Deno.makeTempDir();
  const run = (args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "call", ...args, "--data-dir", dataDir],
      stdout: "piped",
      stderr: "piped",
    }).output();
  const ok = await run(["hello"]);
  assert.equal(ok.code, 0);
  assert.equal(JSON.parse(new TextDecoder().decode(ok.stdout)).protocol, 1);
  const bad = await run(["act", '{"window":1}']);
  assert.equal(bad.code, 1);
  assert.equal(JSON.parse(new TextDecoder().decode(bad.stdout)).error.data.code, "invalid_params");
});
