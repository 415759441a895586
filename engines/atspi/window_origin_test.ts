import assert from "node:assert/strict";
import type { RawNode } from "../../model/engine.ts";
import { shifted, shiftTree } from "./window_origin.ts";

const node = (x: number, children: RawNode[] = []): RawNode => ({
  handle: `h${x}`,
  role: "AXButton",
  name: "",
  bounds: { x, y: 10, w: 20, h: 20 },
  enabled: true,
  focused: false,
  actions: [],
  children,
});

Deno.test("shiftTree() moves every bound of a window-relative tree to the screen", () => {
  const tree = shiftTree(node(0, [node(5, [node(7)])]), { dx: 430, dy: 389 });
  assert.deepEqual(tree.bounds, { x: 430, y: 399, w: 20, h: 20 });
  assert.deepEqual(tree.children[0]!.children[0]!.bounds, { x: 437, y: 399, w: 20, h: 20 });
});

Deno.test("shifted() leaves a bound with no place or no area where it is", () => {
  const nowhere = { x: -(2 ** 31), y: -(2 ** 31), w: 1, h: 1 };
  assert.deepEqual(shifted(nowhere, { dx: 5, dy: 5 }), nowhere);
  const empty = { x: 3, y: 3, w: 0, h: 0 };
  assert.deepEqual(shifted(empty, { dx: 5, dy: 5 }), empty);
});
