import assert from "node:assert/strict";
import { Element } from "../protocol/element.ts";
import { computeIds } from "./ids.ts";
import { buildSnapshot } from "./snapshot.ts";
import { node, syntheticWindow } from "./_fixtures.ts";

const WIN = { x: 0, y: 0, w: 300, h: 200 };

function tree() {
  return node("AXWindow", "Form", WIN, [
    node("AXGroup", "Name", { x: 10, y: 10, w: 280, h: 30 }, [
      node("AXTextField", "First", { x: 12, y: 12, w: 100, h: 20 }, [], {
        value: "Ada",
        focused: true,
        actions: ["focus", "set_value"],
      }),
    ]),
    node("AXButton", "Send", { x: 10, y: 150, w: 60, h: 24 }, [], {
      enabled: false,
      actions: ["press"],
      handle: "send-handle",
    }),
  ]);
}

Deno.test("buildSnapshot() flattens in document order with parent ids", () => {
  const { elements } = buildSnapshot(tree());
  assert.deepEqual(elements.map((e) => e.name), ["Form", "Name", "First", "Send"]);
  const [win, group, field, send] = elements;
  assert.equal(win?.parent, undefined);
  assert.equal(group?.parent, win?.id);
  assert.equal(field?.parent, group?.id);
  assert.equal(send?.parent, win?.id);
  assert.deepEqual(elements.map((e) => e.id), computeIds(tree()));
});

Deno.test("buildSnapshot() copies the visible fields of each node", () => {
  const { elements } = buildSnapshot(tree());
  const field = elements[2]!;
  assert.deepEqual(field, {
    id: field.id,
    role: "AXTextField",
    name: "First",
    value: "Ada",
    bounds: { x: 12, y: 12, w: 100, h: 20 },
    enabled: true,
    focused: true,
    actions: ["focus", "set_value"],
    parent: elements[1]!.id,
  });
  assert.equal(elements[3]!.enabled, false);
});

Deno.test("buildSnapshot() leaves out value and parent keys when absent", () => {
  const { elements } = buildSnapshot(tree());
  assert.equal("value" in elements[0]!, false);
  assert.equal("parent" in elements[0]!, false);
  assert.equal("value" in elements[3]!, false);
  assert.equal("crop" in elements[3]!, false);
});

Deno.test("buildSnapshot() keeps the engine node for each id", () => {
  const root = tree();
  const { elements, handles } = buildSnapshot(root);
  assert.equal(handles.size, elements.length);
  assert.equal(handles.get(elements[0]!.id), root);
  assert.equal(handles.get(elements[3]!.id)?.handle, "send-handle");
});

Deno.test("buildSnapshot() makes elements that pass the protocol schema", () => {
  for (const el of buildSnapshot(syntheticWindow(500, 3)).elements) Element.parse(el);
});

Deno.test("buildSnapshot() does not alias the engine's bounds or actions", () => {
  const root = tree();
  const { elements } = buildSnapshot(root);
  root.bounds.x = 999;
  root.children[1]!.actions.push("focus");
  assert.equal(elements[0]!.bounds.x, 0);
  assert.deepEqual(elements[3]!.actions, ["press"]);
});
