import assert from "node:assert/strict";
import { actionsOf, type ElementFacts, handleOfRuntimeId, rawNodeOf } from "./element_props.ts";

const none = {
  invoke: false,
  toggle: false,
  selectionItem: false,
  expandCollapse: false,
  scrollItem: false,
  value: false,
  rangeValue: false,
};

function facts(over: Partial<ElementFacts>): ElementFacts {
  return {
    runtimeId: [42, 1],
    pid: 1,
    controlType: 50000,
    name: "",
    bounds: { x: 0, y: 0, w: 10, h: 10 },
    enabled: true,
    focused: false,
    focusable: false,
    password: false,
    offscreen: false,
    framework: "Win32",
    valueReadOnly: true,
    rangeReadOnly: true,
    patterns: none,
    ...over,
  };
}

Deno.test("actionsOf() follows the patterns an element supports", () => {
  assert.deepEqual(actionsOf(facts({ patterns: { ...none, invoke: true }, focusable: true })), [
    "press",
    "click",
    "focus",
  ]);
  assert.deepEqual(
    actionsOf(
      facts({ controlType: 50004, patterns: { ...none, value: true }, valueReadOnly: false }),
    ),
    ["set_value", "type_text"],
  );
  assert.deepEqual(
    actionsOf(
      facts({ controlType: 50020, patterns: { ...none, value: true }, valueReadOnly: true }),
    ),
    [],
    "a read-only value offers nothing to write",
  );
  assert.deepEqual(
    actionsOf(
      facts({ controlType: 50015, patterns: { ...none, rangeValue: true }, rangeReadOnly: false }),
    ),
    ["set_value"],
  );
  assert.deepEqual(
    actionsOf(
      facts({ patterns: { ...none, selectionItem: true, expandCollapse: true, scrollItem: true } }),
    ),
    ["select", "expand", "collapse", "scroll_into_view"],
  );
});

Deno.test("rawNodeOf() maps role, value and numbers the way the other engines do", () => {
  const field = rawNodeOf(
    facts({
      controlType: 50004,
      name: "Search",
      value: "cats",
      patterns: { ...none, value: true },
    }),
    "h",
  );
  assert.equal(field.role, "AXTextField");
  assert.equal(field.value, "cats");
  const slider = rawNodeOf(
    facts({ controlType: 50015, range: 1 / 3, patterns: { ...none, rangeValue: true } }),
    "s",
  );
  assert.equal(slider.value, "0.333333");
  const combo = rawNodeOf(
    facts({ controlType: 50003, patterns: { ...none, value: true }, valueReadOnly: true }),
    "c",
  );
  assert.equal(combo.role, "AXPopUpButton");
  assert.equal(
    rawNodeOf(facts({ controlType: 50030, framework: "Chrome" }), "d").role,
    "AXWebArea",
  );
  assert.equal(rawNodeOf(facts({}), "x").value, undefined);
});

Deno.test("handleOfRuntimeId() is short, stable and unsigned", () => {
  assert.equal(handleOfRuntimeId([42, 132004, 4]), "16.2tus.4");
  assert.equal(handleOfRuntimeId([-1]), "1z141z3");
  assert.equal(handleOfRuntimeId([]), "");
});
