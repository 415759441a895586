import assert from "node:assert/strict";
import type { RawNode } from "../../model/engine.ts";
import { keyLabel, placeOf, pruneUnshown } from "./tree.ts";

function raw(handle: string, w: number, h: number, children: RawNode[] = []): RawNode {
  return {
    handle,
    role: "AXGroup",
    name: handle,
    bounds: { x: 0, y: 0, w, h },
    enabled: true,
    focused: false,
    actions: [],
    children,
  };
}

const handles = (n: RawNode): string[] => [n.handle, ...n.children.flatMap(handles)];

Deno.test("pruneUnshown() drops subtrees of no size and keeps sized children of empty nodes", () => {
  const root = raw("window", 400, 300, [
    raw("page", 0, 0, [raw("shown", 400, 20)]),
    raw("hidden page", 0, 0, [raw("could not open", 0, 0), raw("retry", 0, 0, [raw("l", 0, 0)])]),
    raw("line", 400, 0),
  ]);
  assert.equal(pruneUnshown(root), 5);
  assert.deepEqual(handles(root), ["window", "page", "shown"]);
});

Deno.test("pruneUnshown() never drops the root", () => {
  const root = raw("window", 0, 0, [raw("a", 0, 0)]);
  assert.equal(pruneUnshown(root), 1);
  assert.deepEqual(handles(root), ["window"]);
});

Deno.test("placeOf() turns a toolkit's no-place extents into an empty box", () => {
  const min = -2147483648;
  assert.deepEqual(placeOf({ x: min, y: min, w: 1, h: 1 }), { x: 0, y: 0, w: 0, h: 0 });
  assert.deepEqual(placeOf({ x: 10, y: 20, w: 30, h: 40 }), { x: 10, y: 20, w: 30, h: 40 });
  assert.deepEqual(placeOf({ x: -50, y: 0, w: 30, h: 40 }), { x: -50, y: 0, w: 30, h: 40 });
});

Deno.test("keyLabel() leaves the element's own value out of its label", () => {
  const field = (label: string, value?: string): RawNode => ({
    ...raw("field", 10, 10),
    label,
    ...(value === undefined ? {} : { value }),
  });
  const cases: [string, string | undefined, string | undefined][] = [
    ["Name Ann", "Ann", "Name"],
    ["Fruit Apple", "Apple", "Fruit"],
    ["Volume 50", "50", "Volume"],
    ["Name", "", "Name"],
    ["Size", undefined, "Size"],
    ["Ann", "Ann", undefined],
  ];
  for (const [label, value, want] of cases) {
    const node = field(label, value);
    keyLabel(node);
    assert.equal(node.label, want, `${label} / ${value}`);
  }
});
