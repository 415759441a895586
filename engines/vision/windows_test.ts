import assert from "node:assert/strict";
import { findWindow, type Listing, parseWindowId, windowId } from "./windows.ts";

Deno.test("windowId() and parseWindowId() round-trip, 0x form accepted", () => {
  assert.equal(windowId(0x400016), "x400016");
  assert.equal(parseWindowId("x400016"), 0x400016);
  assert.equal(parseWindowId("0x400016"), 0x400016);
  assert.equal(parseWindowId("w770671b2"), undefined);
  assert.equal(parseWindowId("x"), undefined);
});

const listing: Listing = {
  windows: new Map(),
  apps: [
    {
      app: "x11:xcalc",
      pid: 0,
      name: "xcalc",
      windows: [{
        window: "x1",
        title: "Calculator",
        bounds: { x: 0, y: 0, w: 226, h: 394 },
        focused: false,
      }],
    },
    {
      app: "x11:gnome-calculator:42",
      pid: 42,
      name: "gnome-calculator",
      windows: [
        {
          window: "x2",
          title: "Calculator",
          bounds: { x: 300, y: 0, w: 360, h: 600 },
          focused: true,
        },
        {
          window: "x3",
          title: "Preferences",
          bounds: { x: 320, y: 40, w: 300, h: 200 },
          focused: false,
        },
      ],
    },
  ],
};

Deno.test("findWindow() matches by pid and title, then title and place, then place", () => {
  assert.equal(findWindow(listing, { pid: 42, title: "Preferences" }), "x3");
  assert.equal(findWindow(listing, { pid: 42, title: "Calculator" }), "x2");
  assert.equal(
    findWindow(listing, { title: "Calculator", bounds: { x: 1, y: 1, w: 226, h: 394 } }),
    "x1",
  );
  assert.equal(findWindow(listing, { bounds: { x: 320, y: 40, w: 300, h: 200 } }), "x3");
  assert.equal(findWindow(listing, { title: "Nothing" }), undefined);
});
