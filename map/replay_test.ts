import assert from "node:assert/strict";
import type { Capture } from "../model/engine.ts";
import { addCrops } from "../model/crop.ts";
import { node } from "./_fixtures.ts";
import { findByCrop } from "./replay.ts";
import { buildSnapshot } from "./snapshot.ts";
import { WindowMap } from "./window_map.ts";

/** A 200×100 white window with a black bar across the left half of a 40×20 button at x. */
function capture(x: number): Capture {
  const width = 200, height = 100;
  const rgba = new Uint8Array(width * height * 4).fill(255);
  for (let py = 40; py < 60; py++) {
    for (let px = x; px < x + 20; px++) rgba.set([0, 0, 0, 255], (py * width + px) * 4);
  }
  return { width, height, scale: 1, origin: { x: 0, y: 0 }, rgba };
}

const window = (name: string, other: string) =>
  node("AXWindow", "W", { x: 0, y: 0, w: 200, h: 100 }, [
    node("AXButton", name, { x: 10, y: 40, w: 40, h: 20 }, [], { handle: "save" }),
    node("AXButton", other, { x: 120, y: 40, w: 40, h: 20 }, [], { handle: "other" }),
  ], { handle: "w" });

Deno.test("findByCrop() finds a relabelled button by the crop its planned version kept", () => {
  const map = new WindowMap("w1", "fake", buildSnapshot(window("Save", "Other")));
  const v1 = map.version;
  const save = map.elements.find((e) => e.name === "Save")!;
  assert.equal(map.cropAt(v1, save.id), undefined, "no crops kept until an answer had them");
  map.rememberCrops(addCrops(map.elements, capture(10)));
  map.update(buildSnapshot(window("Store", "Other")));
  assert.equal(map.get(save.id), undefined, "a new name is a new id");
  const planned = map.cropAt(v1, save.id)!;
  assert.equal(planned.name, "Save");
  const match = findByCrop(map, planned, capture(10));
  assert.equal(match?.element.name, "Store");
  assert.equal(match?.node.handle, "save");
  assert.equal(match?.distance, 0);
});

Deno.test("findByCrop() finds nothing when no element of the role looks the same", () => {
  const map = new WindowMap("w1", "fake", buildSnapshot(window("Save", "Other")));
  const v1 = map.version;
  const save = map.elements.find((e) => e.name === "Save")!;
  map.rememberCrops(addCrops(map.elements, capture(10)));
  map.update(buildSnapshot(window("Store", "Other")));
  const planned = map.cropAt(v1, save.id)!;
  // The bar moved off the button: its pixels are plain white now.
  assert.equal(findByCrop(map, planned, capture(150)), undefined);
});
