import assert from "node:assert/strict";
import { DriverError, type ErrorCode, isDriverError, type RpcError, toRpcError } from "./errors.ts";

/**
 * Every code with its JSON-RPC number: the JSON-RPC 2.0 standard ones (protocol.md names
 * -32700 and -32600), then the driver's own in the server range.
 */
const WIRE: Record<ErrorCode, number> = {
  parse_error: -32700,
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  internal: -32603,
  unauthorized: -32001,
  stale_version: -32002,
  app_not_running: -32003,
  window_not_found: -32004,
  element_not_found: -32005,
  action_not_supported: -32006,
  driver_unavailable: -32007,
  timeout: -32008,
  busy: -32009,
  obscured: -32010,
  focus_denied: -32011,
};
const CODES = Object.keys(WIRE) as ErrorCode[];

/** The error table of protocol.md ("Errors"): each code with the recovery data it carries. */
const DOCUMENTED: [ErrorCode, Record<string, unknown>][] = [
  ["invalid_params", { issues: [{ path: ["since"], message: "Too small" }] }],
  ["method_not_found", { ops: ["hello", "list_apps"] }],
  ["unauthorized", {}],
  ["stale_version", { map: { window: "w885ab437", version: 3, elements: [] } }],
  ["app_not_running", {}],
  ["window_not_found", { version: 3 }],
  ["element_not_found", { version: 3 }],
  ["action_not_supported", { actions: ["press", "focus"] }],
  ["driver_unavailable", { reason: "no accessibility bus" }],
  ["timeout", { ms: 1000 }],
  ["internal", { message: "Result breaks its schema" }],
];

for (const code of CODES) {
  Deno.test(`toRpcError() sends ${code} as JSON-RPC ${WIRE[code]} with data.code "${code}"`, () => {
    const wire = toRpcError(new DriverError(code, "Something went wrong"));
    assert.deepEqual(wire, {
      code: WIRE[code],
      message: "Something went wrong",
      data: { code },
    });
  });
}

for (const [code, data] of DOCUMENTED) {
  Deno.test(`toRpcError() keeps ${code}'s documented recovery data beside data.code`, () => {
    const wire = toRpcError(new DriverError(code, "Sentence.", data));
    assert.equal(wire.code, WIRE[code]);
    assert.deepEqual(wire.data, { ...data, code });
  });
}

Deno.test("toRpcError() gives every code a distinct JSON-RPC number", () => {
  const numbers = CODES.map((code) => toRpcError(new DriverError(code, "x")).code);
  assert.equal(new Set(numbers).size, CODES.length);
});

Deno.test("toRpcError() puts the driver's own codes in JSON-RPC's server error range", () => {
  const standard: ErrorCode[] = [
    "parse_error",
    "invalid_request",
    "method_not_found",
    "invalid_params",
    "internal",
  ];
  for (const code of CODES.filter((c) => !standard.includes(c))) {
    const n = toRpcError(new DriverError(code, "x")).code;
    assert.ok(n <= -32000 && n >= -32099, `${code}: ${n}`);
  }
});

Deno.test("toRpcError() lets no data member override data.code", () => {
  const wire = toRpcError(new DriverError("timeout", "Late", { code: "internal", ms: 5 }));
  assert.deepEqual(wire.data, { code: "timeout", ms: 5 });
});

Deno.test("toRpcError() does not modify the error's data", () => {
  const data = { ms: 5 };
  const err = new DriverError("timeout", "Late", data);
  toRpcError(err);
  assert.deepEqual(err.data, { ms: 5 });
});

Deno.test("toRpcError() output survives a JSON round trip unchanged", () => {
  const wire = toRpcError(new DriverError("action_not_supported", "No", { actions: ["press"] }));
  assert.deepEqual(JSON.parse(JSON.stringify(wire)), wire);
});

Deno.test("toRpcError() output is the error member of a JSON-RPC 2.0 response", () => {
  const err = new DriverError("window_not_found", 'No window "w1"', { version: 2 });
  const line = JSON.stringify({ jsonrpc: "2.0", id: 7, error: toRpcError(err) });
  assert.equal(
    line,
    '{"jsonrpc":"2.0","id":7,"error":{"code":-32004,"message":"No window \\"w1\\"",' +
      '"data":{"version":2,"code":"window_not_found"}}}',
  );
});

Deno.test("toRpcError() leaves a DriverError's cause off the wire", () => {
  const cause = new Error("secret-token-123");
  const wire = toRpcError(new DriverError("timeout", "Late", { ms: 1 }, { cause }));
  assert.ok(!JSON.stringify(wire).includes("secret-token-123"));
});

Deno.test("toRpcError() maps an unknown Error to internal with its message", () => {
  assert.deepEqual(toRpcError(new TypeError("x is undefined")), {
    code: -32603,
    message: "x is undefined",
    data: { code: "internal", message: "x is undefined" },
  });
});

Deno.test("toRpcError() maps a thrown non-Error to internal with its string form", () => {
  const cases: [unknown, string][] = [
    ["boom", "boom"],
    [42, "42"],
    [undefined, "undefined"],
    [null, "null"],
    [{ reason: "x" }, "[object Object]"],
  ];
  for (const [thrown, message] of cases) {
    assert.deepEqual(toRpcError(thrown), {
      code: -32603,
      message,
      data: { code: "internal", message },
    });
  }
});

Deno.test("toRpcError() maps a look-alike that is not a DriverError to internal", () => {
  const fake = Object.assign(new Error("Late"), { name: "DriverError", code: "timeout" });
  assert.equal(toRpcError(fake).data.code, "internal");
  const plain = { code: "timeout", message: "Late", data: { ms: 1 } };
  assert.equal(toRpcError(plain).data.code, "internal");
});

Deno.test("toRpcError() sends a DriverError's message, not its name or stack", () => {
  const wire: RpcError = toRpcError(new DriverError("busy", "Window is busy"));
  assert.equal(wire.message, "Window is busy");
  assert.ok(!JSON.stringify(wire).includes("DriverError"));
});

Deno.test("DriverError is an Error with its name, code, message, data and cause", () => {
  const cause = new Error("inner");
  const err = new DriverError("stale_version", "Planned on 2", { map: {} }, { cause });
  assert.ok(err instanceof Error);
  assert.equal(err.name, "DriverError");
  assert.equal(err.code, "stale_version");
  assert.equal(err.message, "Planned on 2");
  assert.deepEqual(err.data, { map: {} });
  assert.equal(err.cause, cause);
});

Deno.test("DriverError defaults its data to an empty object", () => {
  assert.deepEqual(new DriverError("busy", "Busy").data, {});
});

Deno.test("isDriverError() recognises any DriverError without a code", () => {
  assert.ok(isDriverError(new DriverError("timeout", "Late")));
});

Deno.test("isDriverError() matches the code when one is given", () => {
  const err = new DriverError("timeout", "Late");
  assert.ok(isDriverError(err, "timeout"));
  assert.equal(isDriverError(err, "internal"), false);
});

Deno.test("isDriverError() rejects other thrown values", () => {
  for (const value of [new Error("x"), { code: "timeout" }, "timeout", undefined, null]) {
    assert.equal(isDriverError(value), false);
  }
});
