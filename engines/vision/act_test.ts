import assert from "node:assert/strict";
import { DriverError } from "../../protocol/errors.ts";
import type { RawNode } from "../../model/engine.ts";
import { pixelPlan } from "./act.ts";

const node: RawNode = {
  handle: "AXButton@0,0,40,26",
  role: "AXButton",
  name: "7",
  bounds: { x: 50, y: 270, w: 41, h: 27 },
  enabled: true,
  focused: false,
  actions: ["press", "click", "focus"],
  children: [],
};

Deno.test("pixelPlan() clicks the centre for press, click and focus", () => {
  for (const action of ["press", "click", "focus"] as const) {
    assert.deepEqual(pixelPlan(node, action, undefined), [
      { kind: "click", x: 71, y: 284, button: "left", count: 1 },
    ]);
  }
});

Deno.test("pixelPlan() follows a window that moved", () => {
  assert.deepEqual(pixelPlan(node, "press", undefined, { dx: 100, dy: -20 }), [
    { kind: "click", x: 171, y: 264, button: "left", count: 1 },
  ]);
});

Deno.test("pixelPlan() clicks then types for set_value and type_text", () => {
  for (const action of ["set_value", "type_text"] as const) {
    assert.deepEqual(pixelPlan(node, action, "42"), [
      { kind: "click", x: 71, y: 284, button: "left", count: 1 },
      { kind: "type", text: "42" },
    ]);
  }
  assert.throws(() => pixelPlan(node, "type_text", undefined), (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "invalid_params");
    return true;
  });
});

Deno.test("pixelPlan() right-clicks for show_menu and refuses what pixels can't do", () => {
  assert.equal(pixelPlan(node, "show_menu", undefined)[0]!.kind, "click");
  assert.deepEqual(pixelPlan(node, "show_menu", undefined)[0], {
    kind: "click",
    x: 71,
    y: 284,
    button: "right",
    count: 1,
  });
  assert.throws(() => pixelPlan(node, "expand", undefined), (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "action_not_supported");
    assert.match(err.message, /^Cannot expand "7": /);
    assert.deepEqual(err.data.actions, node.actions);
    return true;
  });
  const flat = { ...node, bounds: { x: 0, y: 0, w: 0, h: 10 } };
  assert.throws(() => pixelPlan(flat, "press", undefined), /it has no area/);
});
