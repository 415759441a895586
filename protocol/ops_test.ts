import assert from "node:assert/strict";
import type { z } from "zod";
import { isOpName, OP_NAMES, type OpKind, type OpName, OPS, type ParamsOf } from "./ops.ts";
import type { ResultOf } from "./ops.ts";
import type { Element } from "./element.ts";
import { DISPLAY as README_DISPLAY } from "./_testing.ts";

// The real pair docs/protocol.md shows, copied verbatim.
const README_FIND_REQUEST =
  `{"jsonrpc":"2.0","id":1,"method":"find","params":{"window":"w770671b2","query":{"role":"AXButton","name_contains":"7"}}}`;
const README_FIND_ANSWER =
  `{"jsonrpc":"2.0","id":1,"result":{"elements":[{"id":"43ysv4bvdn53","role":"AXButton","name":"7 7","bounds":{"x":16,"y":288,"w":55,"h":40},"enabled":true,"focused":false,"actions":["press","click"],"parent":"mcqwz0wr26st"}],"version":1,"engine":"atspi","ms":67.66}}`;

/** The ops of protocol.md's "Ops" table, in its order. */
const PROTOCOL_MD_OPS = [
  "hello",
  "list_apps",
  "read_ui",
  "act",
  "run_batch",
  "verify",
  "find",
  "screenshot",
  "zoom",
  "pixel_click",
  "pixel_move",
  "pixel_drag",
  "pixel_scroll",
  "pixel_type_text",
  "pixel_key",
  "hold_key",
  "window",
  "launch_app",
  "close_app",
  "clipboard_get",
  "clipboard_set",
  "trace_start",
  "trace_stop",
];

// Ids and values below are the ones README.md shows for gnome-calculator (the `find` pair
// and the MCP outline: window w885ab437, pid 16658, "7" = 43ysv4bvdn53, the display
// wb0wkwpvtaqb showing "7" then "78").
const WINDOW = "w885ab437";
const SEVEN = "43ysv4bvdn53";
const DISPLAY = "wb0wkwpvtaqb";

