import assert from "node:assert/strict";
import { DriverError } from "../protocol/errors.ts";
import type { OpKind } from "../protocol/ops.ts";
import type { EngineDescriptor, Reason } from "./decide.ts";
import { Router } from "./router.ts";
import { type Outcome, RETRY_AFTER_MS } from "./stats.ts";

// "a" is preferred (listed first); only "a" can zoom and run batches.
const ENGINES: EngineDescriptor[] = [
  { name: "a", ops: ["read_ui", "find", "verify", "zoom", "act", "run_batch", "pixel_click"] },
  { name: "b", ops: ["read_ui", "find", "verify", "act", "pixel_click"] },
];
const APP = "Notes";

function router(): Router {
  return new Router(ENGINES, { now: () => 1_000 });
}

function feed(r: Router, op: string, engine: string, outcomes: Partial<Outcome>[]): void {
  for (const o of outcomes) r.record({ op, app: APP }, engine, { ok: true, ms: 10, ...o });
}

function times(n: number, o: Partial<Outcome>): Partial<Outcome>[] {
  return Array.from({ length: n }, () => o);
}

function decide(r: Router, op: string, kind: OpKind) {
  return r.decide({ op, kind, app: APP });
}

function reasons(r: Router, op: string, kind: OpKind, n: number): Reason[] {
  return Array.from({ length: n }, () => decide(r, op, kind).reason);
}

Deno.test("decide() says capability when only one engine can do the op", () => {
  assert.deepEqual(decide(router(), "zoom", "read"), { engine: "a", reason: "capability" });
});

Deno.test("decide() never hands an op to an engine that cannot do it", () => {
  const r = router();
  feed(r, "run_batch", "a", times(3, { ok: false, code: "internal" }));
  // "a" failing doesn't make "b" capable.
  assert.deepEqual(decide(r, "run_batch", "action"), { engine: "a", reason: "capability" });
});

Deno.test("decide() throws driver_unavailable when no engine can do the op", () => {
  assert.throws(() => decide(router(), "hold_key", "input"), (err) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "driver_unavailable");
    assert.equal(err.data.reason, "no_capable_engine");
    assert.match(err.message, /^No engine can "hold_key"/);
    return true;
  });
});

Deno.test("decide() picks the first-listed capable engine by default", () => {
  assert.deepEqual(decide(router(), "pixel_click", "input"), { engine: "a", reason: "default" });
});

Deno.test("decide() hands over after 2 of 3 failures", () => {
  const r = router();
  feed(r, "pixel_click", "a", [{ ok: false, code: "internal" }, { ok: false }, { ok: true }]);
  assert.deepEqual(decide(r, "pixel_click", "input"), { engine: "b", reason: "failures" });
});

Deno.test("decide() keeps the engine after 1 of 3 failures", () => {
  const r = router();
  feed(r, "pixel_click", "a", [{ ok: false, code: "timeout" }, { ok: true }, { ok: true }]);
  assert.deepEqual(decide(r, "pixel_click", "input"), { engine: "a", reason: "default" });
});

Deno.test("decide() needs 3 recent calls before failures hand over", () => {
  const r = router();
  feed(r, "pixel_click", "a", times(2, { ok: false }));
  assert.equal(decide(r, "pixel_click", "input").reason, "default");
});

Deno.test("decide() judges failures on the last 10 outcomes only", () => {
  const r = router();
  feed(r, "pixel_click", "a", [...times(6, { ok: false }), ...times(10, { ok: true })]);
  assert.equal(decide(r, "pixel_click", "input").reason, "default");
  feed(r, "pixel_click", "a", times(5, { ok: false })); // 5 of the last 10
  assert.deepEqual(decide(r, "pixel_click", "input"), { engine: "b", reason: "failures" });
});

Deno.test("decide() does not count caller errors such as stale_version as failures", () => {
  const r = router();
  feed(r, "pixel_click", "a", times(3, { ok: false, code: "stale_version" }));
  assert.equal(decide(r, "pixel_click", "input").reason, "default");
  assert.equal(r.stats("pixel_click", APP, "a")?.failures, 0);
});

Deno.test("decide() stays when every capable engine is failing", () => {
  const r = router();
  feed(r, "pixel_click", "a", times(3, { ok: false }));
  feed(r, "pixel_click", "b", times(3, { ok: false }));
  assert.deepEqual(decide(r, "pixel_click", "input"), { engine: "a", reason: "default" });
});

Deno.test("decide() hands over when the other engine is exactly half as slow", () => {
  const r = router();
  feed(r, "pixel_click", "a", times(5, { ms: 100 }));
  feed(r, "pixel_click", "b", times(5, { ms: 50 }));
  assert.deepEqual(decide(r, "pixel_click", "input"), { engine: "b", reason: "latency" });
});

Deno.test("decide() keeps the engine when the other is 0.6 as slow", () => {
  const r = router();
  feed(r, "pixel_click", "a", times(5, { ms: 100 }));
  feed(r, "pixel_click", "b", times(5, { ms: 60 }));
  assert.deepEqual(decide(r, "pixel_click", "input"), { engine: "a", reason: "default" });
});

Deno.test("decide() compares latency only with 5 timed calls on each engine", () => {
  const r = router();
  feed(r, "pixel_click", "a", times(5, { ms: 100 }));
  feed(r, "pixel_click", "b", [...times(4, { ms: 10 }), { ok: false, ms: 1 }]);
  assert.equal(decide(r, "pixel_click", "input").reason, "default");
  feed(r, "pixel_click", "b", [{ ms: 10 }]);
  assert.equal(decide(r, "pixel_click", "input").reason, "latency");
});

