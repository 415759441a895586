import assert from "node:assert/strict";
import { DriverError } from "../../protocol/errors.ts";
import { onClose, X11Display, x11Handle } from "./display.ts";
import { run } from "./_testing.ts";
import { desktopTests } from "../../tests/support/desktop.ts";
import { startXvfb } from "../../tests/support/own_desktop.ts";

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

const linuxOnly = { ignore: Deno.build.os !== "linux" };

function assertGone(fn: () => unknown, display: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "driver_unavailable");
    assert.equal(err.data.reason, "x_display_gone");
    assert.equal(err.data.display, display);
    return true;
  });
}

Deno.test({
  name: "X11Display outlives its X server, and reconnects on first use once one is back",
  ...linuxOnly,
  fn: async () => {
    const server = await startXvfb();
    try {
      const display = X11Display.open(server.display);
      display.sync();
      const first = x11Handle(display).connection;
      await server.kill();
      // The loss is found on the next use, and the process is still here to say so.
      assertGone(() => display.sync(), server.display);
      assert.ok(display.lost);
      assertGone(() => display.pointerPosition(), server.display);
      await server.start();
      assert.deepEqual(display.screenSize(), { width: 1024, height: 768 });
      assert.ok(!display.lost);
      assert.equal(x11Handle(display).connection, first + 1);
      display.sync();
      display.close();
      assert.ok(display.closed);
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "X11Display opened with reconnect: false stays lost; its onClose hooks are dropped",
  ...linuxOnly,
  fn: async () => {
    const server = await startXvfb();
    try {
      const display = X11Display.open(server.display, { reconnect: false });
      let undone = 0;
      onClose(display, () => undone++);
      await server.kill();
      assertGone(() => display.sync(), server.display);
      await server.start();
      assertGone(() => display.sync(), server.display);
      display.close();
      // What they would undo lived on the dead server: never run against it.
      assert.equal(undone, 0);
    } finally {
      await server.stop();
    }
  },
});
