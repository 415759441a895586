import assert from "node:assert/strict";
import type { z } from "zod";
import { OPS } from "./ops.ts";
import { LiveState, StepResult } from "./results.ts";
import { assertIssueAt, DISPLAY, issues } from "./_testing.ts";

const WINDOW = "w885ab437";
const PNG = "iVBORw0KGgo=";

/** A full `read_ui` answer: protocol.md's fields plus README's `pid`. */
const READ = {
  app: "gnome-calculator",
  pid: 16658,
  window: WINDOW,
  version: 1,
  elements: [DISPLAY],
  cached: false,
  live: { state: "live" },
  source: "tree",
  engine: "atspi",
  ms: 22,
};

/** A settled `act` answer as README's MCP example prints it. */
const ACT = {
  ok: true,
  version: 2,
  via: "action",
  effect: "changed",
  settled: "quiet",
  settle_ms: 336,
  added: [],
  changed: [DISPLAY],
  removed: [],
  engine: "atspi",
  ms: 340,
};

function assertAccepts(schema: z.ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  assert.ok(result.success, `${JSON.stringify(value)}: ${issues(result)}`);
}

// Answers shaped exactly as protocol.md's "Ops" table lists them. README calls several
// members "additions to protocol.md, all optional", but results.ts requires them.

Deno.test("results: act requires via, effect, settled, settle_ms, added, changed, removed", () => {
  // protocol.md: `ok, version` (after the action settled), `changed?`
  const bare = { ok: true, version: 2, engine: "atspi", ms: 340 };
  for (const key of ["via", "effect", "settled", "settle_ms", "added", "changed", "removed"]) {
    assertIssueAt(OPS.act.result, bare, [key]);
  }
});

Deno.test("results: run_batch requires ok, added, changed and removed", () => {
  // protocol.md: `results[]` per step, `version`
  const bare = { results: [{ ok: true, ms: 90 }], version: 4, engine: "atspi", ms: 700 };
  for (const key of ["ok", "added", "changed", "removed"]) {
    assertIssueAt(OPS.run_batch.result, bare, [key]);
  }
});

Deno.test("results: verify requires a version", () => {
  // protocol.md: `ok, actual`
  assertIssueAt(OPS.verify.result, { ok: true, actual: DISPLAY, engine: "atspi", ms: 5 }, [
    "version",
  ]);
});

Deno.test("results: find requires a version", () => {
  // protocol.md: `elements[]` (README's real answer carries `version`)
  assertIssueAt(OPS.find.result, { elements: [DISPLAY], engine: "atspi", ms: 5 }, ["version"]);
});

Deno.test("results: zoom requires a scale", () => {
  // protocol.md: `png`, `width, height`
  assertIssueAt(OPS.zoom.result, { png: PNG, width: 110, height: 80, engine: "x11", ms: 5 }, [
    "scale",
  ]);
});

Deno.test("results: read_ui requires a pid", () => {
  const { pid: _pid, ...noPid } = READ;
  assertIssueAt(OPS.read_ui.result, noPid, ["pid"]);
});

Deno.test("results: a run_batch step requires ok and ms", () => {
  assertIssueAt(StepResult, { ms: 5 }, ["ok"]);
  assertIssueAt(StepResult, { ok: true }, ["ms"]);
});

// read_ui

Deno.test("results: read_ui accepts a reset answer with the whole map", () => {
  assertAccepts(OPS.read_ui.result, { ...READ, version: 9, reset: true, cached: true });
});

Deno.test("results: read_ui accepts a degraded vision read with an unread element", () => {
  const key = { ...DISPLAY, role: "AXButton", name: "", unread: "ocr_ambiguous" };
  assertAccepts(OPS.read_ui.result, {
    ...READ,
    app: "xcalc",
    elements: [key],
    live: { state: "degraded", reason: "no_notifications" },
    source: "vision",
    degraded: true,
    degraded_reason: "no accessibility tree",
    truncated: false,
  });
});

Deno.test("results: read_ui accepts source both with a source_reason", () => {
  assertAccepts(OPS.read_ui.result, { ...READ, source: "both", source_reason: "thin tree" });
});

Deno.test("results: read_ui rejects a source other than tree, vision or both", () => {
  assertIssueAt(OPS.read_ui.result, { ...READ, source: "pixels" }, ["source"]);
});

Deno.test("results: read_ui rejects a live state other than live or degraded", () => {
  assertIssueAt(OPS.read_ui.result, { ...READ, live: { state: "stale" } }, ["live", "state"]);
});

Deno.test("results: read_ui rejects removed entries that are not ids", () => {
  assertIssueAt(OPS.read_ui.result, { ...READ, removed: [DISPLAY] }, ["removed", 0]);
});

