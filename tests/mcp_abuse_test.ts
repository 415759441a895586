/**
 * MCP server abuse (issue 48): raw bytes on `main.ts mcp`'s stdin, not the SDK client, so
 * what a broken or hostile client sends reaches the server as sent. Every request gets the
 * JSON-RPC answer the spec names and the server answers a good request afterwards. Then
 * the SDK client against a driver that closes idle connections: the call after the idle
 * time must not fail.
 */
import assert from "node:assert/strict";
import { requireDesktop } from "./support/apps.ts";
import { callTool, mcp } from "./support/mcp_client.ts";
import { startDriver } from "./support/driver_process.ts";
import { LineSplitter } from "../util/framing.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const enc = new TextEncoder();

/** One JSON-RPC answer line. */
interface Answer {
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** `main.ts mcp --in-process` with raw stdin and stdout. */
interface RawMcp {
  /** Writes `text` as is (add the newline yourself). */
  send(text: string | Uint8Array): Promise<void>;
  /** The next answer line, failing after `timeoutMs` (a silent server is the bug). */
  next(timeoutMs?: number): Promise<Answer>;
  /** Sends `initialize` and `notifications/initialized`, as a client's handshake does. */
  initialize(): Promise<void>;
  /** Asks `tools/list` under `id` and checks the answer is the catalogue. */
  stillServes(id: number): Promise<void>;
  stderr(): string;
  close(): Promise<void>;
}

async function rawMcp(): Promise<RawMcp> {
  const dataDir = await Deno.makeTempDir({ prefix: "allternit-mcp-abuse-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, "mcp", "--in-process", "--data-dir", dataDir],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { ALLTERNIT_CHECK_RESULTS: "1" },
  }).spawn();
  let errText = "";
  const errDone = (async () => {
    const dec = new TextDecoder();
    for await (const chunk of child.stderr) errText += dec.decode(chunk);
  })();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.getReader();
  const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
  const queued: Answer[] = [];
  let reading: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  const next = async (timeoutMs = 10_000): Promise<Answer> => {
    const deadline = Date.now() + timeoutMs;
    while (queued.length === 0) {
      const left = deadline - Date.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((r) => timer = setTimeout(() => r("timeout"), left));
      reading ??= reader.read();
      const got = await Promise.race([reading, timeout]);
      clearTimeout(timer);
      if (got === "timeout") throw new Error(`No answer in ${timeoutMs} ms; stderr:\n${errText}`);
      reading = undefined;
      if (got.done) throw new Error(`The server ended its stdout; stderr:\n${errText}`);
      for (const f of splitter.push(got.value)) {
        if ("line" in f) queued.push(JSON.parse(new TextDecoder().decode(f.line)));
      }
    }
    return queued.shift()!;
  };
  const send = (text: string | Uint8Array) =>
    writer.write(typeof text === "string" ? enc.encode(text) : text);
  const raw: RawMcp = {
    send,
    next,
    async initialize() {
      await send(line({
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "abuse", version: "1" },
        },
      }));
      const init = await next(30_000); // The in-process driver starts first.
      assert.equal(init.id, 0);
      assert.ok(init.result?.serverInfo, JSON.stringify(init));
      await send(line({ method: "notifications/initialized" }));
    },
    async stillServes(id) {
      await send(line({ id, method: "tools/list" }));
      const listed = await next();
      assert.equal(listed.id, id, JSON.stringify(listed));
      assert.ok(Array.isArray(listed.result?.tools), JSON.stringify(listed));
    },
    stderr: () => errText,
    async close() {
      // Not awaited: a server that stopped reading would hold a pending write, and so
      // this close, for ever. Ending the child ends both.
      const closing = writer.close().catch(() => {});
      let timer: ReturnType<typeof setTimeout> | undefined;
      const status = await Promise.race([
        child.status,
        new Promise<"slow">((r) => timer = setTimeout(() => r("slow"), 10_000)),
      ]);
      clearTimeout(timer);
      if (status === "slow") child.kill("SIGKILL");
      await child.status;
      await closing;
      reader.releaseLock();
      await child.stdout.cancel().catch(() => {});
      await errDone;
      await Deno.remove(dataDir, { recursive: true });
    },
  };
  return raw;
}

