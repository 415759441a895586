import assert from "node:assert/strict";
import { automationEvent, FocusTracker, propertyEvent, structureEvent } from "./event_map.ts";
import { EVENT, PROP, STRUCTURE_CHANGE } from "./ids.ts";

Deno.test("property changes map to the live map's kinds", () => {
  assert.deepEqual(propertyEvent(7, "h", PROP.BoundingRectangle), {
    app: "p7",
    kind: "bounds",
    handle: "h",
  });
  assert.deepEqual(propertyEvent(7, "h", PROP.ValueValue), {
    app: "p7",
    kind: "property",
    handle: "h",
  });
  assert.deepEqual(propertyEvent(7, "h", PROP.ToggleState), {
    app: "p7",
    kind: "state",
    handle: "h",
  });
  assert.deepEqual(propertyEvent(7, "h", PROP.IsOffscreen), {
    app: "p7",
    kind: "state",
    handle: "h",
    detail: "showing",
  });
});

Deno.test("structure changes name the parent, except ChildAdded (the new child)", () => {
  assert.deepEqual(structureEvent(7, "c", STRUCTURE_CHANGE.ChildAdded), {
    app: "p7",
    kind: "structure",
  });
  for (const change of [1, 2, 3, 4, 5]) {
    assert.deepEqual(structureEvent(7, "p", change), { app: "p7", kind: "structure", handle: "p" });
  }
});

Deno.test("automation events: text edits name the element, windows and menus do not", () => {
  assert.deepEqual(automationEvent(7, "h", EVENT.Text_TextChanged), {
    app: "p7",
    kind: "text",
    handle: "h",
  });
  assert.deepEqual(automationEvent(7, "h", EVENT.Window_WindowOpened), {
    app: "p7",
    kind: "window",
  });
  assert.deepEqual(automationEvent(7, "h", EVENT.MenuOpened), { app: "p7", kind: "window" });
});

Deno.test("FocusTracker also names the node that lost focus", () => {
  const f = new FocusTracker();
  assert.deepEqual(f.moved(7, "a"), [{ app: "p7", kind: "focus", handle: "a" }]);
  assert.deepEqual(f.moved(7, "b"), [
    { app: "p7", kind: "focus", handle: "a" },
    { app: "p7", kind: "focus", handle: "b" },
  ]);
  assert.deepEqual(f.moved(7, "b"), [{ app: "p7", kind: "focus", handle: "b" }]);
  assert.deepEqual(f.moved(8, "z"), [{ app: "p8", kind: "focus", handle: "z" }]);
});