Deno.test("results: read_ui rejects a malformed element at its index", () => {
  const bad = { ...DISPLAY, crop: "XYZ" };
  assertIssueAt(OPS.read_ui.result, { ...READ, elements: [DISPLAY, bad] }, [
    "elements",
    1,
    "crop",
  ]);
});

Deno.test("results: an element's unknown member is dropped, not rejected", () => {
  const result = OPS.read_ui.result.safeParse({ ...READ, elements: [{ ...DISPLAY, x: 1 }] });
  assert.ok(result.success, issues(result));
  assert.deepEqual(result.data.elements, [DISPLAY]);
});

Deno.test("LiveState: accepts live and degraded with a reason", () => {
  assertAccepts(LiveState, { state: "live" });
  assertAccepts(LiveState, { state: "degraded", reason: "bounds_flood: 180/s" });
});

// act

Deno.test("results: act answers ok false with the value found, and ok is a boolean", () => {
  assertAccepts(OPS.act.result, { ...ACT, ok: false, value: "12" });
  assertAccepts(OPS.act.result, { ...ACT, via: "keys" });
  assertIssueAt(OPS.act.result, { ...ACT, ok: "yes" }, ["ok"]);
});

Deno.test("results: act accepts every settle outcome", () => {
  for (const settled of ["quiet", "no_reaction", "timeout"]) {
    assertAccepts(OPS.act.result, { ...ACT, settled });
  }
});

Deno.test("results: act rejects an unknown settle outcome, via or effect", () => {
  assertIssueAt(OPS.act.result, { ...ACT, settled: "slow" }, ["settled"]);
  assertIssueAt(OPS.act.result, { ...ACT, via: "keyboard" }, ["via"]);
  assertIssueAt(OPS.act.result, { ...ACT, effect: "maybe" }, ["effect"]);
});

Deno.test("results: act rejects a fractional version", () => {
  assertIssueAt(OPS.act.result, { ...ACT, version: 2.5 }, ["version"]);
});

// run_batch

Deno.test("results: run_batch accepts a failed step, then skipped steps", () => {
  assertAccepts(OPS.run_batch.result, {
    ok: false,
    results: [
      { ok: true, via: "action", settled: "quiet", ms: 90 },
      { ok: false, error: { code: "element_not_found", message: "No element" }, ms: 2 },
      { ok: false, skipped: true, ms: 0 },
    ],
    version: 2,
    added: [],
    changed: [],
    removed: [],
    engine: "atspi",
    ms: 95,
  });
});

Deno.test("results: a run_batch step error needs a code and a message only", () => {
  assertIssueAt(StepResult, { ok: false, error: { code: "timeout" }, ms: 1 }, [
    "error",
    "message",
  ]);
  assertIssueAt(StepResult, { ok: false, error: { code: "timeout", message: "x", ms: 1 }, ms: 1 }, [
    "error",
  ]);
});

// verify

Deno.test("results: verify accepts a null actual when the element is gone", () => {
  assertAccepts(OPS.verify.result, { ok: false, actual: null, version: 3, engine: "x", ms: 1 });
});

Deno.test("results: verify rejects a missing actual", () => {
  assertIssueAt(OPS.verify.result, { ok: false, version: 3, engine: "x", ms: 1 }, ["actual"]);
});

// hello

const HELLO = {
  name: "allternit-driver",
  version: "0.1.0",
  protocol: 1,
  os: "linux",
  pid: 4242,
  engines: [{ name: "atspi", available: true, ops: ["read_ui"] }],
  ops: ["hello"],
  live: { watched: 2, limit: 8 },
  engine: "atspi",
  ms: 1,
};

Deno.test("results: hello accepts engine stats in live and a router summary", () => {
  assertAccepts(OPS.hello.result, {
    ...HELLO,
    live: { watched: 2, limit: 8, calls: 120, walks: 3 },
    router: { decisions: 4 },
  });
});

Deno.test("results: hello rejects a protocol other than 1", () => {
  assertIssueAt(OPS.hello.result, { ...HELLO, protocol: 2 }, ["protocol"]);
});

Deno.test("results: hello rejects an engine report without availability", () => {
  assertIssueAt(OPS.hello.result, { ...HELLO, engines: [{ name: "atspi", ops: [] }] }, [
    "engines",
    0,
    "available",
  ]);
});

// pixel input

Deno.test("results: pixel input answers reject ok false", () => {
  assertIssueAt(OPS.pixel_click.result, { ok: false, engine: "x11", ms: 1 }, ["ok"]);
});
