import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  type ErrorLine,
  MessageScreen,
  type ParamsSchema,
  type Screened,
  tooLongAnswer,
} from "./message_screen.ts";

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
});

function screen(initialized = true): MessageScreen {
  const s = new MessageScreen(
    new Map<string, ParamsSchema>([
      ["initialize", InitializeRequestSchema],
      ["ping", PingRequestSchema],
      ["tools/call", CallToolRequestSchema],
    ]),
  );
  if (initialized) assert.ok("forward" in s.screen(INIT));
  return s;
}

function answer(out: Screened): ErrorLine["error"] & { id: ErrorLine["id"] } {
  assert.ok("answer" in out, JSON.stringify(out));
  return { id: out.answer.id, ...out.answer.error };
}

Deno.test("MessageScreen answers bad JSON with -32700 and id null", () => {
  const e = answer(screen().screen('{"jsonrpc":"2.0",'));
  assert.equal(e.code, -32700);
  assert.equal(e.id, null);
});

Deno.test("MessageScreen refuses a batch and non-objects with -32600", () => {
  for (const line of ['[{"jsonrpc":"2.0","id":1,"method":"ping"}]', "[]", "null", "3", '"x"']) {
    const e = answer(screen().screen(line));
    assert.deepEqual([e.code, e.id], [-32600, null], line);
  }
});

Deno.test("MessageScreen refuses an object, null, float or boolean id with -32600", () => {
  for (const id of ["{}", "null", "1.5", "true", "[1]"]) {
    const e = answer(screen().screen(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`));
    assert.deepEqual([e.code, e.id], [-32600, null], id);
  }
  for (const id of [7, "seven", -2]) {
    const line = JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
    assert.ok("forward" in screen().screen(line), String(id));
  }
});

Deno.test("MessageScreen refuses requests before initialize, except ping", () => {
  const s = screen(false);
  const e = answer(s.screen('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'));
  assert.deepEqual([e.code, e.id], [-32600, 1]);
  assert.match(e.message, /not initialized/);
  assert.ok("forward" in s.screen('{"jsonrpc":"2.0","id":2,"method":"ping"}'));
  assert.ok("forward" in s.screen(INIT));
  assert.equal(s.initialized, true);
  assert.ok("forward" in s.screen('{"jsonrpc":"2.0","id":3,"method":"tools/list"}'));
});

Deno.test("MessageScreen says which param is wrong in one sentence, code -32602", () => {
  const s = screen();
  const missing = answer(s.screen('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}'));
  assert.deepEqual(missing, {
    id: 4,
    code: -32602,
    message: "Invalid params for tools/call: name is required",
    data: { field: "name" },
  });
  const wrong = answer(
    s.screen('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":5}}'),
  );
  assert.equal(wrong.code, -32602);
  assert.match(wrong.message, /^Invalid params for tools\/call: name is invalid: expected string/);
  const none = answer(s.screen('{"jsonrpc":"2.0","id":6,"method":"tools/call"}'));
  assert.equal(none.message, "Invalid params for tools/call: params is required");
  const init = answer(screen(false).screen('{"jsonrpc":"2.0","id":7,"method":"initialize"}'));
  assert.equal(init.code, -32602);
});

Deno.test("MessageScreen lets unknown methods through for the SDK's -32601", () => {
  assert.ok("forward" in screen().screen('{"jsonrpc":"2.0","id":8,"method":"nope/nope"}'));
});

Deno.test("MessageScreen never answers a notification, even a bad one", () => {
  const s = screen(false);
  assert.ok("forward" in s.screen('{"jsonrpc":"2.0","method":"notifications/initialized"}'));
  assert.ok("drop" in s.screen('{"jsonrpc":"2.0","method":"x","extra":1}'));
  assert.ok("drop" in s.screen('{"jsonrpc":"1.0"}'));
});

Deno.test("MessageScreen answers a bad jsonrpc member or stray members by the request's id", () => {
  const s = screen();
  assert.deepEqual(
    [answer(s.screen('{"jsonrpc":"1.0","id":9,"method":"ping"}')).id],
    [9],
  );
  const e = answer(s.screen('{"jsonrpc":"2.0","id":10,"method":"ping","extra":1}'));
  assert.deepEqual([e.code, e.id], [-32600, 10]);
  const none = answer(s.screen('{"jsonrpc":"2.0","id":11}'));
  assert.deepEqual([none.code, none.id, none.message], [
    -32600,
    11,
    "Invalid request: method is required",
  ]);
  // A response nobody asked for is the SDK's to ignore; a broken one is dropped unanswered.
  assert.ok("forward" in s.screen('{"jsonrpc":"2.0","id":12,"result":{}}'));
  assert.ok("drop" in s.screen('{"jsonrpc":"2.0","id":13,"result":5}'));
});

Deno.test("tooLongAnswer() names the size and the limit", () => {
  const a = tooLongAnswer(11, 10);
  assert.deepEqual([a.id, a.error.code, a.error.data], [null, -32600, { limit: 10 }]);
  assert.match(a.error.message, /11 bytes exceeds the 10-byte limit/);
});
