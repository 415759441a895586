import assert from "node:assert/strict";
import fc from "fast-check";
import type { z } from "zod";
import { OPS } from "./ops.ts";
import { assertIssueAt, issues } from "./_testing.ts";

const WINDOW = "w885ab437";
const ID = "43ysv4bvdn53";

const ACT = { window: WINDOW, version: 1, id: ID, action: "press" };
const BATCH = { window: WINDOW, version: 1, steps: [{ id: ID, action: "press" }] };
const VERIFY = { window: WINDOW, id: ID, expect: { exists: true } };
const FIND = { window: WINDOW, query: { role: "AXButton" } };
const ZOOM = { region: { x: 0, y: 0, w: 10, h: 10 } };

/** The issue at `path`, asserting `schema` rejects `value`. */
function issueAt(schema: z.ZodType, value: unknown, path: (string | number)[]) {
  assertIssueAt(schema, value, path);
  const result = schema.safeParse(value);
  return result.error!.issues.find((i) => JSON.stringify(i.path) === JSON.stringify(path))!;
}

function assertAccepts(schema: z.ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  assert.ok(result.success, `${JSON.stringify(value)}: ${issues(result)}`);
}

function without(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

// hello, list_apps

Deno.test("params: hello rejects a field other than timeout_ms", () => {
  assertIssueAt(OPS.hello.params, { app: "gnome-calculator" }, []);
});

Deno.test("params: list_apps rejects a field other than timeout_ms", () => {
  assertIssueAt(OPS.list_apps.params, { window: WINDOW }, []);
});

// read_ui

Deno.test("params: read_ui rejects an app that is neither a name nor a pid", () => {
  for (const app of [true, null, ["gnome-calculator"], { pid: 1 }]) {
    assertIssueAt(OPS.read_ui.params, { app }, ["app"]);
  }
});

Deno.test("params: read_ui rejects an empty app name", () => {
  assertIssueAt(OPS.read_ui.params, { app: "" }, ["app"]);
});

Deno.test("params: read_ui rejects a zero, negative or fractional pid", () => {
  for (const app of [0, -1, 16658.5]) assertIssueAt(OPS.read_ui.params, { app }, ["app"]);
});

Deno.test("params: read_ui rejects an empty or non-string window", () => {
  for (const window of ["", 885, null]) assertIssueAt(OPS.read_ui.params, { window }, ["window"]);
});

Deno.test("params: read_ui rejects a negative, fractional or string since", () => {
  for (const since of [-1, 1.5, "2"]) assertIssueAt(OPS.read_ui.params, { since }, ["since"]);
});

Deno.test("params: read_ui accepts since 0", () => {
  assertAccepts(OPS.read_ui.params, { window: WINDOW, since: 0 });
});

Deno.test("params: read_ui accepts any non-negative integer since", () => {
  fc.assert(fc.property(fc.nat(), (since) => OPS.read_ui.params.safeParse({ since }).success));
});

Deno.test("params: read_ui rejects a non-boolean fresh or crops", () => {
  assertIssueAt(OPS.read_ui.params, { fresh: "true" }, ["fresh"]);
  assertIssueAt(OPS.read_ui.params, { crops: 1 }, ["crops"]);
});

Deno.test("params: read_ui rejects max_elements outside 1 to 100000 or fractional", () => {
  for (const max_elements of [0, -5, 100_001, 2.5]) {
    assertIssueAt(OPS.read_ui.params, { max_elements }, ["max_elements"]);
  }
  assertAccepts(OPS.read_ui.params, { max_elements: 1 });
  assertAccepts(OPS.read_ui.params, { max_elements: 100_000 });
});

// act

Deno.test("params: act rejects each missing required field", () => {
  for (const key of ["window", "version", "id", "action"]) {
    assertIssueAt(OPS.act.params, without(ACT, key), [key]);
  }
});

Deno.test("params: act rejects an action outside protocol.md's list", () => {
  for (const action of ["tap", "PRESS", "double_click", "hold_key", ""]) {
    const issue = issueAt(OPS.act.params, { ...ACT, action }, ["action"]);
    assert.equal(issue.code, "invalid_value");
  }
});

Deno.test("params: act rejects a negative, fractional or string version", () => {
  for (const version of [-1, 0.5, "1"]) {
    assertIssueAt(OPS.act.params, { ...ACT, version }, ["version"]);
  }
});

Deno.test("params: act rejects an empty window or id", () => {
  assertIssueAt(OPS.act.params, { ...ACT, window: "" }, ["window"]);
  assertIssueAt(OPS.act.params, { ...ACT, id: "" }, ["id"]);
});

Deno.test("params: act rejects a non-string value", () => {
  assertIssueAt(OPS.act.params, { ...ACT, action: "set_value", value: 78 }, ["value"]);
});

Deno.test("params: act requires a value for set_value and type_text", () => {
  for (const action of ["set_value", "type_text"]) {
    const issue = issueAt(OPS.act.params, { ...ACT, action }, ["value"]);
    assert.equal(issue.message, "Required for set_value and type_text");
  }
});

Deno.test("params: act accepts an empty value for set_value", () => {
  assertAccepts(OPS.act.params, { ...ACT, action: "set_value", value: "" });
});

Deno.test("params: act accepts a value on an action that takes none", () => {
  assertAccepts(OPS.act.params, { ...ACT, action: "press", value: "ignored" });
});

// run_batch

Deno.test("params: run_batch rejects each missing required field", () => {
  for (const key of ["window", "version", "steps"]) {
    assertIssueAt(OPS.run_batch.params, without(BATCH, key), [key]);
  }
});

Deno.test("params: run_batch rejects a negative version", () => {
  assertIssueAt(OPS.run_batch.params, { ...BATCH, version: -1 }, ["version"]);
});

Deno.test("params: run_batch rejects an empty list of steps", () => {
  assertIssueAt(OPS.run_batch.params, { ...BATCH, steps: [] }, ["steps"]);
});

Deno.test("params: run_batch takes at most 200 steps", () => {
  const step = { id: ID, action: "press" };
  assertAccepts(OPS.run_batch.params, { ...BATCH, steps: Array(200).fill(step) });
  assertIssueAt(OPS.run_batch.params, { ...BATCH, steps: Array(201).fill(step) }, ["steps"]);
});

Deno.test("params: run_batch rejects a step with an unknown action", () => {
  assertIssueAt(OPS.run_batch.params, { ...BATCH, steps: [{ id: ID, action: "tap" }] }, [
    "steps",
    0,
  ]);
});

Deno.test("params: run_batch rejects a step that carries window and version", () => {
  const step = { window: WINDOW, version: 1, id: ID, action: "press" };
  assertIssueAt(OPS.run_batch.params, { ...BATCH, steps: [step] }, ["steps", 0]);
});

Deno.test("params: run_batch requires a value on set_value and type_text steps", () => {
  const steps = [{ id: ID, action: "press" }, { id: ID, action: "type_text" }];
  assertIssueAt(OPS.run_batch.params, { ...BATCH, steps }, ["steps", 1, "value"]);
});

Deno.test("params: run_batch rejects a pixel step with a malformed field", () => {
  const steps = [{ op: "pixel_click", x: "43", y: 308 }];
  const issue = issueAt(OPS.run_batch.params, { ...BATCH, steps }, ["steps", 0]);
  assert.equal(issue.code, "invalid_union");
  assert.ok(JSON.stringify(issue).includes('"path":["x"]'), JSON.stringify(issue));
});

Deno.test("params: run_batch rejects a pixel step without op", () => {
  assertIssueAt(OPS.run_batch.params, { ...BATCH, steps: [{ x: 43, y: 308 }] }, ["steps", 0]);
});

Deno.test("params: run_batch rejects hold_key and non-pixel ops as steps", () => {
  for (const step of [{ op: "hold_key", key: "a", ms: 5 }, { op: "read_ui" }]) {
    assertIssueAt(OPS.run_batch.params, { ...BATCH, steps: [step] }, ["steps", 0]);
  }
});

Deno.test("params: run_batch accepts every pixel_* op but hold_key as a step", () => {
  const steps = [
    { op: "pixel_click", x: 1, y: 2, button: "left", count: 1 },
    { op: "pixel_move", x: 1, y: 2 },
    { op: "pixel_drag", from: { x: 1, y: 2 }, to: { x: 3, y: 4 } },
    { op: "pixel_scroll", dx: 0, dy: 1 },
    { op: "pixel_type_text", text: "7" },
    { op: "pixel_key", keys: "Return" },
  ];
  assertAccepts(OPS.run_batch.params, { ...BATCH, steps });
});

Deno.test("params: run_batch rejects a non-boolean stop_on_error", () => {
  assertIssueAt(OPS.run_batch.params, { ...BATCH, stop_on_error: "yes" }, ["stop_on_error"]);
});

// verify

Deno.test("params: verify rejects both id and query", () => {
  const value = { ...VERIFY, query: { role: "AXButton" } };
  const issue = issueAt(OPS.verify.params, value, ["id"]);
  assert.equal(issue.message, 'Give exactly one of "id" or "query"');
});

Deno.test("params: verify rejects neither id nor query", () => {
  assertIssueAt(OPS.verify.params, without(VERIFY, "id"), ["id"]);
});

Deno.test("params: verify rejects a missing window or expect", () => {
  assertIssueAt(OPS.verify.params, without(VERIFY, "window"), ["window"]);
  assertIssueAt(OPS.verify.params, without(VERIFY, "expect"), ["expect"]);
});

Deno.test("params: verify rejects an expectation of the wrong type", () => {
  assertIssueAt(OPS.verify.params, { ...VERIFY, expect: { exists: "yes" } }, ["expect", "exists"]);
  assertIssueAt(OPS.verify.params, { ...VERIFY, expect: { value: 78 } }, ["expect", "value"]);
  assertIssueAt(OPS.verify.params, { ...VERIFY, expect: { enabled: 1 } }, ["expect", "enabled"]);
});

Deno.test("params: verify rejects an unknown expectation", () => {
  assertIssueAt(OPS.verify.params, { ...VERIFY, expect: { visible: true } }, ["expect"]);
});

Deno.test("params: verify rejects name_contains in its query", () => {
  const value = { window: WINDOW, query: { name_contains: "7" }, expect: {} };
  assertIssueAt(OPS.verify.params, value, ["query"]);
});

Deno.test("params: verify rejects a query field of the wrong type", () => {
  const value = { window: WINDOW, query: { role: 1 }, expect: {} };
  assertIssueAt(OPS.verify.params, value, ["query", "role"]);
});

// find

Deno.test("params: find rejects a missing window or query", () => {
  assertIssueAt(OPS.find.params, without(FIND, "window"), ["window"]);
  assertIssueAt(OPS.find.params, without(FIND, "query"), ["query"]);
});

Deno.test("params: find rejects a query field of the wrong type", () => {
  assertIssueAt(OPS.find.params, { ...FIND, query: { name_contains: 7 } }, [
    "query",
    "name_contains",
  ]);
});

Deno.test("params: find rejects an unknown query field", () => {
  assertIssueAt(OPS.find.params, { ...FIND, query: { label: "7" } }, ["query"]);
});

Deno.test("params: find accepts an empty query", () => {
  assertAccepts(OPS.find.params, { window: WINDOW, query: {} });
});

// screenshot

Deno.test("params: screenshot rejects an empty or non-string window", () => {
  for (const window of ["", 1]) assertIssueAt(OPS.screenshot.params, { window }, ["window"]);
});

// zoom

Deno.test("params: zoom rejects a missing region", () => {
  assertIssueAt(OPS.zoom.params, {}, ["region"]);
});

Deno.test("params: zoom rejects a region without a positive size", () => {
  for (const size of [{ w: 0, h: 10 }, { w: 10, h: 0 }, { w: -10, h: 10 }]) {
    const issue = issueAt(OPS.zoom.params, { region: { x: 0, y: 0, ...size } }, ["region"]);
    assert.equal(issue.message, "Region must have a positive size");
  }
});

Deno.test("params: zoom rejects a region member of the wrong type or missing", () => {
  assertIssueAt(OPS.zoom.params, { region: { x: "0", y: 0, w: 1, h: 1 } }, ["region", "x"]);
  assertIssueAt(OPS.zoom.params, { region: { x: 0, y: 0, w: 1 } }, ["region", "h"]);
});

Deno.test("params: zoom drops an unknown region member rather than rejecting it", () => {
  const result = OPS.zoom.params.safeParse({ region: { x: 0, y: 0, w: 1, h: 1, z: 2 } });
  assert.ok(result.success, issues(result));
  assert.deepEqual(result.data, { region: { x: 0, y: 0, w: 1, h: 1 } });
});

Deno.test("params: zoom rejects a scale outside 0.1 to 8 or not a number", () => {
  for (const scale of [0, 0.05, 8.5, -1, "2"]) {
    assertIssueAt(OPS.zoom.params, { ...ZOOM, scale }, ["scale"]);
  }
  assertAccepts(OPS.zoom.params, { ...ZOOM, scale: 0.1 });
  assertAccepts(OPS.zoom.params, { ...ZOOM, scale: 8 });
});

// pixel_click

Deno.test("params: pixel_click rejects a missing or non-numeric x or y", () => {
  assertIssueAt(OPS.pixel_click.params, { y: 1 }, ["x"]);
  assertIssueAt(OPS.pixel_click.params, { x: 1, y: "1" }, ["y"]);
  assertIssueAt(OPS.pixel_click.params, { x: Number.NaN, y: 1 }, ["x"]);
});

Deno.test("params: pixel_click accepts negative and fractional screen points", () => {
  assertAccepts(OPS.pixel_click.params, { x: -1920, y: 10.5 });
});

Deno.test("params: pixel_click rejects an unknown button", () => {
  for (const button of ["double", "LEFT", "back", 1]) {
    assertIssueAt(OPS.pixel_click.params, { x: 1, y: 1, button }, ["button"]);
  }
});

Deno.test("params: pixel_click rejects a count outside 1 to 3 or fractional", () => {
  for (const count of [0, -1, 4, 1.5]) {
    assertIssueAt(OPS.pixel_click.params, { x: 1, y: 1, count }, ["count"]);
  }
});

// pixel_move

Deno.test("params: pixel_move rejects a missing or non-numeric x or y", () => {
  assertIssueAt(OPS.pixel_move.params, { x: 1 }, ["y"]);
  assertIssueAt(OPS.pixel_move.params, { x: "1", y: 1 }, ["x"]);
});

// pixel_drag

Deno.test("params: pixel_drag rejects a missing from or to", () => {
  assertIssueAt(OPS.pixel_drag.params, { to: { x: 1, y: 1 } }, ["from"]);
  assertIssueAt(OPS.pixel_drag.params, { from: { x: 1, y: 1 } }, ["to"]);
});

Deno.test("params: pixel_drag rejects a point of the wrong shape", () => {
  const to = { x: 3, y: 4 };
  assertIssueAt(OPS.pixel_drag.params, { from: { x: "1", y: 2 }, to }, ["from", "x"]);
  assertIssueAt(OPS.pixel_drag.params, { from: [1, 2], to }, ["from"]);
  assertIssueAt(OPS.pixel_drag.params, { from: { x: 1, y: 2, w: 3 }, to }, ["from"]);
});

// pixel_scroll

Deno.test("params: pixel_scroll rejects a missing dx or dy", () => {
  assertIssueAt(OPS.pixel_scroll.params, { dy: 1 }, ["dx"]);
  assertIssueAt(OPS.pixel_scroll.params, { dx: 1 }, ["dy"]);
});

Deno.test("params: pixel_scroll rejects fractional wheel steps", () => {
  assertIssueAt(OPS.pixel_scroll.params, { dx: 0.5, dy: 0 }, ["dx"]);
  assertIssueAt(OPS.pixel_scroll.params, { dx: 0, dy: -1.5 }, ["dy"]);
});

Deno.test("params: pixel_scroll accepts wheel steps from -1000 to 1000 and rejects more", () => {
  const steps = fc.integer({ min: -1_000, max: 1_000 });
  fc.assert(
    fc.property(steps, steps, (dx, dy) => OPS.pixel_scroll.params.safeParse({ dx, dy }).success),
  );
  // A flood of wheel events once stalled the accessibility bus (issue 22): bounded per call.
  for (const dy of [1_001, -1_001, 1e5, 1e12]) {
    assertIssueAt(OPS.pixel_scroll.params, { dx: 0, dy }, ["dy"]);
  }
});

Deno.test("params: every pixel coordinate stays within a 16-bit screen, named by its field", () => {
  for (const v of [1e308, -1e308, 1e12, 2 ** 31, 2 ** 53 + 1, 32_768, -32_768]) {
    assertIssueAt(OPS.pixel_click.params, { x: v, y: 1 }, ["x"]);
    assertIssueAt(OPS.pixel_move.params, { x: 1, y: v }, ["y"]);
    assertIssueAt(OPS.pixel_scroll.params, { dx: 0, dy: 1, x: v }, ["x"]);
    assertIssueAt(OPS.pixel_drag.params, { from: { x: v, y: 1 }, to: { x: 1, y: 1 } }, [
      "from",
      "x",
    ]);
  }
  assertAccepts(OPS.pixel_click.params, { x: 32_767, y: -32_767 });
});

Deno.test("params: pixel_scroll rejects a non-numeric x or y", () => {
  assertIssueAt(OPS.pixel_scroll.params, { dx: 0, dy: 1, x: "1", y: 1 }, ["x"]);
});

// pixel_type_text

Deno.test("params: pixel_type_text rejects a missing or non-string text", () => {
  assertIssueAt(OPS.pixel_type_text.params, {}, ["text"]);
  assertIssueAt(OPS.pixel_type_text.params, { text: 78 }, ["text"]);
});

Deno.test("params: pixel_type_text takes at most 10000 characters", () => {
  assertAccepts(OPS.pixel_type_text.params, { text: "a".repeat(10_000) });
  assertIssueAt(OPS.pixel_type_text.params, { text: "a".repeat(10_001) }, ["text"]);
});

Deno.test("params: strings a client chooses are bounded, naming the field", () => {
  const long = "x".repeat(4 * 1024 * 1024);
  assertIssueAt(OPS.read_ui.params, { app: long }, ["app"]);
  assertIssueAt(OPS.read_ui.params, { window: "w".repeat(257) }, ["window"]);
  assertIssueAt(OPS.read_ui.params, { app: 2 ** 53 }, ["app"]);
  assertIssueAt(OPS.find.params, { window: "w", query: { name: long } }, ["query", "name"]);
  assertIssueAt(
    OPS.act.params,
    { window: "w", version: 1, id: "e".repeat(257), action: "press" },
    ["id"],
  );
  assertIssueAt(OPS.pixel_key.params, { keys: "a+".repeat(600) }, ["keys"]);
  assertAccepts(OPS.read_ui.params, { app: "a".repeat(256) });
});

// pixel_key

Deno.test("params: pixel_key rejects an empty, missing or non-string keys", () => {
  for (const value of [{ keys: "" }, {}, { keys: ["ctrl", "a"] }]) {
    assertIssueAt(OPS.pixel_key.params, value, ["keys"]);
  }
});

// hold_key

Deno.test("params: hold_key rejects a missing or empty key", () => {
  assertIssueAt(OPS.hold_key.params, { ms: 100 }, ["key"]);
  assertIssueAt(OPS.hold_key.params, { key: "", ms: 100 }, ["key"]);
});

Deno.test("params: hold_key rejects ms outside 1 to 60000, fractional or missing", () => {
  for (const ms of [0, -5, 60_001, 1.5, "100"]) {
    assertIssueAt(OPS.hold_key.params, { key: "shift", ms }, ["ms"]);
  }
  assertIssueAt(OPS.hold_key.params, { key: "shift" }, ["ms"]);
});

Deno.test("params: hold_key accepts any ms from 1 to 60000", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 60_000 }),
      (ms) => OPS.hold_key.params.safeParse({ key: "shift", ms }).success,
    ),
  );
});