/** Params for each op as protocol.md's "Ops" table and README.md document them. */
const DOCUMENTED_PARAMS: { [N in OpName]: readonly ParamsOf<N>[] } = {
  // protocol.md: "-"; README: every op takes an optional `timeout_ms`.
  hello: [{}, { timeout_ms: 5000 }],
  list_apps: [{}, { timeout_ms: 5000 }],
  read_ui: [
    {}, // protocol.md: `app?` ... default frontmost
    { app: "gnome-calculator" }, // README: `driver.call("read_ui", { app: "gnome-calculator" })`
    { app: 16658 }, // protocol.md: `app?` (name or pid)
    { window: WINDOW },
    { window: WINDOW, since: 2 }, // README's MCP example: `since=2`
    { app: "gnome-calculator", window: WINDOW, fresh: true, crops: true, max_elements: 500 },
  ],
  act: [
    { window: WINDOW, version: 1, id: SEVEN, action: "press" }, // README: act pressing "7" by id
    { window: WINDOW, version: 1, id: SEVEN, action: "click" },
    { window: WINDOW, version: 1, id: SEVEN, action: "focus" },
    { window: WINDOW, version: 1, id: DISPLAY, action: "set_value", value: "78" },
    { window: WINDOW, version: 1, id: DISPLAY, action: "type_text", value: "8" },
    { window: WINDOW, version: 1, id: SEVEN, action: "select" },
    { window: WINDOW, version: 1, id: SEVEN, action: "expand" },
    { window: WINDOW, version: 1, id: SEVEN, action: "collapse" },
    { window: WINDOW, version: 1, id: SEVEN, action: "scroll_into_view" },
    { window: WINDOW, version: 1, id: SEVEN, action: "show_menu", timeout_ms: 2000 },
  ],
  run_batch: [
    // protocol.md: each step an act without `window`/`version`, or a `pixel_*` step.
    { window: WINDOW, version: 1, steps: [{ id: SEVEN, action: "press" }] },
    {
      window: WINDOW,
      version: 1,
      steps: [
        { id: SEVEN, action: "press" },
        { id: DISPLAY, action: "type_text", value: "+8" },
        { op: "pixel_click", x: 43, y: 308 },
        { op: "pixel_key", keys: "Return" },
      ],
      stop_on_error: true,
    },
  ],
  verify: [
    // protocol.md: `window, id?` or `query? {role?, name?, value?}`, `expect {...}`, `timeout_ms?`
    { window: WINDOW, id: DISPLAY, expect: { value: "78" } },
    {
      window: WINDOW,
      query: { role: "AXButton", name: "7 7" },
      expect: { exists: true, enabled: true, focused: false },
      timeout_ms: 2000,
    },
    { window: WINDOW, query: { value: "78" }, expect: { name: "GtkSourceView", value: "78" } },
  ],
  find: [
    JSON.parse(README_FIND_REQUEST).params,
    { window: WINDOW, query: { role: "AXButton", name: "7 7" } },
    { window: WINDOW, query: { value: "78" } },
  ],
  screenshot: [{}, { window: WINDOW }], // protocol.md: `window?` (else the screen)
  zoom: [
    { region: { x: 16, y: 288, w: 55, h: 40 } },
    { window: WINDOW, region: { x: 16, y: 288, w: 55, h: 40 }, scale: 2 },
  ],
  pixel_click: [
    { x: 43, y: 308 },
    { x: 43, y: 308, button: "right", count: 2 },
    { x: 43, y: 308, button: "middle", count: 1 },
  ],
  pixel_move: [{ x: 43, y: 308 }],
  pixel_drag: [{ from: { x: 16, y: 288 }, to: { x: 71, y: 328 } }],
  pixel_scroll: [{ dx: 0, dy: 3 }, { dx: -2, dy: 0, x: 43, y: 308 }],
  pixel_type_text: [{ text: "hello" }, { text: "ö ✓" }], // README: `ö`, `✓` are typed too
  pixel_key: [{ keys: "ctrl+a" }, { keys: "Return" }], // protocol.md: `ctrl+a`, `Return`, …
  hold_key: [{ key: "shift", ms: 500 }],
  window: [
    { window: WINDOW, action: "focus" },
    { window: WINDOW, action: "move", x: 100, y: 80 },
    { window: WINDOW, action: "resize", w: 640, h: 480 },
    { window: WINDOW, action: "close", force: true },
  ],
  launch_app: [{ id: "org.gnome.Calculator" }, {
    id: "mousepad.desktop",
    args: ["/tmp/notes.txt"],
  }],
  close_app: [{ app: "gnome-calculator" }, { app: 16658, force: true, grace_ms: 2000 }],
  clipboard_get: [{}, { selection: "primary", max_bytes: 4096 }],
  clipboard_set: [{ text: "78" }, { text: "78", selection: "primary" }],
  // docs/traces.md: without `dir`, a new folder under the data folder's traces/.
  trace_start: [{}, { dir: "/tmp/calc-trace" }],
  trace_stop: [{}],
};

/** One element of README.md's MCP outline of gnome-calculator. */
const display: Element = { ...README_DISPLAY, id: DISPLAY, parent: "3etw3msqp5a0" };

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/**
 * An answer per op, with protocol.md's fields and README.md's "Additions to protocol.md"
 * (`results.ts` requires several of those additions: see results_test.ts).
 */
