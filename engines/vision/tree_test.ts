import assert from "node:assert/strict";
import { buildSnapshot } from "../../map/mod.ts";
import type { Proposal } from "./regions.ts";
import { nodesByHandle, toTree } from "./tree.ts";

const proposals = (): Proposal[] => [
  {
    role: "AXButton",
    name: "7",
    rect: { x: 48, y: 272, w: 42, h: 28 },
    actions: ["press", "click", "focus"],
    crop: "007e66766e7e7e00",
    children: [],
  },
  {
    role: "AXStaticText",
    name: "a b",
    rect: { x: 4, y: 4, w: 30, h: 10 },
    actions: ["click"],
    children: [
      {
        role: "AXStaticText",
        name: "a",
        rect: { x: 4, y: 4, w: 6, h: 10 },
        actions: ["click"],
        children: [],
      },
      {
        role: "AXStaticText",
        name: "b",
        rect: { x: 20, y: 4, w: 6, h: 10 },
        actions: ["click"],
        children: [],
      },
    ],
  },
];
const facts = { window: "x400016", title: "Calculator", focused: true };

Deno.test("toTree() puts the window first and converts pixels to screen points", () => {
  const capture = { origin: { x: 100, y: 50 }, scale: 1, width: 226, height: 394 };
  const { root, crops, nodes, truncated } = toTree(proposals(), capture, facts, 100);
  assert.equal(root.role, "AXWindow");
  assert.equal(root.name, "Calculator");
  assert.equal(root.focused, true);
  assert.deepEqual(root.bounds, { x: 100, y: 50, w: 226, h: 394 });
  assert.deepEqual(root.children[0]!.bounds, { x: 148, y: 322, w: 42, h: 28 });
  assert.equal(root.children[1]!.children.length, 2);
  assert.equal(nodes, 5);
  assert.equal(truncated, false);
  assert.equal(crops.get(root.children[0]!.handle), "007e66766e7e7e00");
});

Deno.test("toTree() gives the same handles and ids wherever the window is", () => {
  const here = toTree(
    proposals(),
    { origin: { x: 0, y: 0 }, scale: 1, width: 226, height: 394 },
    facts,
    100,
  );
  const there = toTree(
    proposals(),
    { origin: { x: 400, y: 300 }, scale: 1, width: 226, height: 394 },
    facts,
    100,
  );
  assert.equal(here.root.children[0]!.handle, there.root.children[0]!.handle);
  const ids = (t: typeof here) => buildSnapshot(t.root).elements.map((e) => e.id);
  assert.deepEqual(ids(here), ids(there));
});

Deno.test("toTree() stops at maxElements and says truncated", () => {
  const t = toTree(
    proposals(),
    { origin: { x: 0, y: 0 }, scale: 1, width: 10, height: 10 },
    facts,
    3,
  );
  assert.equal(t.nodes, 3);
  assert.equal(t.truncated, true);
});

Deno.test("nodesByHandle() finds every node of the tree", () => {
  const t = toTree(
    proposals(),
    { origin: { x: 0, y: 0 }, scale: 1, width: 226, height: 394 },
    facts,
    100,
  );
  const all = nodesByHandle(t.root);
  assert.equal(all.size, 5);
  assert.equal(all.get(t.root.children[1]!.children[1]!.handle)?.name, "b");
});
