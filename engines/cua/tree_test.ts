import assert from "node:assert/strict";
import { computeIds } from "../../map/mod.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { RawNode } from "../../model/engine.ts";
import { buildTree, byKey } from "./tree.ts";
import { type CuaElement, TOOL } from "./tools.ts";

const TOOLS = new Set<string>(Object.values(TOOL));
const WINDOW = { title: "Calc", bounds: { x: 10, y: 20, w: 300, h: 400 } };

function el(index: number, role: string, label: string, parent?: number, extra = {}): CuaElement {
  return {
    element_index: index,
    element_token: `s1:${index}`,
    role,
    label,
    frame: { x: 10 + index, y: 20, w: 40, h: 30 },
    ...(parent !== undefined ? { parent_index: parent } : {}),
    ...extra,
  };
}

function shape(n: RawNode): unknown {
  return [n.role, n.name, n.children.map(shape)];
}

Deno.test("buildTree() hangs elements under their parent_index, the listed window as root", () => {
  const t = buildTree(
    {
      snapshot_id: "s1",
      elements: [
        el(0, "AXWindow", "Calc"),
        el(1, "push button", "7", 0, { actions: ["click"] }),
        el(2, "text", "", 0, { value: "42" }),
      ],
    },
    WINDOW,
    5,
    TOOLS,
  );
  assert.deepEqual(shape(t.root), ["AXWindow", "Calc", [["AXButton", "7", []], [
    "AXTextField",
    "",
    [],
  ]]]);
  assert.equal(t.nodes, 3);
  assert.equal(t.root.handle, "c5.0");
  const button = t.root.children[0]!;
  assert.deepEqual(button.actions, ["press", "click"]);
  assert.deepEqual(t.root.children[1]!.actions, ["set_value", "type_text"]);
  assert.equal(t.root.children[1]!.value, "42");
  assert.deepEqual(t.addresses.get(button.handle), {
    index: 1,
    token: "s1:1",
    snapshot: "s1",
    key: "/AXButton\u00017\u00010",
  });
});

Deno.test("buildTree() makes a window root when Cua lists none, and refuses forward parents", () => {
  const t = buildTree(
    {
      elements: [el(3, "AXButton", "A", 9), el(9, "AXButton", "B", 3)],
    },
    WINDOW,
    1,
    TOOLS,
  );
  // 9 comes after 3, so 3 cannot hang under it: no cycle, 3 goes to the window.
  assert.deepEqual(shape(t.root), ["AXWindow", "Calc", [["AXButton", "A", [[
    "AXButton",
    "B",
    [],
  ]]]]]);
  assert.equal(t.root.handle, "c1.w");
  assert.deepEqual(t.root.bounds, WINDOW.bounds);
  assert.equal(t.nodes, 3);
});

Deno.test("buildTree() refuses an element_index listed twice", () => {
  assert.throws(
    () =>
      buildTree({ elements: [el(1, "AXButton", "A"), el(1, "AXButton", "B")] }, WINDOW, 1, TOOLS),
    (e) => e instanceof DriverError && e.code === "internal",
  );
});

Deno.test("structural keys find an element again in a read that numbered it differently", () => {
  const a = buildTree(
    {
      elements: [el(0, "AXWindow", "W"), el(1, "AXButton", "OK", 0), el(2, "AXButton", "OK", 0)],
    },
    WINDOW,
    1,
    TOOLS,
  );
  const b = buildTree(
    {
      elements: [
        el(0, "AXWindow", "W"),
        el(5, "AXButton", "Help", 0),
        el(7, "AXButton", "OK", 0),
        el(8, "AXButton", "OK", 0),
      ],
    },
    WINDOW,
    2,
    TOOLS,
  );
  const second = a.addresses.get(a.root.children[1]!.handle)!.key;
  assert.equal(byKey(b.root).get(second)?.handle, "c2.8");
});

Deno.test("the same tree read through Cua gets the ids the native engine's read gets", () => {
  const native: RawNode = {
    handle: "n0",
    role: "AXWindow",
    name: "Calc",
    bounds: { x: 10, y: 20, w: 40, h: 30 },
    enabled: true,
    focused: false,
    actions: [],
    children: [1, 2].map((i) => ({
      handle: `n${i}`,
      role: "AXButton",
      name: "7",
      bounds: { x: 10 + i, y: 20, w: 40, h: 30 },
      enabled: true,
      focused: false,
      actions: ["press", "click"],
      children: [],
    })),
  };
  const cua = buildTree(
    {
      elements: [el(0, "AXWindow", "Calc"), el(1, "push button", "7", 0), el(2, "button", "7", 0)],
    },
    WINDOW,
    1,
    TOOLS,
  );
  assert.deepEqual(computeIds(cua.root), computeIds(native));
});
