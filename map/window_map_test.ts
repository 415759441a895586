import assert from "node:assert/strict";
import type { RawNode } from "../model/engine.ts";
import { buildSnapshot } from "./snapshot.ts";
import { DriverError } from "../protocol/errors.ts";
import { MAX_BEYOND, MIN_ID_PREFIX, WindowMap } from "./window_map.ts";
import { beyondId } from "./ids.ts";
import { node } from "./_fixtures.ts";

const WIN = { x: 0, y: 0, w: 300, h: 200 };

function tree(label = "Ready", extra = ""): RawNode {
  const kids = [
    node("AXStaticText", "Status", { x: 10, y: 10, w: 100, h: 20 }, [], { value: label }),
    node("AXButton", "Go", { x: 10, y: 40, w: 60, h: 24 }, [], { actions: ["press"] }),
  ];
  if (extra !== "") kids.push(node("AXButton", extra, { x: 10, y: 70, w: 60, h: 24 }));
  return node("AXWindow", "Main", WIN, kids);
}

function mapOf(root: RawNode, keep?: number): WindowMap {
  return new WindowMap("w1", "fake", buildSnapshot(root), keep === undefined ? {} : { keep });
}

Deno.test("WindowMap starts at version 1 with the first read", () => {
  const map = mapOf(tree());
  assert.equal(map.version, 1);
  assert.equal(map.oldest, 1);
  assert.equal(map.engine, "fake");
  assert.equal(map.elements.length, 3);
  assert.deepEqual(map.payload(), { window: "w1", version: 1, elements: map.elements });
});

Deno.test("update() keeps the version when only actions or handles change", () => {
  const map = mapOf(tree());
  const go = map.elements[2]!;
  const next = tree();
  next.children[1]!.actions = ["press", "focus"];
  next.children[1]!.handle = "new-handle";
  assert.deepEqual(map.update(buildSnapshot(next), "other"), { version: 1, changed: false });
  assert.equal(map.version, 1);
  assert.equal(map.engine, "other");
  assert.equal(map.handle(go.id)?.handle, "new-handle");
  assert.deepEqual(map.get(go.id)?.actions, ["press", "focus"]);
});

Deno.test("update() makes a new version when a value changes", () => {
  const map = mapOf(tree());
  assert.deepEqual(map.update(buildSnapshot(tree("Busy"))), { version: 2, changed: true });
  const d = map.since(1);
  assert.equal(d.reset, false);
  if (d.reset) return;
  assert.deepEqual(d.changed.map((e) => e.value), ["Busy"]);
  assert.deepEqual(d.added, []);
  assert.deepEqual(d.removed, []);
});

Deno.test("update() reuses unchanged element objects from the previous version", () => {
  const map = mapOf(tree());
  const v1 = map.elements;
  map.update(buildSnapshot(tree("Busy")));
  const v2 = map.elements;
  assert.notEqual(v2, v1);
  assert.equal(v2[0], v1[0]);
  assert.notEqual(v2[1], v1[1]);
  assert.equal(v2[2], v1[2]);
  assert.equal(map.at(1), v1);
});

Deno.test("update() makes a new version when an element comes or goes", () => {
  const map = mapOf(tree());
  map.update(buildSnapshot(tree("Ready", "Stop")));
  assert.equal(map.version, 2);
  map.update(buildSnapshot(tree()));
  assert.equal(map.version, 3);
  const d = map.since(2);
  assert.equal(d.reset, false);
  if (!d.reset) assert.equal(d.removed.length, 1);
});

Deno.test("version 9 evicts version 1 and since(1) resets", () => {
  const map = mapOf(tree("0"));
  for (let i = 1; i <= 8; i++) map.update(buildSnapshot(tree(String(i))));
  assert.equal(map.version, 9);
  assert.equal(map.oldest, 2);
  assert.equal(map.at(1), undefined);
  assert.deepEqual(map.since(1), { reset: true, version: 9, elements: map.elements });
  const d = map.since(2);
  assert.equal(d.reset, false);
  if (!d.reset) assert.deepEqual(d.changed.map((e) => e.value), ["8"]);
});

