import assert from "node:assert/strict";
import { DriverError } from "../../protocol/errors.ts";
import { X11Display } from "./display.ts";
import { run } from "./_testing.ts";
import { desktopTests } from "../../tests/support/desktop.ts";

const desktop = desktopTests();

function assertNoDisplay(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "driver_unavailable");
    assert.equal(err.data.reason, "no_display");
    assert.match(err.message, message);
    return true;
  });
}

Deno.test("X11Display.open() without DISPLAY is driver_unavailable (no_display)", () => {
  const saved = Deno.env.get("DISPLAY");
  Deno.env.delete("DISPLAY");
  try {
    assertNoDisplay(() => X11Display.open(), /^Cannot open X display: DISPLAY is not set$/);
  } finally {
    if (saved !== undefined) Deno.env.set("DISPLAY", saved);
  }
});

Deno.test("X11Display.open() of an unreachable display is driver_unavailable (no_display)", () => {
  assertNoDisplay(() => X11Display.open(":987"), /^Cannot open X display ":987": /);
});

Deno.test({
  name: "X11Display reports the screen size and pointer, and close() is idempotent",
  ...desktop,
  fn: async () => {
    const display = X11Display.open();
    assert.deepEqual(display.screenSize(), { width: 1280, height: 1024 });
    await run("xdotool", "mousemove", "321", "123");
    assert.deepEqual(display.pointerPosition(), { x: 321, y: 123, mask: 0 });
    const root = await run("xwininfo", "-root");
    assert.match(root, new RegExp(`Window id: 0x${display.rootWindow.toString(16)} `));
    display.sync();
    display.close();
    display.close();
    assert.ok(display.closed);
    assert.throws(() => display.screenSize(), (err: unknown) => {
      assert.ok(err instanceof DriverError);
      assert.equal(err.code, "driver_unavailable");
      assert.equal(err.data.reason, "closed");
      return true;
    });
  },
});

Deno.test({
  name: "X11Display closes with `using`",
  ...desktop,
  fn: () => {
    let outer: X11Display | undefined;
    {
      using display = X11Display.open();
      outer = display;
      assert.ok(!display.closed);
    }
    assert.ok(outer.closed);
  },
});
