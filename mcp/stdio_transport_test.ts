import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import { PingRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { MessageScreen } from "./message_screen.ts";
import { LineTransport } from "./stdio_transport.ts";

/** Feeds `chunks` through a transport with a `limit`-byte line limit; what came out. */
async function run(chunks: string[], limit: number) {
  const enc = new TextEncoder();
  const input = ReadableStream.from(chunks.map((c) => enc.encode(c)));
  let written = "";
  const output = {
    write: (p: Uint8Array) => {
      written += new TextDecoder().decode(p);
      return Promise.resolve(p.length);
    },
  };
  const screen = new MessageScreen(new Map([["ping", PingRequestSchema]]));
  const t = new LineTransport(screen, input, output, limit);
  const got: unknown[] = [];
  let closed = 0;
  t.onmessage = (m) => got.push(m);
  t.onclose = () => closed++;
  await t.start();
  await t.ended;
  const answers = written.split("\n").filter((l) => l).map((l) => JSON.parse(l));
  return { got, answers, closed };
}

Deno.test("LineTransport answers an oversize line and keeps reading", async () => {
  const big = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${"a".repeat(200)}"}}\n`;
  const { got, answers, closed } = await run(
    [big.slice(0, 90), big.slice(90), '{"jsonrpc":"2.0","id":2,"method":"ping"}\r\n'],
    100,
  );
  assert.equal(answers.length, 1);
  assert.deepEqual([answers[0].id, answers[0].error.code], [null, -32600]);
  assert.deepEqual(got, [{ jsonrpc: "2.0", id: 2, method: "ping" }]);
  assert.equal(closed, 1);
});

Deno.test("LineTransport writes the screen's answers and skips blank lines", async () => {
  const { got, answers } = await run([
    "\n  \nnot json\n[]\n",
    '{"jsonrpc":"2.0","id":3,"method":"ping"}',
  ], 1000);
  assert.deepEqual(answers.map((a) => a.error.code), [-32700, -32600]);
  // A last line without a newline still counts (the client closed stdin after it).
  assert.equal(got.length, 1);
});