Deno.test("since() answers an empty delta for the current version", () => {
  const map = mapOf(tree());
  map.update(buildSnapshot(tree("Busy")));
  assert.deepEqual(map.since(2), { reset: false, version: 2, added: [], changed: [], removed: [] });
});

Deno.test("since() resets for a version in the future or not a version", () => {
  const map = mapOf(tree());
  assert.equal(map.since(2).reset, true);
  assert.equal(map.since(0).reset, true);
  assert.equal(map.since(1.5).reset, true);
});

Deno.test("WindowMap keeps as many versions as told", () => {
  const map = mapOf(tree("0"), 2);
  map.update(buildSnapshot(tree("1")));
  map.update(buildSnapshot(tree("2")));
  assert.equal(map.oldest, 2);
  assert.equal(map.since(1).reset, true);
  assert.throws(() => mapOf(tree(), 0), RangeError);
});

Deno.test("remember() makes a node found beyond the map resolvable, and idOf() finds map ids", () => {
  const map = mapOf(tree());
  const go = map.elements[2]!;
  assert.equal(map.idOf(map.handle(go.id)!.handle), go.id);
  const far = node("AXCell", "Row 9000", { x: 0, y: -5000, w: 60, h: 20 }, [], { handle: "far" });
  const id = beyondId(far.handle);
  assert.equal(map.handle(id), undefined);
  map.remember(id, far);
  assert.equal(map.handle(id), far);
  assert.equal(map.get(id), undefined, "remembered, not listed");
  assert.equal(beyondId("far"), id, "the same object gets the same id");
  assert.ok(!map.elements.some((e) => e.id === id), "no map id is a beyond id");
  // Another engine's read makes the remembered handles meaningless.
  map.update(buildSnapshot(tree()), "other");
  assert.equal(map.handle(id), undefined);
});

Deno.test("remember() forgets the oldest past MAX_BEYOND", () => {
  const map = mapOf(tree());
  for (let i = 0; i <= MAX_BEYOND; i++) {
    map.remember(`b${i}`, node("AXCell", `${i}`, WIN, [], { handle: `x${i}` }));
  }
  assert.equal(map.handle("b0"), undefined);
  assert.ok(map.handle(`b${MAX_BEYOND}`));
});

Deno.test("resolveId() takes a unique prefix of 6+ characters, of map and beyond ids", () => {
  const map = mapOf(tree());
  const go = map.elements[2]!;
  assert.equal(map.resolveId(go.id), go.id);
  assert.equal(map.resolveId(go.id.slice(0, MIN_ID_PREFIX)), go.id);
  assert.equal(map.resolveId(go.id.slice(0, 9)), go.id);
  // Shorter than the least prefix, or no match: left for the lookup to refuse.
  assert.equal(map.resolveId(go.id.slice(0, MIN_ID_PREFIX - 1)), go.id.slice(0, 5));
  assert.equal(map.resolveId("zzzzzzz"), "zzzzzzz");
  const far = node("AXCell", "Row 9000", { x: 0, y: -5000, w: 60, h: 20 }, [], { handle: "far" });
  const id = beyondId(far.handle);
  map.remember(id, far);
  assert.equal(map.resolveId(id.slice(0, 7)), id);
});

Deno.test("resolveId() refuses a prefix of several ids and names them", () => {
  const map = mapOf(tree());
  map.remember("abcdef000001", node("AXCell", "one", WIN, [], { handle: "h1" }));
  map.remember("abcdef000002", node("AXCell", "two", WIN, [], { handle: "h2" }));
  assert.equal(map.resolveId("abcdef0000011"), "abcdef0000011", "not a prefix: as given");
  assert.throws(() => map.resolveId("abcdef"), (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "element_not_found");
    assert.match(err.message, /abcdef000001.*abcdef000002.*full id/);
    assert.deepEqual((err.data as { candidates: string[] }).candidates, [
      "abcdef000001",
      "abcdef000002",
    ]);
    return true;
  });
  assert.throws(() => map.resolveId("abcdef00000"), /begins 2 ids/);
  assert.equal(map.resolveId("abcdef1"), "abcdef1", "begins none: as given");
});
