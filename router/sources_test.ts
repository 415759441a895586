import assert from "node:assert/strict";
import { Router } from "./router.ts";
import { chooseSource } from "./sources.ts";

Deno.test("chooseSource() uses vision for an empty tree", () => {
  assert.deepEqual(chooseSource(1), { source: "vision", source_reason: "empty_tree" });
  assert.deepEqual(chooseSource(0), { source: "vision", source_reason: "empty_tree" });
});

Deno.test("chooseSource() uses both for fewer than 5 elements besides the window", () => {
  assert.deepEqual(chooseSource(5), { source: "both", source_reason: "sparse_tree" });
  assert.deepEqual(chooseSource(6), { source: "tree" });
});

Deno.test("chooseSource() uses vision with the engine's degraded reason", () => {
  assert.deepEqual(chooseSource(200, "no_ax_tree"), {
    source: "vision",
    source_reason: "no_ax_tree",
  });
});

Deno.test("sources() follows markDegraded() and clearDegraded() per app", () => {
  const r = new Router([]);
  r.markDegraded("Game", "canvas_only");
  assert.equal(r.degradedReason("Game"), "canvas_only");
  assert.deepEqual(r.sources("Game", 40), { source: "vision", source_reason: "canvas_only" });
  assert.deepEqual(r.sources("Notes", 40), { source: "tree" });
  assert.equal(r.summary().degraded, 1);
  r.clearDegraded("Game");
  assert.deepEqual(r.sources("Game", 40), { source: "tree" });
  assert.deepEqual(r.summary().sources, { tree: 2, vision: 1, both: 0 });
});

Deno.test("chooseSource() keeps a small tree with no blank area a tree read", () => {
  assert.deepEqual(chooseSource(4, undefined, 0.1), { source: "tree" });
  assert.deepEqual(chooseSource(4, undefined, 0.5), {
    source: "both",
    source_reason: "sparse_tree",
  });
});
