/**
 * The AT-SPI engine against real apps on the headless desktop (issue 4): reads of GTK 4,
 * GTK 3 and Chromium windows, actions, app exit, and no display.
 */
import assert from "node:assert/strict";
import { byLabel, session } from "./support/client.ts";
import { calculator, chromium, mousepad, requireDesktop } from "./support/apps.ts";
import { DriverError } from "../protocol/errors.ts";
import { startDriver } from "./support/driver_process.ts";
import { DriverClient } from "../rpc/client.ts";
import { AtspiEngine } from "../engines/atspi/engine.ts";

requireDesktop();

const DIGITS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

Deno.test("read_ui of gnome-calculator lists its digit buttons with names and sane bounds", async () => {
  const app = await calculator();
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "gnome-calculator" });
    assert.equal(r.app, "gnome-calculator");
    assert.equal(r.pid, app.pid);
    assert.equal(r.engine, "atspi");
    assert.equal(r.source, "tree");
    const els = r.elements!;
    const win = els[0]!;
    assert.equal(win.role, "AXWindow");
    for (const d of DIGITS) {
      const b = byLabel(els, "AXButton", d);
      assert.ok(b.actions.includes("press"), `"${d}" can be pressed`);
      assert.ok(b.bounds.w > 10 && b.bounds.h > 10, `"${d}" has a size`);
      assert.ok(b.bounds.x >= win.bounds.x && b.bounds.y >= win.bounds.y, `"${d}" inside`);
      assert.ok(b.bounds.x + b.bounds.w <= win.bounds.x + win.bounds.w + 1);
    }
    const ids = new Set(els.map((e) => e.id));
    assert.equal(ids.size, els.length, "ids are unique");
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("the same window read twice gives identical ids, across driver processes too", async () => {
  // The pointer away from the calculator: a tooltip shown between two reads is a change.
  await new Deno.Command("xdotool", { args: ["mousemove", "1279", "1023"] }).output();
  const app = await calculator();
  const a = await session();
  const b = await session();
  try {
    const first = await a.client.call("read_ui", { app: "gnome-calculator" });
    const again = await a.client.call("read_ui", { window: first.window, fresh: true });
    const other = await b.client.call("read_ui", { app: "gnome-calculator" });
    const ids = (r: typeof first) => r.elements!.map((e) => `${e.role}:${e.name}:${e.id}`);
    assert.deepEqual(ids(again), ids(first));
    assert.deepEqual(ids(other), ids(first));
    assert.equal(again.version, first.version, "nothing visible changed: same version");
  } finally {
    await a.close();
    await b.close();
    await app.stop();
  }
});