const DOCUMENTED_RESULT: { [N in OpName]: ResultOf<N> } = {
  hello: {
    name: "allternit-driver",
    version: "0.1.0",
    protocol: 1,
    os: "linux",
    pid: 4242,
    engines: [
      { name: "atspi", available: true, ops: ["list_apps", "read_ui", "act"] },
      { name: "cua", available: false, reason: "cua_driver_not_found", ops: [] },
    ],
    ops: [...PROTOCOL_MD_OPS],
    live: { watched: 0, limit: 8 },
    engine: "atspi",
    ms: 1.2,
  },
  list_apps: {
    apps: [{
      app: "gnome-calculator",
      pid: 16658,
      name: "gnome-calculator",
      windows: [{
        window: WINDOW,
        title: "Calculator",
        bounds: { x: 0, y: 0, w: 355, h: 486 },
        focused: true,
      }],
    }],
    engine: "atspi",
    ms: 3.4,
  },
  read_ui: {
    app: "gnome-calculator",
    pid: 16658,
    window: WINDOW,
    version: 3,
    added: [],
    changed: [display],
    removed: [],
    cached: true,
    live: { state: "live" },
    source: "tree",
    engine: "atspi",
    ms: 0.43,
  },
  act: {
    // README: `ok version=2 effect=changed settled=quiet settle_ms=336 via=action`
    ok: true,
    version: 2,
    via: "action",
    effect: "changed",
    settled: "quiet",
    settle_ms: 336,
    added: [],
    changed: [{ ...display, value: "7" }],
    removed: [],
    engine: "atspi",
    ms: 340,
  },
  run_batch: {
    ok: true,
    results: [
      { ok: true, via: "action", settled: "quiet", ms: 90 },
      { ok: true, via: "pixel", settled: "no_reaction", ms: 610 },
    ],
    version: 4,
    added: [],
    changed: [display],
    removed: [],
    engine: "atspi",
    ms: 702,
  },
  verify: { ok: true, actual: display, version: 3, engine: "atspi", ms: 12 },
  find: JSON.parse(README_FIND_ANSWER).result,
  screenshot: { png: PNG, width: 355, height: 486, scale: 1, engine: "x11", ms: 20 },
  zoom: { png: PNG, width: 110, height: 80, scale: 2, engine: "x11", ms: 21 },
  pixel_click: { ok: true, engine: "x11", ms: 5 },
  pixel_move: { ok: true, engine: "x11", ms: 1 },
  pixel_drag: { ok: true, engine: "x11", ms: 30 },
  pixel_scroll: { ok: true, engine: "x11", ms: 4 },
  pixel_type_text: { ok: true, engine: "x11", ms: 18 },
  pixel_key: { ok: true, engine: "x11", ms: 6 },
  hold_key: { ok: true, engine: "x11", ms: 503 },
  window: {
    ok: true,
    window: WINDOW,
    state: {
      exists: true,
      bounds: { x: 100, y: 80, w: 360, h: 616 },
      state: "normal",
      focused: true,
      stacking: 0,
    },
    engine: "atspi",
    ms: 41.3,
  },
  launch_app: {
    ok: true,
    id: "org.gnome.Calculator",
    pid: 16658,
    app: {
      app: ":1.42",
      pid: 16658,
      name: "gnome-calculator",
      windows: [{
        window: WINDOW,
        title: "Calculator",
        bounds: { x: 0, y: 0, w: 360, h: 616 },
        focused: true,
        role: "window",
        modal: false,
      }],
    },
    engine: "atspi",
    ms: 812,
  },
  close_app: {
    ok: true,
    windows: [{ window: WINDOW, title: "Calculator", closed: true }],
    exited: true,
    engine: "atspi",
    ms: 230,
  },
  clipboard_get: { selection: "clipboard", text: "78", engine: "atspi", ms: 3.1 },
  clipboard_set: { ok: true, selection: "clipboard", bytes: 2, engine: "atspi", ms: 2.4 },
  trace_start: { path: "/tmp/calc-trace", engine: "driver", ms: 0.4 },
  trace_stop: {
    path: "/tmp/calc-trace",
    ops: 3,
    images: 4,
    image_bytes: 61_204,
    images_capped: false,
    engine: "driver",
    ms: 1.2,
  },
};

