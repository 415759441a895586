import assert from "node:assert/strict";
import type { RawNode } from "../model/engine.ts";
import { DriverError, isDriverError, toRpcError } from "../protocol/errors.ts";
import { buildSnapshot } from "./snapshot.ts";
import { checkElement, checkVersion, resolveAt } from "./stale.ts";
import { WindowMap } from "./window_map.ts";
import { node } from "./_fixtures.ts";

const WIN = { x: 0, y: 0, w: 300, h: 200 };

function tree(status: string, withOpen = true): RawNode {
  const kids = [node("AXStaticText", status, { x: 10, y: 10, w: 100, h: 20 })];
  if (withOpen) {
    kids.push(node("AXButton", "Open", { x: 10, y: 40, w: 60, h: 24 }, [], { handle: status }));
  }
  return node("AXWindow", "Main", WIN, kids);
}

function caught(fn: () => unknown): DriverError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DriverError) return err;
    throw err;
  }
  throw new Error("Expected a DriverError");
}

Deno.test("checkVersion() accepts the current version", () => {
  const map = new WindowMap("w1", "fake", buildSnapshot(tree("a")));
  checkVersion(map, 1);
});

Deno.test("checkVersion() refuses a stale action with the current map in the error", () => {
  const map = new WindowMap("w1", "fake", buildSnapshot(tree("a")));
  map.update(buildSnapshot(tree("b")));
  const err = caught(() => checkVersion(map, 1));
  assert.ok(isDriverError(err, "stale_version"));
  assert.deepEqual(err.data, { map: { window: "w1", version: 2, elements: map.elements } });
  assert.equal(toRpcError(err).data.code, "stale_version");
});

Deno.test("resolveAt() finds an element by its id from an older version", () => {
  const map = new WindowMap("w1", "fake", buildSnapshot(tree("a")));
  const open = map.elements.find((e) => e.name === "Open")!;
  map.update(buildSnapshot(tree("b")));
  map.update(buildSnapshot(tree("c")));
  assert.equal(map.version, 3);
  // The latest read's node, even though the id was planned on version 1.
  assert.equal(resolveAt(map, 1, open.id).handle, "c");
});

Deno.test("resolveAt() works after the planned version aged out", () => {
  const map = new WindowMap("w1", "fake", buildSnapshot(tree("a")), { keep: 2 });
  const open = map.elements.find((e) => e.name === "Open")!;
  for (const s of ["b", "c", "d"]) map.update(buildSnapshot(tree(s)));
  assert.equal(map.at(1), undefined);
  assert.equal(resolveAt(map, 1, open.id).handle, "d");
});

Deno.test("resolveAt() reports an element that is gone with the current version", () => {
  const map = new WindowMap("w1", "fake", buildSnapshot(tree("a")));
  const open = map.elements.find((e) => e.name === "Open")!;
  map.update(buildSnapshot(tree("b", false)));
  const err = caught(() => resolveAt(map, 1, open.id));
  assert.ok(isDriverError(err, "element_not_found"));
  assert.deepEqual(err.data, { version: 2 });
  assert.match(err.message, /gone at version 2/);
  const unknown = caught(() => resolveAt(map, 2, "zzzzzzzzzzzz"));
  assert.ok(isDriverError(unknown, "element_not_found"));
});

Deno.test("resolveAt() refuses a version the map has not reached", () => {
  const map = new WindowMap("w1", "fake", buildSnapshot(tree("a")));
  const err = caught(() => resolveAt(map, 2, map.elements[0]!.id));
  assert.ok(isDriverError(err, "stale_version"));
  assert.equal((err.data.map as { version: number }).version, 1);
});

Deno.test("checkElement() lets an action through when only other elements changed", () => {
  const map = new WindowMap("w1", "fake", buildSnapshot(tree("a", true)));
  const open = map.elements.find((e) => e.name === "Open")!;
  map.update(buildSnapshot(tree("b", true)));
  assert.equal(map.version, 2);
  checkElement(map, 1, open.id);
  // The window guard refuses the same plan.
  assert.ok(isDriverError(caught(() => checkVersion(map, 1)), "stale_version"));
});

Deno.test("checkElement() refuses when the target is gone, moved or changed, saying which", () => {
  const at = (bounds: { x: number; y: number; w: number; h: number }, name = "Open") =>
    node("AXWindow", "Main", WIN, [node("AXButton", name, bounds)]);
  const map = new WindowMap("w1", "fake", buildSnapshot(at({ x: 10, y: 40, w: 60, h: 24 })));
  const id = map.elements.find((e) => e.name === "Open")!.id;
  map.update(buildSnapshot(at({ x: 10, y: 80, w: 60, h: 24 })));
  const moved = caught(() => checkElement(map, 1, id));
  assert.ok(isDriverError(moved, "stale_version"));
  assert.equal((moved.data as { element: string }).element, "moved");
  map.update(buildSnapshot(node("AXWindow", "Main", WIN, [])));
  const gone = caught(() => checkElement(map, 2, id));
  assert.equal((gone.data as { element: string }).element, "gone");
  assert.match(gone.message, /is gone by version 3/);
});

Deno.test("checkElement() refuses a version ahead of the map as the window guard does", () => {
  const map = new WindowMap("w1", "fake", buildSnapshot(tree("a")));
  const err = caught(() => checkElement(map, 7, "nope"));
  assert.ok(isDriverError(err, "stale_version"));
  assert.deepEqual(Object.keys(err.data as object), ["map"]);
});