Deno.test("act press on calculator's 7 changes the display", async () => {
  const app = await calculator();
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "gnome-calculator" });
    const seven = byLabel(r.elements!, "AXButton", "7");
    const res = await s.client.call("act", {
      window: r.window,
      version: r.version,
      id: seven.id,
      action: "press",
    });
    assert.equal(res.via, "action");
    assert.equal(res.effect, "changed");
    assert.ok(res.version > r.version);
    const display = [...res.changed, ...res.added].find((e) => e.role === "AXTextArea");
    assert.equal(display?.value, "7", "the diff carries the display's new value");
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("set_value and type_text into mousepad are read back", async () => {
  const app = await mousepad();
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "mousepad" });
    const area = r.elements!.find((e) =>
      e.role === "AXTextArea" && e.actions.includes("type_text")
    );
    assert.ok(area, "mousepad shows an editable text area");
    const set = await s.client.call("act", {
      window: r.window,
      version: r.version,
      id: area.id,
      action: "set_value",
      value: "Hello from the driver",
    });
    assert.equal(set.changed.find((e) => e.id === area.id)?.value, "Hello from the driver");
    const typed = await s.client.call("act", {
      window: r.window,
      version: set.version,
      id: area.id,
      action: "type_text",
      value: ", wörld ✓",
    });
    const after = await s.client.call("read_ui", { window: r.window, fresh: true });
    const text = after.elements!.find((e) => e.id === area.id)?.value ?? "";
    assert.ok(text.includes("Hello from the driver"), text);
    assert.ok(text.includes(", wörld ✓"), text);
    assert.equal(typed.effect, "changed");
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("read_ui of Chromium on a local page shows its links and buttons", async () => {
  const page = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(
    page,
    `<!doctype html><title>Driver test page</title><h1>Hello driver</h1>
     <a href="#one">First link</a> <a href="#two">Second link</a>
     <button onclick="document.getElementById('out').textContent='clicked'">Press me</button>
     <p id="out">waiting</p>`,
  );
  const app = await chromium(page, "Driver test page", "waiting");
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "chromium" });
    const els = r.elements!;
    assert.ok(els.some((e) => e.role === "AXWebArea" && e.name === "Driver test page"));
    assert.ok(els.some((e) => e.role === "AXLink" && e.name === "First link"));
    assert.ok(els.some((e) => e.role === "AXLink" && e.name === "Second link"));
    const button = els.find((e) => e.role === "AXButton" && e.name === "Press me");
    assert.ok(button);
    const res = await s.client.call("act", {
      window: r.window,
      version: r.version,
      id: button.id,
      action: "press",
    });
    const out = [...res.changed, ...res.added].find((e) => e.name === "clicked");
    assert.ok(out, "the page's reaction is in the diff");
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("an app that quits answers app_not_running and the driver keeps serving", async () => {
  const app = await calculator();
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "gnome-calculator" });
    await app.stop();
    const err = await s.client.call("read_ui", { window: r.window, fresh: true }).catch((e) => e);
    assert.ok(err instanceof DriverError);
    assert.ok(
      err.code === "app_not_running" || err.code === "window_not_found",
      `got ${err.code}`,
    );
    const byName = await s.client.call("read_ui", { app: "gnome-calculator" }).catch((e) => e);
    assert.equal(byName.code, "app_not_running");
    // Once a listing no longer finds the app, its window says it quit, not that it is unknown.
    await s.client.call("list_apps");
    const later = await s.client.call("read_ui", { window: r.window, fresh: true }).catch((e) => e);
    assert.equal(later.code, "app_not_running", later.message);
    assert.equal((await s.client.call("hello")).protocol, 1);
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("without a display every structured call fails as driver_unavailable", async () => {
  const proc = await startDriver(["serve"], { env: { DISPLAY: "", WAYLAND_DISPLAY: "" } });
  const client = await DriverClient.connect({ socket: proc.ready.socket! });
  try {
    const hello = await client.call("hello");
    const atspi = hello.engines.find((e) => e.name === "atspi")!;
    assert.equal(atspi.available, false);
    assert.equal(atspi.reason, "no_display");
    for (const op of ["read_ui", "list_apps"] as const) {
      const err = await client.call(op, {}).catch((e) => e);
      assert.equal(err.code, "driver_unavailable", op);
      assert.match(String(err.data.reason), /no_display/);
    }
    const pixel = await client.call("pixel_click", { x: 1, y: 1 }).catch((e) => e);
    assert.equal(pixel.code, "driver_unavailable");
  } finally {
    await client.close();
    await proc.stop();
  }
});

Deno.test("GTK 3 apps are called over their own peer socket, GTK 4 through the bus", async () => {
  const pad = await mousepad();
  const calc = await calculator();
  const engine = new AtspiEngine();
  try {
    const apps = await engine.listApps(AbortSignal.timeout(5_000));
    const byName = (n: string) => apps.find((a) => a.name === n)!;
    for (const name of ["mousepad", "gnome-calculator"]) {
      const tree = await engine.readWindow(byName(name).windows[0]!.window, {
        maxElements: 5_000,
        signal: AbortSignal.timeout(5_000),
      });
      assert.ok(tree.nodes > 5, `${name} read through whichever route`);
    }
    const peers = await engine.peerApps();
    assert.ok(peers.includes(byName("mousepad").app), "atk-bridge offers its socket");
    assert.ok(!peers.includes(byName("gnome-calculator").app), "GTK 4 has none");
  } finally {
    await engine.close();
    await calc.stop();
    await pad.stop();
  }
});

Deno.test("child counts a read records match what childCounts asks the app (GTK 3 and GTK 4)", async () => {
  const pad = await mousepad();
  const calc = await calculator();
  const engine = new AtspiEngine();
  try {
    const apps = await engine.listApps(AbortSignal.timeout(5_000));
    for (const name of ["mousepad", "gnome-calculator"]) {
      const window = apps.find((a) => a.name === name)!.windows[0]!.window;
      const budget = { maxElements: 5_000, signal: AbortSignal.timeout(10_000) };
      const tree = await engine.readWindow(window, budget);
      const containers: { handle: string; childCount?: number }[] = [];
      const stack = [...tree.root.children];
      while (stack.length) {
        const n = stack.pop()!;
        if (n.childCount !== undefined && n.children.length > 0) containers.push(n);
        stack.push(...n.children);
      }
      assert.ok(containers.length > 3, `${name}: ${containers.length} containers with counts`);
      const counts = await engine.childCounts(window, containers.map((c) => c.handle), budget);
      // A mismatch here would send the container to a subtree read on every patch.
      const off = containers.filter((c) => counts.get(c.handle) !== c.childCount);
      assert.deepEqual(
        off.map((c) => `${c.handle}: ${c.childCount} vs ${counts.get(c.handle)}`),
        [],
      );
    }
  } finally {
    await engine.close();
    await calc.stop();
    await pad.stop();
  }
});
