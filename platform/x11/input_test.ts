import assert from "node:assert/strict";
import { loadXtst } from "../../ffi/linux_x11.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { PixelInput } from "../../model/engine.ts";
import { X11Display } from "./display.ts";
import { sendInput } from "./input.ts";
import { windowsForPid } from "./windows.ts";
import {
  type App,
  mousepadWindow,
  run,
  start,
  waitFor,
  waitForEvents,
  watchRoot,
} from "./_testing.ts";
import { desktopTests } from "../../tests/support/desktop.ts";

/** A point over the bare root window, away from where test apps open. */
const FREE = { x: 1100, y: 900 };

async function withRootEvents(fn: (display: X11Display, xev: App) => Promise<void>): Promise<void> {
  using display = X11Display.open();
  await send(display, { kind: "move", ...FREE });
  const xev = await watchRoot();
  try {
    await fn(display, xev);
  } finally {
    await xev.stop();
  }
}

function send(display: X11Display, input: PixelInput, signal = AbortSignal.timeout(10_000)) {
  return sendInput(display, input, signal);
}

async function mouseLocation(): Promise<{ x: number; y: number }> {
  const out = await run("xdotool", "getmouselocation", "--shell");
  return { x: Number(/X=(\d+)/.exec(out)![1]), y: Number(/Y=(\d+)/.exec(out)![1]) };
}

async function spareKeycodes(): Promise<number> {
  return (await run("xmodmap", "-pke")).split("\n").filter((l) => /=\s*$/.test(l)).length;
}

const display = desktopTests();

// libX11/libXtst stay loaded for the life of the process by design; load them before the
// tests so the resource sanitizer does not count them against the first test.
if (!display.ignore) loadXtst();

Deno.test({
  ...display,
  name: "sendInput() move puts the pointer where xdotool sees it",
  fn: async () => {
    using d = X11Display.open();
    await send(d, { kind: "move", x: 212, y: 345 });
    assert.deepEqual(await mouseLocation(), { x: 212, y: 345 });
    await send(d, { kind: "move", x: 1279.4, y: 0 });
    assert.deepEqual(await mouseLocation(), { x: 1279, y: 0 });
  },
});

Deno.test({
  ...display,
  name: "sendInput() click presses and releases the button count times at the point",
  fn: () =>
    withRootEvents(async (d, xev) => {
      await send(d, { kind: "click", x: 1000, y: 800, button: "left", count: 2 });
      await send(d, { kind: "click", x: 1010, y: 810, button: "right", count: 1 });
      await send(d, { kind: "click", x: 1020, y: 820, button: "middle", count: 1 });
      const events = await waitForEvents(xev, 8);
      assert.deepEqual(
        events.map((e) => `${e.type} ${e.button} ${e.x},${e.y}`),
        [
          "ButtonPress 1 1000,800",
          "ButtonRelease 1 1000,800",
          "ButtonPress 1 1000,800",
          "ButtonRelease 1 1000,800",
          "ButtonPress 3 1010,810",
          "ButtonRelease 3 1010,810",
          "ButtonPress 2 1020,820",
          "ButtonRelease 2 1020,820",
        ],
      );
      assert.deepEqual(await mouseLocation(), { x: 1020, y: 820 });
    }),
});

Deno.test({
  ...display,
  name: "sendInput() scroll uses wheel buttons 4-7, moving first when given a point",
  fn: () =>
    withRootEvents(async (d, xev) => {
      await send(d, { kind: "scroll", x: 900, y: 700, dx: 0, dy: 2 });
      await send(d, { kind: "scroll", dx: -1, dy: -1 });
      await send(d, { kind: "scroll", dx: 1, dy: 0 });
      const presses = (await waitForEvents(xev, 10)).filter((e) => e.type === "ButtonPress");
      assert.deepEqual(presses.map((e) => e.button), [5, 5, 4, 6, 7]);
      assert.ok(presses.every((e) => e.x === 900 && e.y === 700));
    }),
});

Deno.test({
  ...display,
  name: "sendInput() drag presses at from, moves, and releases at to",
  fn: () =>
    withRootEvents(async (d, xev) => {
      await send(d, { kind: "drag", from: { x: 800, y: 600 }, to: { x: 1000, y: 650 } });
      const events = await waitForEvents(xev, 2);
      assert.deepEqual(
        events.map((e) => `${e.type} ${e.button} ${e.x},${e.y}`),
        ["ButtonPress 1 800,600", "ButtonRelease 1 1000,650"],
      );
    }),
});

