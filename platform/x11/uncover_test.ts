import assert from "node:assert/strict";
import { obscured, owns, pointOf } from "./uncover.ts";
import type { PlacedWindow } from "./stacking.ts";

const win = (xid: number, pid: number, title = "W"): PlacedWindow => ({
  xid,
  pid,
  title,
  instance: "w",
  className: "W",
  bounds: { x: 0, y: 0, w: 10, h: 10 },
  frame: xid,
});

Deno.test("uncover: pointer input has a point, keys and scrolls without one have none", () => {
  assert.deepEqual(pointOf({ kind: "click", x: 3, y: 4, button: "left", count: 1 }), {
    x: 3,
    y: 4,
  });
  assert.deepEqual(pointOf({ kind: "drag", from: { x: 1, y: 2 }, to: { x: 9, y: 9 } }), {
    x: 1,
    y: 2,
  });
  assert.equal(pointOf({ kind: "type", text: "a" }), undefined);
  assert.equal(pointOf({ kind: "scroll", dx: 0, dy: 1 }), undefined);
});

Deno.test("uncover: a window is the owner's by pid, or by its own id for vision", () => {
  assert.equal(owns({ pid: 7 }, win(1, 7)), true);
  assert.equal(owns({ pid: 7 }, win(1, 8)), false);
  assert.equal(owns({ xid: 1 }, win(1, 0)), true);
  // Two windows without _NET_WM_PID (Tk, Xt) are not the same app's.
  assert.equal(owns({ xid: 1 }, win(2, 0)), false);
  // A window of the owner's process (its dialog) is its own.
  assert.equal(owns({ xid: 1 }, win(2, 9), 9), true);
});

Deno.test("uncover: obscured names the cover's title, pid and X window id", () => {
  const err = obscured("Covered by", win(0x1a00007, 42, "Cover"));
  assert.equal(err.code, "obscured");
  assert.match(err.message, /"Cover" \(pid 42\)/);
  assert.deepEqual(err.data.covering, { x11_window: "0x1a00007", title: "Cover", pid: 42 });
});
