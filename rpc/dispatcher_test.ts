import assert from "node:assert/strict";
import { Dispatcher, type Handlers } from "./dispatcher.ts";
import { DriverError } from "../protocol/errors.ts";

function handlers(overrides: Partial<Handlers> = {}): Handlers {
  const fail = () =>
    Promise.reject(new DriverError("driver_unavailable", "None", { reason: "test" }));
  return {
    hello: () =>
      Promise.resolve({
        name: "t",
        version: "0",
        protocol: 1 as const,
        os: "linux",
        pid: 1,
        engines: [],
        ops: [],
        live: { watched: 0, limit: 8 },
        engine: "none",
      }),
    list_apps: fail,
    read_ui: fail,
    act: fail,
    run_batch: fail,
    verify: fail,
    find: fail,
    screenshot: fail,
    zoom: fail,
    pixel_click: fail,
    pixel_move: fail,
    pixel_drag: fail,
    pixel_scroll: fail,
    pixel_type_text: fail,
    pixel_key: fail,
    hold_key: fail,
    window: fail,
    launch_app: fail,
    close_app: fail,
    clipboard_get: fail,
    clipboard_set: fail,
    trace_start: fail,
    trace_stop: fail,
    ...overrides,
  };
}

const d = new Dispatcher(handlers(), { checkResults: true });
const ask = async (line: string) => JSON.parse((await d.handleLine(line))!);

Deno.test("Dispatcher answers hello with ms and the request id", async () => {
  const r = await ask('{"jsonrpc":"2.0","id":"a","method":"hello"}');
  assert.equal(r.id, "a");
  assert.equal(r.result.protocol, 1);
  assert.equal(typeof r.result.ms, "number");
});

Deno.test("Dispatcher maps bad requests to protocol.md errors", async () => {
  assert.equal((await ask("{oops")).error.code, -32700);
  assert.equal((await ask("[1,2]")).error.code, -32600);
  assert.equal((await ask('{"id":1,"method":"hello"}')).error.data.code, "invalid_request");
  const unknown = await ask('{"jsonrpc":"2.0","id":2,"method":"nope"}');
  assert.equal(unknown.error.data.code, "method_not_found");
  assert.ok(unknown.error.data.ops.includes("read_ui"));
  const bad = await ask(
    '{"jsonrpc":"2.0","id":3,"method":"act","params":{"window":"w","version":"1"}}',
  );
  assert.equal(bad.error.code, -32602);
  assert.equal(bad.error.data.code, "invalid_params");
  const paths = bad.error.data.issues.map((i: { path: string[] }) => i.path.join("."));
  assert.ok(paths.includes("version"));
  assert.ok(paths.includes("id"));
  assert.ok(paths.includes("action"));
});

Deno.test("Dispatcher rejects unknown params fields", async () => {
  const r = await ask('{"jsonrpc":"2.0","id":1,"method":"read_ui","params":{"fersh":true}}');
  assert.equal(r.error.data.code, "invalid_params");
});

Deno.test("Dispatcher never answers notifications", async () => {
  assert.equal(await d.handleLine('{"jsonrpc":"2.0","method":"hello"}'), undefined);
  assert.equal(await d.handleLine('{"jsonrpc":"2.0","method":"nope"}'), undefined);
});

Deno.test("Dispatcher answers timeout when a handler outlives its deadline", async () => {
  const slow = new Dispatcher(handlers({
    list_apps: (_p, ctx) =>
      new Promise((_res, rej) => ctx.signal.addEventListener("abort", () => rej(new Error("x")))),
  }));
  const r = JSON.parse(
    (await slow.handleLine(
      '{"jsonrpc":"2.0","id":1,"method":"list_apps","params":{"timeout_ms":30}}',
    ))!,
  );
  assert.equal(r.error.data.code, "timeout");
  assert.equal(r.error.data.ms, 30);
});

Deno.test("Dispatcher turns a handler bug into internal and keeps serving", async () => {
  const buggy = new Dispatcher(
    handlers({ list_apps: () => Promise.reject(new TypeError("boom")) }),
  );
  const r = JSON.parse((await buggy.handleLine('{"jsonrpc":"2.0","id":1,"method":"list_apps"}'))!);
  assert.equal(r.error.data.code, "internal");
  assert.equal(r.error.data.message, "boom");
  const ok = JSON.parse((await buggy.handleLine('{"jsonrpc":"2.0","id":2,"method":"hello"}'))!);
  assert.equal(ok.result.protocol, 1);
});

Deno.test("Dispatcher with checkResults catches a result that breaks its schema", async () => {
  const wrong = new Dispatcher(
    handlers({ hello: () => Promise.resolve({ name: 1 } as never) }),
    { checkResults: true },
  );
  const r = JSON.parse((await wrong.handleLine('{"jsonrpc":"2.0","id":1,"method":"hello"}'))!);
  assert.equal(r.error.data.code, "internal");
});

Deno.test("Dispatcher tells handlers which connection a request came on (its check)", async () => {
  const seen: (object | undefined)[] = [];
  const d = new Dispatcher(handlers({
    trace_stop: (_p, ctx) => {
      seen.push(ctx.session);
      return Promise.resolve({
        path: "/t",
        ops: 0,
        images: 0,
        image_bytes: 0,
        images_capped: false,
        engine: "driver",
      });
    },
  }));
  const one = {};
  const two = {};
  const line = '{"jsonrpc":"2.0","id":1,"method":"trace_stop"}';
  await d.handleLine(line, undefined, one);
  await d.handleLine(line, () => true, two);
  await d.handleLine(line);
  await d.call("trace_stop", {});
  assert.equal(seen[0], one);
  assert.equal(seen[1], two);
  assert.deepEqual(seen.slice(2), [undefined, undefined]);
});