/** The smallest params each op takes: its required fields only. */
const MINIMAL_PARAMS: { [N in OpName]: ParamsOf<N> } = {
  hello: {},
  list_apps: {},
  read_ui: {},
  act: { window: WINDOW, version: 1, id: SEVEN, action: "press" },
  run_batch: { window: WINDOW, version: 1, steps: [{ id: SEVEN, action: "press" }] },
  verify: { window: WINDOW, id: DISPLAY, expect: { exists: true } },
  find: { window: WINDOW, query: {} },
  screenshot: {},
  zoom: { region: { x: 0, y: 0, w: 1, h: 1 } },
  pixel_click: { x: 1, y: 2 },
  pixel_move: { x: 1, y: 2 },
  pixel_drag: { from: { x: 1, y: 2 }, to: { x: 3, y: 4 } },
  pixel_scroll: { dx: 0, dy: 1 },
  pixel_type_text: { text: "" },
  pixel_key: { keys: "a" },
  hold_key: { key: "a", ms: 1 },
  window: { window: WINDOW, action: "raise" },
  launch_app: { id: "xcalc" },
  close_app: { app: "xcalc" },
  clipboard_get: {},
  clipboard_set: { text: "" },
  trace_start: {},
  trace_stop: {},
};

function issues(result: { success: boolean; error?: z.ZodError }): string {
  return JSON.stringify(result.error?.issues ?? []);
}

function paramsOf(op: OpName): z.ZodType {
  return OPS[op].params;
}

function resultOf(op: OpName): z.ZodType {
  return OPS[op].result;
}

/** Asserts `schema` rejects `value` with an issue whose path is exactly `path`. */
function assertIssueAt(schema: z.ZodType, value: unknown, path: (string | number)[]): void {
  const result = schema.safeParse(value);
  assert.equal(result.success, false, `accepted ${JSON.stringify(value)}`);
  const paths = result.error!.issues.map((i) => JSON.stringify(i.path));
  assert.ok(paths.includes(JSON.stringify(path)), `no issue at ${path}: ${issues(result)}`);
}

Deno.test("ops table: names are exactly protocol.md's ops, in its order", () => {
  assert.deepEqual([...OP_NAMES], PROTOCOL_MD_OPS);
});

Deno.test("ops table: names are unique", () => {
  assert.equal(new Set(OP_NAMES).size, OP_NAMES.length);
});

Deno.test("ops table: OP_NAMES lists every key of OPS", () => {
  assert.deepEqual([...OP_NAMES].sort(), Object.keys(OPS).sort());
});

Deno.test("ops table: names are snake_case", () => {
  for (const op of OP_NAMES) assert.match(op, /^[a-z]+(_[a-z]+)*$/, op);
});

Deno.test("ops table: every op has a known kind", () => {
  const kinds: readonly OpKind[] = ["meta", "read", "action", "input"];
  for (const op of OP_NAMES) assert.ok(kinds.includes(OPS[op].kind), op);
});

Deno.test("ops table: every op has a one-line summary ending in a full stop", () => {
  for (const op of OP_NAMES) {
    const summary = OPS[op].summary;
    assert.equal(typeof summary, "string", op);
    assert.ok(summary.trim().length > 0, op);
    assert.ok(!summary.includes("\n"), op);
    assert.equal(summary, summary.trim(), op);
    assert.ok(summary.endsWith("."), op);
  }
});

Deno.test("ops table: summaries are distinct", () => {
  const summaries = OP_NAMES.map((op) => OPS[op].summary);
  assert.equal(new Set(summaries).size, summaries.length);
});

Deno.test("ops table: every op has a params and a result schema", () => {
  for (const op of OP_NAMES) {
    assert.equal(typeof OPS[op].params.safeParse, "function", op);
    assert.equal(typeof OPS[op].result.safeParse, "function", op);
  }
});

Deno.test("ops table: kinds sort ops into meta, read, action and input", () => {
  const byKind: Record<OpKind, string[]> = { meta: [], read: [], action: [], input: [] };
  for (const op of OP_NAMES) byKind[OPS[op].kind].push(op);
  assert.deepEqual(byKind, {
    meta: ["hello", "list_apps", "trace_start", "trace_stop"],
    read: ["read_ui", "verify", "find", "screenshot", "zoom", "clipboard_get"],
    action: ["act", "run_batch", "window", "launch_app", "close_app", "clipboard_set"],
    input: [
      "pixel_click",
      "pixel_move",
      "pixel_drag",
      "pixel_scroll",
      "pixel_type_text",
      "pixel_key",
      "hold_key",
    ],
  });
});