Deno.test({
  ...display,
  name: "sendInput() key presses a chord in order and releases it in reverse",
  fn: () =>
    withRootEvents(async (d, xev) => {
      await send(d, { kind: "key", keys: "ctrl+shift+z" });
      await send(d, { kind: "key", keys: "Return alt+F4 super" });
      const events = await waitForEvents(xev, 14);
      assert.deepEqual(events.map((e) => `${e.type} ${e.key}`), [
        "KeyPress Control_L",
        "KeyPress Shift_L",
        "KeyPress Z",
        "KeyRelease Z",
        "KeyRelease Shift_L",
        "KeyRelease Control_L",
        "KeyPress Return",
        "KeyRelease Return",
        "KeyPress Alt_L",
        "KeyPress F4",
        "KeyRelease F4",
        "KeyRelease Alt_L",
        "KeyPress Super_L",
        "KeyRelease Super_L",
      ]);
    }),
});

Deno.test({
  ...display,
  name: "sendInput() types characters missing from the keymap and restores the mapping",
  fn: () =>
    withRootEvents(async (d, xev) => {
      const spare = await spareKeycodes();
      await send(d, { kind: "type", text: "aÖ✓\n" });
      const events = await waitForEvents(xev, 8);
      assert.deepEqual(
        events.filter((e) => e.type === "KeyPress").map((e) => e.key),
        ["a", "Odiaeresis", "U2713", "Return"],
      );
      assert.equal(await spareKeycodes(), spare);
    }),
});

Deno.test({
  ...display,
  name: "sendInput() hold releases the key when the signal aborts",
  fn: () =>
    withRootEvents(async (d, xev) => {
      const stop = new AbortController();
      const held = send(d, { kind: "hold", key: "shift", ms: 60_000 }, stop.signal);
      await waitForEvents(xev, 1);
      stop.abort(new Error("caller gave up"));
      await assert.rejects(held, /caller gave up/);
      const events = await waitForEvents(xev, 2);
      assert.deepEqual(events.map((e) => `${e.type} ${e.key}`), [
        "KeyPress Shift_L",
        "KeyRelease Shift_L",
      ]);
    }),
});

Deno.test({
  ...display,
  name: "X11Display.close() during a hold releases the key first",
  fn: async () => {
    const xev = await watchRoot();
    const d = X11Display.open();
    try {
      await send(d, { kind: "move", ...FREE });
      const held = send(d, { kind: "hold", key: "shift", ms: 300 });
      await waitForEvents(xev, 1);
      d.close();
      await assert.rejects(held, (err: unknown) => {
        assert.ok(err instanceof DriverError);
        assert.equal(err.code, "driver_unavailable");
        assert.equal(err.data.reason, "closed");
        return true;
      });
      const events = await waitForEvents(xev, 2);
      assert.deepEqual(events.map((e) => `${e.type} ${e.key}`), [
        "KeyPress Shift_L",
        "KeyRelease Shift_L",
      ]);
    } finally {
      d.close();
      await xev.stop();
    }
  },
});

Deno.test({
  ...display,
  name: "X11Display.close() while typing unbinds the scratch keycodes",
  fn: async () => {
    const spare = await spareKeycodes();
    const d = X11Display.open();
    // sendInput() runs synchronously up to the restore grace: bound, typed, not restored.
    const typing = send(d, { kind: "type", text: "✓€" });
    assert.equal(await spareKeycodes(), spare - 2);
    d.close();
    await assert.rejects(typing, (err: unknown) => err instanceof DriverError);
    assert.equal(await spareKeycodes(), spare);
  },
});

Deno.test({
  ...display,
  name: "sendInput() rejects an unknown key as invalid_params without pressing anything",
  fn: () =>
    withRootEvents(async (d, xev) => {
      for (
        const input of [
          { kind: "key", keys: "ctrl+nosuchkey" },
          { kind: "hold", key: "Hyperspace", ms: 10 },
        ] as const
      ) {
        await assert.rejects(send(d, input), (err: unknown) => {
          assert.ok(err instanceof DriverError);
          assert.equal(err.code, "invalid_params");
          assert.match(err.message, /^Unknown key "/);
          return true;
        });
      }
      await send(d, { kind: "key", keys: "space" }); // a marker: it must be the first event
      const events = await waitForEvents(xev, 2);
      assert.deepEqual(events.map((e) => `${e.type} ${e.key}`), [
        "KeyPress space",
        "KeyRelease space",
      ]);
    }),
});

Deno.test({
  ...display,
  ...display,
  name: "sendInput() types Unicode text into mousepad and ctrl+a ctrl+c copies it",
  fn: async () => {
    using d = X11Display.open();
    const app = start("mousepad", "--disable-server");
    try {
      const win = await mousepadWindow(app.pid);
      assert.ok(windowsForPid(d, app.pid).includes(win));
      await run("xdotool", "windowfocus", "--sync", String(win));
      const text = "Hello, wörld ✓";
      await send(d, { kind: "type", text });
      await send(d, { kind: "key", keys: "ctrl+a ctrl+c" });
      let last = "";
      await waitFor(`the clipboard to hold "${text}"`, async () => {
        last = await run("xclip", "-o", "-selection", "clipboard");
        return last === text ? true : undefined;
      }).catch((err) => {
        throw new Error(`${err.message}; it held "${last}"`, { cause: err });
      });
    } finally {
      await app.stop();
    }
  },
});