Deno.test("act: extend belongs to select alone, guard is window or element", () => {
  const act = OPS.act.params;
  assert.ok(act.safeParse({ ...ACT, action: "select", extend: true }).success);
  assert.equal(
    issueAt(act, { ...ACT, extend: true }, ["extend"]).message,
    "Only select takes extend",
  );
  assert.ok(act.safeParse({ ...ACT, guard: "element" }).success);
  assertIssueAt(act, { ...ACT, guard: "row" }, ["guard"]);
  const batch = OPS.run_batch.params;
  assert.ok(
    batch.safeParse({ ...BATCH, steps: [{ id: ID, action: "select", extend: true }] }).success,
  );
  assertIssueAt(batch, { ...BATCH, steps: [{ id: ID, action: "press", extend: true }] }, [
    "steps",
    0,
    "extend",
  ]);
});

Deno.test("act: commit belongs to set_value alone, and is enter", () => {
  const act = OPS.act.params;
  const set = { ...ACT, action: "set_value", value: "2" };
  assert.ok(act.safeParse({ ...set, commit: "enter" }).success);
  assertIssueAt(act, { ...set, commit: "tab" }, ["commit"]);
  assert.equal(
    issueAt(act, { ...ACT, commit: "enter" }, ["commit"]).message,
    "Only set_value takes commit",
  );
  const batch = OPS.run_batch.params;
  const step = { id: ID, action: "set_value", value: "2", commit: "enter" };
  assert.ok(batch.safeParse({ ...BATCH, steps: [step] }).success);
  assertIssueAt(batch, { ...BATCH, steps: [{ ...step, action: "type_text" }] }, [
    "steps",
    0,
    "commit",
  ]);
});