/** One JSON-RPC message line. */
function line(msg: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n";
}

/** Checks `a` is error `code` for `id`, its message short and free of a zod dump. */
function isError(a: Answer, id: string | number | null, code: number): void {
  const seen = JSON.stringify(a).slice(0, 500);
  assert.equal(a.id, id, seen);
  assert.equal(a.error?.code, code, seen);
  assert.ok(a.error.message.length < 120, a.error.message);
  assert.doesNotMatch(a.error.message, /[[{]/, "one sentence, not a dump");
}

Deno.test("mcp answers a message over 10 MiB and keeps serving", async () => {
  const m = await rawMcp();
  try {
    await m.initialize();
    const big = new Uint8Array(11 * 1024 * 1024 + 1).fill(0x61); // "aaa…" and a newline
    big.set(enc.encode('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'));
    big[big.length - 1] = 0x0a;
    // Not awaited first: a server that stopped reading stdin never takes it all.
    const sending = m.send(big).catch(() => {});
    const a = await m.next();
    await sending;
    isError(a, null, -32600);
    assert.match(a.error!.message, /exceeds the 10485760-byte limit/);
    await m.stillServes(2);
  } finally {
    await m.close();
  }
});

Deno.test("mcp answers bad JSON, a batch and bad ids per JSON-RPC", async () => {
  const m = await rawMcp();
  try {
    await m.initialize();
    await m.send('{"jsonrpc":"2.0","id":1,"method":\n');
    isError(await m.next(), null, -32700);
    // MCP 2025-06-18 removed batching: the whole array is one invalid request.
    await m.send(`[${line({ id: 2, method: "ping" }).trim()}]\n`);
    isError(await m.next(), null, -32600);
    for (const id of ["{}", "null", "1.5"]) {
      await m.send(`{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`);
      isError(await m.next(), null, -32600);
    }
    await m.stillServes(3);
  } finally {
    await m.close();
  }
});

Deno.test("mcp refuses bad params with -32602 and one sentence", async () => {
  const m = await rawMcp();
  try {
    await m.initialize();
    await m.send(line({ id: 1, method: "tools/call", params: { arguments: {} } }));
    const a = await m.next();
    isError(a, 1, -32602);
    assert.equal(a.error!.message, "Invalid params for tools/call: name is required");
    await m.send(line({ id: 2, method: "tools/call", params: { name: 7 } }));
    const b = await m.next();
    isError(b, 2, -32602);
    assert.match(b.error!.message, /^Invalid params for tools\/call: name is invalid/);
    await m.stillServes(3);
  } finally {
    await m.close();
  }
});

Deno.test("mcp refuses requests before initialize, except ping", async () => {
  const m = await rawMcp();
  try {
    await m.send(line({ id: 1, method: "tools/list" }));
    const a = await m.next(30_000);
    isError(a, 1, -32600);
    assert.match(a.error!.message, /not initialized/);
    await m.send(line({ id: 2, method: "ping" }));
    assert.deepEqual(await m.next(), { jsonrpc: "2.0", id: 2, result: {} });
    await m.initialize();
    await m.stillServes(3);
  } finally {
    await m.close();
  }
});

Deno.test("mcp reopens a driver connection closed while idle, in the same call", async () => {
  requireDesktop();
  const dataDir = await Deno.makeTempDir({ prefix: "allternit-mcp-idle-" });
  await Deno.mkdir(`${dataDir}/computer-use/driver`, { recursive: true });
  // The floors: the driver closes a quiet connection after 100 ms before its first
  // request and 1 s after (session_idle_ms).
  await Deno.writeTextFile(
    `${dataDir}/computer-use/driver/config.jsonc`,
    '{ "connection_idle_ms": 100, "session_idle_ms": 1000 }',
  );
  const driver = await startDriver(["serve"], { dataDir });
  const m = await mcp(["--socket", driver.ready.socket!]);
  try {
    const first = await callTool(m, "list_apps", {});
    assert.equal(first.isError, false, first.text);
    // Being quiet past session_idle_ms is the case under test, so this wait is the point.
    await new Promise((r) => setTimeout(r, 1_600));
    const second = await callTool(m, "list_apps", {});
    assert.equal(second.isError, false, second.text);
  } finally {
    await m.close();
    await driver.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
