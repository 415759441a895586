import assert from "node:assert/strict";
import { DriverError } from "../../protocol/errors.ts";
import type { Capture } from "../../model/engine.ts";
import { captureScreen, captureWindow } from "./capture.ts";
import { X11Display } from "./display.ts";
import { windowBounds } from "./windows.ts";
import { run, start, waitFor } from "./_testing.ts";
import { desktopTests } from "../../tests/support/desktop.ts";

const desktop = desktopTests();

function pixel(c: Capture, x: number, y: number): number[] {
  const at = ((y - c.origin.y) * c.width + (x - c.origin.x)) * 4;
  return [...c.rgba.subarray(at, at + 4)];
}

function solidRoot(hex: string): Promise<string> {
  return run("xsetroot", "-solid", hex);
}

Deno.test({
  name: "captureScreen() reads the whole 1280x1024 screen as RGBA",
  ...desktop,
  fn: () => {
    using display = X11Display.open();
    const c = captureScreen(display);
    assert.equal(c.width, 1280);
    assert.equal(c.height, 1024);
    assert.equal(c.scale, 1);
    assert.deepEqual(c.origin, { x: 0, y: 0 });
    assert.equal(c.rgba.length, 1280 * 1024 * 4);
  },
});

Deno.test({
  name: "captureScreen() sees the root colour set by xsetroot, channels in RGBA order",
  ...desktop,
  fn: async () => {
    using display = X11Display.open();
    for (const [hex, rgb] of [["#ff0000", [255, 0, 0]], ["#12a4f0", [0x12, 0xa4, 0xf0]]] as const) {
      await solidRoot(hex);
      await waitFor(`the root to turn ${hex}`, () => {
        const c = captureScreen(display);
        const ok = [[0, 0], [640, 512], [1279, 1023]].every(([x, y]) =>
          pixel(c, x!, y!).join() === [...rgb, 255].join()
        );
        return ok ? true : undefined;
      });
    }
  },
});

Deno.test({
  name: "captureScreen() clips a region to the screen and rejects one fully off it",
  ...desktop,
  fn: () => {
    using display = X11Display.open();
    const c = captureScreen(display, { x: 1270, y: 1000, w: 50, h: 50 });
    assert.deepEqual([c.width, c.height, c.origin.x, c.origin.y], [10, 24, 1270, 1000]);
    assert.equal(c.rgba.length, 10 * 24 * 4);
    assert.throws(() => captureScreen(display, { x: 2000, y: 0, w: 10, h: 10 }), (err: unknown) => {
      assert.ok(err instanceof DriverError);
      assert.equal(err.code, "invalid_params");
      return true;
    });
  },
});

Deno.test({
  name: "captureWindow() reads a window at its absolute geometry",
  ...desktop,
  fn: async () => {
    using display = X11Display.open();
    await solidRoot("#ff0000");
    const app = start("xmessage", "-geometry", "+100+150", "-bg", "#00ff00", "capture me");
    try {
      const xid = await waitFor("the xmessage window", async () => {
        const ids = await run("xdotool", "search", "--onlyvisible", "--class", "Xmessage");
        return ids.trim() ? Number(ids.trim().split("\n")[0]) : undefined;
      });
      const info = await run("xwininfo", "-id", String(xid));
      const field = (name: string) => Number(new RegExp(`${name}:\\s+(-?\\d+)`).exec(info)![1]);
      const bounds = windowBounds(display, xid);
      // xwininfo reports the outer corner; windowBounds() the inside of the border.
      const border = field("Border width");
      assert.deepEqual(bounds, {
        x: field("Absolute upper-left X") + border,
        y: field("Absolute upper-left Y") + border,
        w: field("Width"),
        h: field("Height"),
      });
      const c = await waitFor("the window to be drawn green", () => {
        const c = captureWindow(display, xid);
        return pixel(c, bounds.x + 1, bounds.y + 1).join() === "0,255,0,255" ? c : undefined;
      });
      assert.deepEqual([c.width, c.height], [bounds.w, bounds.h]);
      assert.deepEqual(c.origin, { x: bounds.x, y: bounds.y });
      // Just outside the window and its border the root is still red.
      const [ox, oy] = [bounds.x - border - 1, bounds.y - border - 1];
      const around = captureScreen(display, { x: ox, y: oy, w: 2, h: 2 });
      assert.deepEqual(pixel(around, ox, oy), [255, 0, 0, 255]);
    } finally {
      await app.stop();
    }
  },
});

Deno.test({
  name: "captureWindow() of a window that does not exist is window_not_found",
  ...desktop,
  fn: () => {
    using display = X11Display.open();
    assert.throws(() => captureWindow(display, 0x7fffff3), (err: unknown) => {
      assert.ok(err instanceof DriverError);
      assert.equal(err.code, "window_not_found");
      assert.equal(err.data.window, "0x7fffff3");
      return true;
    });
  },
});
