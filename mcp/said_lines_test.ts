import assert from "node:assert/strict";
import type { Element } from "../protocol/element.ts";
import { SaidLines } from "./said_lines.ts";

const row = (id: string, y: number, name = id): Element => ({
  id,
  role: "AXRow",
  name,
  bounds: { x: 0, y, w: 100, h: 20 },
  enabled: true,
  focused: false,
  actions: [],
});

Deno.test("SaidLines drops changes that only moved, and keeps real ones", () => {
  const said = new SaidLines();
  said.read("w1", [row("a", 0), row("b", 20), row("c", 40)]);
  const cut = said.diff("w1", {
    added: [row("d", 60)],
    changed: [row("a", 1), row("b", 21, "renamed"), row("c", 41)],
    removed: [],
  });
  assert.deepEqual(cut.diff.changed.map((e) => e.id), ["b"]);
  assert.deepEqual(cut.diff.added.map((e) => e.id), ["d"]);
  assert.equal(cut.moved, 2);
  // What was shown is remembered: b's new name and d, added, are "as shown" now.
  const again = said.diff("w1", {
    added: [],
    changed: [row("b", 22, "renamed"), row("d", 61)],
    removed: ["a"],
  });
  assert.deepEqual(again.diff.changed, []);
  assert.equal(again.moved, 2);
  assert.deepEqual(again.diff.removed, ["a"]);
});

Deno.test("SaidLines leaves a diff of a window never read as it is", () => {
  const cut = new SaidLines().diff("w9", { added: [], changed: [row("a", 1)], removed: [] });
  assert.deepEqual(cut.diff.changed.map((e) => e.id), ["a"]);
  assert.equal(cut.moved, 0);
});
