import assert from "node:assert/strict";
import type { RawNode } from "../../model/engine.ts";
import {
  blankShare,
  fromPixels,
  mergeTrees,
  pixelHandle,
  pixelNodes,
  VISION_HANDLE,
} from "./merge.ts";

const node = (
  handle: string,
  name: string,
  b: [number, number, number, number],
  children: RawNode[] = [],
): RawNode => ({
  handle,
  role: name === "" ? "AXGroup" : "AXStaticText",
  name,
  bounds: { x: b[0], y: b[1], w: b[2], h: b[3] },
  enabled: true,
  focused: false,
  actions: [],
  children,
});

const tree = node("t:win", "Canvas", [0, 0, 400, 200], [
  node("t:canvas", "", [0, 0, 400, 200], [node("t:label", "Title", [10, 10, 100, 20])]),
]);
const vision = node("window@x1", "Canvas", [0, 0, 400, 200], [
  node("AXStaticText@10,10,100,20", "Title", [12, 12, 90, 16]),
  node("AXButton@40,100,160,56", "Press", [40, 100, 160, 56], [
    node("AXStaticText@70,120,60,20", "Press", [70, 120, 60, 20]),
  ]),
]);

Deno.test("mergeTrees keeps the tree's nodes first and adds regions after, marked as pixels", () => {
  const { root, added, truncated } = mergeTrees(tree, vision, 100);
  assert.equal(root.children[0], tree.children[0], "the tree's nodes are untouched");
  assert.deepEqual(root.children.slice(1).map((c) => c.name), ["Press"]);
  assert.equal(added, 2, "a region with its child");
  assert.equal(truncated, false);
  const press = root.children[1]!;
  assert.ok(fromPixels(press) && fromPixels(press.children[0]!));
  assert.equal(pixelHandle(press.handle), "AXButton@40,100,160,56");
  assert.equal(pixelNodes(root), 2);
  assert.equal(pixelNodes(tree), 0);
});

Deno.test("mergeTrees leaves out a region a named tree leaf covers, not one an unnamed container covers", () => {
  const { root } = mergeTrees(tree, vision, 100);
  assert.ok(!root.children.some((c) => c.handle === `${VISION_HANDLE}AXStaticText@10,10,100,20`));
  assert.ok(root.children.some((c) => c.name === "Press"), "the canvas (unnamed) hides nothing");
});

Deno.test("mergeTrees stops at the element budget and says so", () => {
  const { root, added, truncated } = mergeTrees(tree, vision, 1);
  assert.equal(added, 0, "the button and its label do not fit in one");
  assert.equal(truncated, true);
  assert.equal(root.children.length, 1);
});

Deno.test("blankShare() measures the largest nameless, actionless leaf against the window", () => {
  assert.equal(blankShare(tree), 0, "the canvas holds a named label: not a leaf");
  const canvas = node("t:win", "Canvas", [0, 0, 400, 200], [node("t:c", "", [0, 0, 400, 100])]);
  assert.equal(blankShare(canvas), 0.5);
  const dialog = node("t:win", "Save?", [0, 0, 400, 200], [
    node("t:l", "Save changes?", [0, 0, 400, 100]),
  ]);
  assert.equal(blankShare(dialog), 0);
});