Deno.test("ops table: only verify waits on its timeout_ms", () => {
  assert.deepEqual(OP_NAMES.filter((op) => OPS[op].waits === true), ["verify"]);
});

Deno.test("isOpName() accepts every op of the table", () => {
  for (const op of OP_NAMES) assert.ok(isOpName(op), op);
});

Deno.test("isOpName() rejects unknown names and Object.prototype members", () => {
  for (const name of ["", "READ_UI", "read-ui", "click", "toString", "constructor", "__proto__"]) {
    assert.equal(isOpName(name), false, name);
  }
});

for (const op of OP_NAMES) {
  Deno.test(`ops table: ${op} accepts its documented params`, () => {
    assert.ok(DOCUMENTED_PARAMS[op].length > 0);
    for (const example of DOCUMENTED_PARAMS[op]) {
      const result = paramsOf(op).safeParse(example);
      assert.ok(result.success, `${JSON.stringify(example)}: ${issues(result)}`);
      assert.deepEqual(result.data, example, "nothing is added or dropped");
    }
  });
}

for (const op of OP_NAMES) {
  Deno.test(`ops table: ${op} result accepts a documented answer`, () => {
    const answer = DOCUMENTED_RESULT[op];
    const result = resultOf(op).safeParse(answer);
    assert.ok(result.success, issues(result));
    assert.deepEqual(result.data, answer, "nothing is added or dropped");
  });
}

for (const op of OP_NAMES) {
  Deno.test(`ops table: ${op} result requires engine and ms`, () => {
    const { engine: _engine, ...noEngine } = DOCUMENTED_RESULT[op];
    assertIssueAt(resultOf(op), noEngine, ["engine"]);
    const { ms: _ms, ...noMs } = DOCUMENTED_RESULT[op];
    assertIssueAt(resultOf(op), noMs, ["ms"]);
  });
}

for (const op of OP_NAMES) {
  Deno.test(`ops table: ${op} result rejects an unknown member`, () => {
    assertIssueAt(resultOf(op), { ...DOCUMENTED_RESULT[op], extra: 1 }, []);
  });
}

for (const op of OP_NAMES) {
  Deno.test(`ops table: ${op} params accept a timeout_ms from 1 to 600000`, () => {
    for (const timeout_ms of [1, 30_000, 600_000]) {
      const result = paramsOf(op).safeParse({ ...MINIMAL_PARAMS[op], timeout_ms });
      assert.ok(result.success, `${timeout_ms}: ${issues(result)}`);
    }
  });
}

for (const op of OP_NAMES) {
  Deno.test(`ops table: ${op} params reject a zero, negative, fractional, huge or string timeout_ms`, () => {
    for (const timeout_ms of [0, -1, 1.5, 600_001, "1000", null]) {
      assertIssueAt(paramsOf(op), { ...MINIMAL_PARAMS[op], timeout_ms }, ["timeout_ms"]);
    }
  });
}

for (const op of OP_NAMES) {
  Deno.test(`ops table: ${op} params reject an unknown (misspelt) field`, () => {
    const result = paramsOf(op).safeParse({ ...MINIMAL_PARAMS[op], timeout: 5 });
    assert.equal(result.success, false);
    const issue = result.error!.issues.find((i) => i.code === "unrecognized_keys");
    assert.ok(issue, issues(result));
    assert.deepEqual(issue.path, []);
    assert.deepEqual((issue as { keys: string[] }).keys, ["timeout"]);
  });
}

for (const op of OP_NAMES) {
  Deno.test(`ops table: ${op} params reject a non-object`, () => {
    for (const value of [null, [], "{}", 1, true]) {
      assertIssueAt(paramsOf(op), value, []);
    }
  });
}
