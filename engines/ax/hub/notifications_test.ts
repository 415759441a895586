import assert from "node:assert/strict";
import {
  APP_NOTIFICATIONS,
  decodeTag,
  encodeTag,
  keepsHandle,
  kindOf,
  WEB_AREA_NOTIFICATIONS,
} from "./notifications.ts";

Deno.test("the app notification list covers the design document's list", () => {
  for (
    const note of [
      "AXValueChanged",
      "AXTitleChanged",
      "AXCreated",
      "AXUIElementDestroyed",
      "AXFocusedUIElementChanged",
      "AXFocusedWindowChanged",
      "AXMainWindowChanged",
      "AXWindowCreated",
      "AXWindowMoved",
      "AXWindowResized",
      "AXWindowMiniaturized",
      "AXLayoutChanged",
      "AXRowCountChanged",
      "AXRowExpanded",
      "AXRowCollapsed",
      "AXSelectedChildrenChanged",
      "AXSelectedRowsChanged",
      "AXSelectedTextChanged",
      "AXSelectedCellsChanged",
      "AXMenuOpened",
      "AXMenuClosed",
      "AXSheetCreated",
      "AXDrawerCreated",
      "AXApplicationHidden",
      "AXApplicationShown",
    ]
  ) {
    assert.ok((APP_NOTIFICATIONS as readonly string[]).includes(note), note);
  }
  assert.equal(new Set(APP_NOTIFICATIONS).size, APP_NOTIFICATIONS.length);
  assert.ok((WEB_AREA_NOTIFICATIONS as readonly string[]).includes("AXLoadComplete"));
});

Deno.test("kindOf() maps notifications to the live map's kinds", () => {
  assert.equal(kindOf("AXValueChanged"), "property");
  assert.equal(kindOf("AXCreated"), "structure");
  assert.equal(kindOf("AXRowCountChanged"), "structure");
  assert.equal(kindOf("AXSelectedRowsChanged"), "state");
  assert.equal(kindOf("AXSelectedTextChanged"), "text");
  assert.equal(kindOf("AXFocusedUIElementChanged"), "focus");
  assert.equal(kindOf("AXWindowMoved"), "bounds");
  assert.equal(kindOf("AXWindowResized"), "bounds");
  for (
    const note of [
      "AXWindowCreated",
      "AXFocusedWindowChanged",
      "AXMainWindowChanged",
      "AXWindowMiniaturized",
      "AXMenuOpened",
      "AXSheetCreated",
      "AXDrawerCreated",
      "AXApplicationHidden",
    ]
  ) {
    assert.equal(kindOf(note), "window", note);
  }
  assert.equal(kindOf("AXSomethingNew"), "property");
});

Deno.test("every registered notification has a deliberate kind", () => {
  for (const note of [...APP_NOTIFICATIONS, ...WEB_AREA_NOTIFICATIONS]) {
    assert.ok(kindOf(note), note);
  }
});

Deno.test("keepsHandle() keeps the element for node-level notifications only", () => {
  assert.equal(keepsHandle("AXValueChanged"), true);
  assert.equal(keepsHandle("AXUIElementDestroyed"), true);
  assert.equal(keepsHandle("AXFocusedUIElementChanged"), true);
  // A new element no map holds, a container's layout, a window that moved everything.
  assert.equal(keepsHandle("AXCreated"), false);
  assert.equal(keepsHandle("AXLayoutChanged"), false);
  assert.equal(keepsHandle("AXWindowMoved"), false);
});

Deno.test("encodeTag() and decodeTag() carry a pid and the web-area flag in a refcon", () => {
  for (const pid of [1, 501, 99_999, 0x7fff_ffff]) {
    for (const web of [false, true]) {
      const tag = encodeTag(pid, web);
      assert.ok(tag !== 0n);
      assert.deepEqual(decodeTag(tag), { pid, web });
    }
  }
});
