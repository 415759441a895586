/**
 * The live element map (issue 5) on real apps: changes made outside the driver, the
 * pre-act sync, re-reads without accessibility calls, a hung app, quit and relaunch,
 * the watch limit and a burst of structural changes.
 */
import assert from "node:assert/strict";
import { byLabel, centre, session } from "./support/client.ts";
import {
  calculator,
  chromium,
  mousepad,
  requireDesktop,
  typeFromOutside,
  type Typist,
  widgetFactory,
  xdotoolClick,
} from "./support/apps.ts";
import { oracleNodes } from "./support/oracle.ts";

requireDesktop();

const display = (els: readonly { role: string; value?: string | undefined }[]) =>
  els.find((e) => e.role === "AXTextArea")?.value;

Deno.test("a click made outside the driver shows in the next read_ui since, with the diff", async () => {
  const app = await calculator();
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "gnome-calculator" });
    const eight = byLabel(r.elements!, "AXButton", "8");
    const shown = display(r.elements!);
    const { x, y } = centre(eight);
    await xdotoolClick(x, y);
    const v = await s.client.call("verify", {
      window: r.window,
      query: { role: "AXTextArea" },
      expect: { value: "8" },
      timeout_ms: 5_000,
    });
    assert.equal(v.ok, true, `display reads ${JSON.stringify(v.actual?.value)}`);
    const d = await s.client.call("read_ui", { window: r.window, since: r.version });
    assert.ok(d.version > r.version);
    const changed = d.changed!.find((e) => e.role === "AXTextArea");
    assert.equal(changed?.value, "8", `was ${JSON.stringify(shown)}`);
    assert.equal(d.reset, undefined);
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("act planned before an outside click is refused stale_version with the current map", async () => {
  const app = await calculator();
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "gnome-calculator" });
    const three = byLabel(r.elements!, "AXButton", "3");
    await xdotoolClick(centre(three).x, centre(three).y);
    await s.client.call("verify", {
      window: r.window,
      query: { role: "AXTextArea" },
      expect: { value: "3" },
      timeout_ms: 5_000,
    });
    const err = await s.client.call("act", {
      window: r.window,
      version: r.version,
      id: three.id,
      action: "press",
    }).catch((e) => e);
    assert.equal(err.code, "stale_version");
    assert.ok(err.data.map.version > r.version);
    assert.equal(display(err.data.map.elements), "3");
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("re-reads of a clean window make no accessibility call", async () => {
  const app = await calculator();
  // A long probe period keeps the probe's two calls out of the count.
  const s = await session({}, { probe_ms: 120_000 });
  try {
    const r = await s.client.call("read_ui", { app: "gnome-calculator" });
    // The first walk makes GTK 4 announce the objects it exposed; wait until quiet.
    let cached = false;
    for (let i = 0; i < 50 && !cached; i++) {
      cached = (await s.client.call("read_ui", { window: r.window })).cached;
    }
    assert.ok(cached, "the window settles into cached reads");
    const before = (await s.client.call("hello")).live;
    for (let i = 0; i < 25; i++) {
      const again = await s.client.call("read_ui", { window: r.window });
      assert.equal(again.cached, true);
      const byApp = await s.client.call("read_ui", { app: "gnome-calculator" });
      assert.equal(byApp.cached, true);
    }
    const after = (await s.client.call("hello")).live;
    assert.equal(after.calls, before.calls, "no accessibility call");
    assert.equal(after.walks, before.walks, "no walk");
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("a stopped (hung) app answers timeout while other windows stay fast", async () => {
  const calc = await calculator();
  const pad = await mousepad();
  const s = await session();
  try {
    const c = await s.client.call("read_ui", { app: "gnome-calculator" });
    const m = await s.client.call("read_ui", { app: "mousepad" });
    Deno.kill(pad.pid, "SIGSTOP");
    try {
      const t0 = performance.now();
      const hung = s.client.call("read_ui", { window: m.window, fresh: true }).catch((e) => e);
      const reads: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await s.client.call("read_ui", { window: c.window, fresh: true });
        reads.push(performance.now() - t);
      }
      const err = await hung;
      const took = performance.now() - t0;
      assert.equal(err.code, "timeout", `got ${err.code}: ${err.message}`);
      assert.ok(took < 8_000, `the hung app answered after ${took} ms`);
      assert.ok(Math.max(...reads) < 1_000, `calculator reads took ${reads.join(", ")} ms`);
    } finally {
      Deno.kill(pad.pid, "SIGCONT");
    }
  } finally {
    await s.close();
    await calc.stop();
    await pad.stop();
  }
});

Deno.test("quit and relaunch: app_not_running, then a fresh watch of the new process", async () => {
  const first = await calculator();
  const s = await session();
  try {
    const r1 = await s.client.call("read_ui", { app: "gnome-calculator" });
    await first.stop();
    const err = await s.client.call("read_ui", { app: "gnome-calculator" }).catch((e) => e);
    assert.equal(err.code, "app_not_running");
    const second = await calculator();
    try {
      const r2 = await s.client.call("read_ui", { app: "gnome-calculator" });
      assert.equal(r2.pid, second.pid);
      assert.notEqual(r2.window, r1.window);
      assert.equal(r2.version, 1);
      assert.equal((await s.client.call("hello")).live.watched, 1, "the old watch is gone");
    } finally {
      await second.stop();
    }
  } finally {
    await s.close();
  }
});

Deno.test("past the watch limit the least recently used window is dropped", async () => {
  const apps = [await calculator(), await mousepad(), await widgetFactory()];
  const s = await session({}, { watch_limit: 2 });
  try {
    const a = await s.client.call("read_ui", { app: "gnome-calculator" });
    await s.client.call("read_ui", { app: "mousepad" });
    await s.client.call("read_ui", { app: "gtk3-widget-factory" });
    assert.equal((await s.client.call("hello")).live.watched, 2);
    const err = await s.client.call("act", {
      window: a.window,
      version: a.version,
      id: a.elements![0]!.id,
      action: "focus",
    }).catch((e) => e);
    assert.equal(err.code, "window_not_found");
  } finally {
    await s.close();
    for (const app of apps) await app.stop();
  }
});

Deno.test("a burst of 100 structural changes is read again a few times, not 100", async () => {
  const page = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(
    page,
    `<!doctype html><title>Burst page</title>
     <button onclick="const l = document.getElementById('l');
       for (let i = 0; i < 100; i++) { const li = document.createElement('li');
       li.textContent = 'row ' + i; l.appendChild(li); }">Add rows</button><ul id="l"></ul>`,
  );
  const app = await chromium(page, "Burst page", "Add rows");
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "chromium" });
    const button = r.elements!.find((e) => e.role === "AXButton" && e.name === "Add rows")!;
    const before = (await s.client.call("hello")).live.walks!;
    const res = await s.client.call("act", {
      window: r.window,
      version: r.version,
      id: button.id,
      action: "press",
    });
    const after = (await s.client.call("hello")).live.walks!;
    // Rows scrolled out of view are not on screen, so they are not read (by design).
    const rows = res.added.filter((e) => e.name.startsWith("row "));
    assert.ok(rows.length >= 20, `the diff shows the visible rows (${rows.length})`);
    assert.ok(rows.some((e) => e.name === "row 0"));
    assert.ok(after - before <= 6, `${after - before} walks for one burst`);
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("max_elements cuts the answer only: the map keeps the window, ids past the cut act", async () => {
  const app = await calculator();
  const s = await session();
  try {
    const cut = await s.client.call("read_ui", { app: "gnome-calculator", max_elements: 5 });
    assert.equal(cut.elements!.length, 5);
    assert.equal(cut.truncated, true);
    // The next read without a limit answers the whole window from the same map.
    const whole = await s.client.call("read_ui", { window: cut.window });
    assert.ok(whole.elements!.length > 30, `${whole.elements!.length} elements`);
    assert.equal(whole.truncated, undefined);
    const seven = byLabel(whole.elements!, "AXButton", "7");
    assert.ok(!cut.elements!.some((e) => e.id === seven.id), "7 lies past the cut");
    const acted = await s.client.call("act", {
      window: cut.window,
      version: whole.version,
      id: seven.id,
      action: "press",
    });
    assert.equal(acted.ok, true);
    // Read independently (pyatspi, its own process): the calculator's display shows the 7.
    const shown = (await oracleNodes(app.pid)).filter((n) => n.role === "text" && n.text);
    assert.ok(shown.some((n) => /7/.test(n.text!)), JSON.stringify(shown));
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("an app that keeps posting is not patched forever: unused windows are unwatched", async () => {
  const pad = await mousepad();
  const s = await session({}, { active_ms: 1_000, unwatch_ms: 3_000 });
  // Typing from outside the driver for ~15 s: mousepad posts a text change per key.
  let typist: Typist | undefined;
  try {
    const r = await s.client.call("read_ui", { app: "mousepad" });
    const area = r.elements!.find((e) => e.role === "AXTextArea")!;
    const { x, y } = centre(area);
    await xdotoolClick(x, y); // focus its text, from outside the driver
    typist = typeFromOutside("x", 150);
    // No caller reads from here on: the busy window must still be let go.
    const deadline = Date.now() + 8_000;
    let watched = -1;
    while (Date.now() < deadline) {
      watched = (await s.client.call("hello")).live.watched;
      if (watched === 0) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    assert.equal(watched, 0, "every window dropped after unwatch_ms without a caller's use");
    assert.ok(typist.typing, "mousepad was still busy when its window was let go");
    // The typing went on meanwhile (read independently: mousepad's own text).
    const text = (await oracleNodes(pad.pid)).find((n) => n.role === "text" && n.text)?.text;
    assert.match(text ?? "", /x{10}/, "mousepad kept receiving keys");
  } finally {
    await typist?.stop();
    await s.close();
    await pad.stop();
  }
});

Deno.test("an idle window is checked before it is answered from memory, and says cached", async () => {
  const app = await calculator();
  // Windows go idle 100 ms after a read: not probed in the background from then on.
  const s = await session({}, { active_ms: 100, probe_ms: 200 });
  try {
    const r = await s.client.call("read_ui", { app: "gnome-calculator" });
    let cached = false;
    for (let i = 0; i < 50 && !cached; i++) {
      cached = (await s.client.call("read_ui", { window: r.window })).cached;
    }
    assert.ok(cached, "the window settles into cached reads");
    await new Promise((res) => setTimeout(res, 800)); // idle past the probe's reach
    const before = (await s.client.call("hello")).live;
    const idle = await s.client.call("read_ui", { window: r.window });
    const after = (await s.client.call("hello")).live;
    assert.ok(after.calls! > before.calls!, "the probe's calls ran before the answer");
    assert.equal(after.walks, before.walks, "they vouched for the map: no walk");
    assert.equal(idle.cached, true, "answered from memory, after the check");
    assert.equal(idle.version, r.version);
  } finally {
    await s.close();
    await app.stop();
  }
});