Deno.test("decide() explores exactly one verify in 20 until the other has 5 samples", () => {
  const r = router();
  const seen = reasons(r, "verify", "read", 100);
  const explored = seen.flatMap((reason, i) => (reason === "explore" ? [i + 1] : []));
  assert.deepEqual(explored, [20, 40, 60, 80, 100]);
  assert.deepEqual(decide(r, "verify", "read"), { engine: "a", reason: "default" });
  feed(r, "verify", "b", times(5, { ms: 30 }));
  assert.ok(!reasons(r, "verify", "read", 100).includes("explore"));
});

Deno.test("decide() sends the exploring read to the other engine", () => {
  const r = router();
  reasons(r, "verify", "read", 19);
  assert.deepEqual(decide(r, "verify", "read"), { engine: "b", reason: "explore" });
});

Deno.test("decide() never explores read_ui or find: their source is not an experiment", () => {
  const r = router();
  assert.ok(!reasons(r, "read_ui", "read", 100).includes("explore"));
  assert.ok(!reasons(r, "find", "read", 100).includes("explore"));
});

Deno.test("decide() picks only among the engines the driver allows", () => {
  const r = router();
  feed(r, "read_ui", "a", times(5, { ms: 100 }));
  feed(r, "read_ui", "b", times(5, { ms: 10 }));
  assert.deepEqual(decide(r, "read_ui", "read"), { engine: "b", reason: "latency" });
  assert.deepEqual(
    r.decide({ op: "read_ui", kind: "read", app: APP, among: ["a"] }),
    { engine: "a", reason: "capability" },
  );
});

Deno.test("decide() tries a failing engine again once its newest fault is 30 s old", () => {
  let now = 1_000;
  const r = new Router(ENGINES, { now: () => now });
  feed(r, "pixel_click", "a", times(3, { ok: false, code: "timeout" }));
  assert.deepEqual(decide(r, "pixel_click", "input"), { engine: "b", reason: "failures" });
  now += RETRY_AFTER_MS - 1;
  assert.equal(decide(r, "pixel_click", "input").reason, "failures");
  now += 1;
  assert.deepEqual(decide(r, "pixel_click", "input"), { engine: "a", reason: "default" });
  // It failed again: handed over for another cool-down.
  feed(r, "pixel_click", "a", [{ ok: false, code: "timeout" }]);
  assert.deepEqual(decide(r, "pixel_click", "input"), { engine: "b", reason: "failures" });
});

Deno.test("decide() never explores input or action ops", () => {
  const r = router();
  assert.ok(!reasons(r, "pixel_click", "input", 100).includes("explore"));
  assert.ok(!reasons(r, "act", "action", 100).includes("explore"));
});

Deno.test("capable() lists the engines that declare an op, preferred first", () => {
  const r = router();
  assert.deepEqual(r.capable("act"), ["a", "b"]);
  assert.deepEqual(r.capable("zoom"), ["a"]);
  assert.deepEqual(r.capable("nothing"), []);
});

Deno.test("decide() learns per op and per app", () => {
  const r = router();
  feed(r, "pixel_click", "a", times(3, { ok: false }));
  assert.equal(decide(r, "pixel_click", "input").engine, "b");
  assert.equal(r.decide({ op: "pixel_click", kind: "input", app: "Other" }).engine, "a");
  assert.equal(decide(r, "act", "action").engine, "a");
});

Deno.test("record() keeps a 0.3 latency average and the last 10 outcomes", () => {
  const r = router();
  feed(r, "find", "a", [{ ms: 100 }, { ms: 200 }, ...times(11, { ok: false, ms: 5 })]);
  const s = r.stats("find", APP, "a");
  assert.equal(s?.calls, 13);
  assert.equal(s?.failures, 11);
  assert.equal(s?.timed, 2);
  assert.equal(s?.ewmaMs, 130);
  assert.equal(s?.recent.length, 10);
});

Deno.test("summary() totals calls and failures per engine", () => {
  const r = router();
  feed(r, "find", "a", [{}, { ok: false }]);
  feed(r, "act", "a", [{}]);
  feed(r, "act", "b", [{ ok: false }]);
  assert.deepEqual(r.summary(), {
    engines: { a: { calls: 3, failures: 1 }, b: { calls: 1, failures: 1 } },
    entries: 2,
    degraded: 0,
    sources: { tree: 0, vision: 0, both: 0 },
    saved_at: null,
  });
});

Deno.test("fromJSON() restores a router that decides the same", () => {
  const r = router();
  feed(r, "pixel_click", "a", times(3, { ok: false }));
  feed(r, "act", "a", times(5, { ms: 100 }));
  feed(r, "act", "b", times(5, { ms: 40 }));
  reasons(r, "verify", "read", 7);
  const copy = Router.fromJSON(JSON.parse(JSON.stringify(r)), ENGINES, { now: () => 1_000 });
  assert.deepEqual(copy.toJSON(), r.toJSON());
  for (const [op, kind] of [["pixel_click", "input"], ["act", "action"]] as const) {
    assert.deepEqual(decide(copy, op, kind), decide(r, op, kind));
  }
  assert.deepEqual(reasons(copy, "verify", "read", 40), reasons(r, "verify", "read", 40));
});

Deno.test("fromJSON() rejects a file of another version", () => {
  assert.throws(() => Router.fromJSON({ version: 2, entries: [] }, ENGINES));
  assert.throws(() => Router.fromJSON({ entries: [{ op: "x" }] }, ENGINES));
});

Deno.test("decide() tells change listeners nothing; record() does", () => {
  let changes = 0;
  const r = new Router(ENGINES, { onChange: () => changes++ });
  r.decide({ op: "read_ui", kind: "read", app: APP });
  assert.equal(changes, 0);
  r.record({ op: "read_ui", app: APP }, "a", { ok: true, ms: 5 });
  assert.equal(changes, 1);
});
