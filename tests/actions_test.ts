/**
 * Actions that settle and tell the truth (issue 7), on real apps through the AT-SPI
 * engine: batches by id, the stale-version guard, verify, find, and no-op detection.
 */
import assert from "node:assert/strict";
import { byLabel, centre, quiet, session } from "./support/client.ts";
import {
  calculator,
  chromium,
  mousepad,
  requireDesktop,
  typeFromOutside,
  type Typist,
  xdotoolClick,
} from "./support/apps.ts";
import { oracleNodes } from "./support/oracle.ts";

requireDesktop();

Deno.test("batch 7 + 8 = by ids from one read puts 15 on the display", async () => {
  const app = await calculator();
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "gnome-calculator" });
    const press = (label: string) => ({
      id: byLabel(r.elements!, "AXButton", label).id,
      action: "press" as const,
    });
    const b = await s.client.call("run_batch", {
      window: r.window,
      version: r.version,
      steps: [press("7"), press("+"), press("8"), press("=")],
    });
    assert.equal(b.ok, true);
    assert.equal(b.results.length, 4);
    for (const step of b.results) {
      assert.equal(step.ok, true);
      assert.ok(step.settled === "quiet" || step.settled === "no_reaction", step.settled);
    }
    const display = [...b.changed, ...b.added].find((e) => e.role === "AXTextArea");
    assert.equal(display?.value, "15");
    // Later steps resolved ids planned on version r.version after the window moved on.
    assert.ok(b.version > r.version + 1);
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("act planned on an old version is refused stale_version with the current map", async () => {
  const app = await calculator();
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "gnome-calculator" });
    const one = byLabel(r.elements!, "AXButton", "1");
    const first = await s.client.call("act", {
      window: r.window,
      version: r.version,
      id: one.id,
      action: "press",
    });
    const err = await s.client.call("act", {
      window: r.window,
      version: r.version,
      id: one.id,
      action: "press",
    }).catch((e) => e);
    assert.equal(err.code, "stale_version");
    assert.equal(err.data.map.version, first.version);
    assert.equal(err.data.map.window, r.window);
    assert.ok(err.data.map.elements.some((e: { id: string }) => e.id === one.id));
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("a batch with a missing id reports that step and keeps the driver healthy", async () => {
  const app = await calculator();
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "gnome-calculator" });
    const two = byLabel(r.elements!, "AXButton", "2");
    const b = await s.client.call("run_batch", {
      window: r.window,
      version: r.version,
      steps: [
        { id: two.id, action: "press" },
        { id: "nosuchid0000", action: "press" },
        { id: two.id, action: "press" },
      ],
    });
    assert.equal(b.ok, false);
    assert.equal(b.results[0]!.ok, true);
    assert.equal(b.results[1]!.error?.code, "element_not_found");
    assert.equal(b.results[2]!.skipped, true);
    const again = await s.client.call("read_ui", { window: r.window });
    assert.equal(again.elements!.find((e) => e.role === "AXTextArea")?.value, "2");
  } finally {
    await s.close();
    await app.stop();
  }
});

const PAGE = `<!doctype html><title>Settle page</title>
<button onclick="setTimeout(() => { document.getElementById('out').textContent = 'done' }, 300)">Later</button>
<p id="out">waiting</p><p>Static words</p>`;

Deno.test("verify waits for a value that appears 300 ms later and returns when it does", async () => {
  const page = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(page, PAGE);
  const app = await chromium(page, "Settle page", "Static words");
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "chromium" });
    const later = r.elements!.find((e) => e.role === "AXButton" && e.name === "Later")!;
    assert.ok(later, `no "Later" in ${r.elements!.length} elements from ${r.engine} (${r.source})`);
    const t0 = performance.now();
    const res = await s.client.call("act", {
      window: r.window,
      version: r.version,
      id: later.id,
      action: "press",
    });
    const v = await s.client.call("verify", {
      window: r.window,
      query: { role: "AXStaticText", name: "done" },
      expect: { exists: true },
      timeout_ms: 5_000,
    });
    const took = performance.now() - t0;
    assert.equal(v.ok, true);
    assert.equal(v.actual?.name, "done");
    assert.ok(took >= 250, `verify returned before the change (${took} ms)`);
    assert.ok(took < 2_500, `verify should wake on the notification, took ${took} ms`);
    assert.ok(res.version >= r.version);
    const miss = await s.client.call("verify", {
      window: r.window,
      query: { name: "never there" },
      expect: { exists: true },
      timeout_ms: 300,
    });
    assert.equal(miss.ok, false);
    assert.equal(miss.actual, null);
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("find answers by role, name and name_contains from the current map", async () => {
  const page = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(page, PAGE);
  const app = await chromium(page, "Settle page", "Static words");
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "chromium" });
    const f = await s.client.call("find", { window: r.window, query: { name_contains: "STATIC" } });
    const said = `${r.elements!.length} elements read by ${r.engine} (${r.source})`;
    assert.ok(f.elements.some((e) => e.name === "Static words"), said);
    const g = await s.client.call("find", {
      window: r.window,
      query: { role: "AXButton", name: "Later" },
    });
    assert.equal(g.elements.length, 1);
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("an action that does nothing answers effect none after the no-reaction window", async () => {
  const page = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(page, PAGE);
  const app = await chromium(page, "Settle page", "Static words");
  const s = await session();
  try {
    const first = await s.client.call("read_ui", { app: "chromium" });
    const r = await quiet(s.client, first.window);
    const words = r.elements!.find((e) => e.name === "Static words")!;
    // Pressing plain text: Chromium offers the action, the page does nothing.
    const res = await s.client.call("act", {
      window: r.window,
      version: r.version,
      id: words.id,
      action: "press",
    });
    assert.equal(res.effect, "none");
    assert.equal(res.settled, "no_reaction");
    assert.equal(res.version, r.version);
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("an action on an app that never goes quiet answers busy with the diff, not timeout", async () => {
  const pad = await mousepad();
  const s = await session();
  let typist: Typist | undefined;
  try {
    const r = await s.client.call("read_ui", { app: "mousepad" });
    const area = r.elements!.find((e) => e.role === "AXTextArea")!;
    const { x, y } = centre(area);
    await xdotoolClick(x, y);
    // Typing from outside the driver for ~12 s: mousepad posts a change every 100 ms.
    typist = typeFromOutside("x", 120);
    // The typist changes the map every 100 ms: an act planned on a version that a change
    // overtook is refused stale with the current map, and planned again on it, as an agent
    // would.
    let version = (await s.client.call("read_ui", { window: r.window })).version;
    let acted;
    for (let attempt = 0; attempt < 5; attempt++) {
      acted = await s.client.call("act", {
        window: r.window,
        version,
        id: area.id,
        action: "type_text",
        value: "Z",
        timeout_ms: 8_000,
      }).catch((e) => e);
      if (acted.code !== "stale_version") break;
      version = acted.data.map.version;
    }
    assert.equal(acted.ok, true, `answered ${JSON.stringify(acted)}`);
    assert.equal(acted.settled, "busy");
    assert.ok(acted.settle_ms >= 1_500 && acted.settle_ms < 4_000, `settle_ms ${acted.settle_ms}`);
    // The typing happened (read independently: mousepad's own text).
    const text = (await oracleNodes(pad.pid)).find((n) => n.role === "text" && n.text)?.text;
    assert.match(text ?? "", /Z/);
  } finally {
    await typist?.stop();
    await s.close();
    await pad.stop();
  }
});

Deno.test("a batch step whose element was relabelled is found by its crop and pressed", async () => {
  const page = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(
    page,
    `<!doctype html><title>Relabel page</title>
     <button id="save" aria-label="Save" onclick="document.title='Saved page'">Save</button>
     <button onclick="document.getElementById('save').setAttribute('aria-label','Store')">Rename</button>
     <p>ready</p>`,
  );
  const app = await chromium(page, "Relabel page", "ready");
  const s = await session();
  try {
    // Read with crops: the version keeps each element's pixels.
    const r = await s.client.call("read_ui", { app: "chromium", crops: true });
    const save = byLabel(r.elements!, "AXButton", "Save");
    const rename = byLabel(r.elements!, "AXButton", "Rename");
    const batch = await s.client.call("run_batch", {
      window: r.window,
      version: r.version,
      steps: [
        { id: rename.id, action: "press" },
        // Renamed by the first step: a new id now, the same pixels.
        { id: save.id, action: "press" },
      ],
    });
    assert.equal(batch.ok, true, JSON.stringify(batch.results));
    assert.equal(batch.results[1]!.resolved_by, "crop");
    // Chromium's own window title says the relabelled button was pressed.
    const deadline = Date.now() + 10_000;
    let frames: string[] = [];
    while (Date.now() < deadline) {
      frames = (await oracleNodes(app.pid, 20, 0)).map((n) => n.name);
      if (frames.some((f) => /Saved page/.test(f))) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    assert.ok(frames.some((f) => /Saved page/.test(f)), JSON.stringify(frames));
  } finally {
    await s.close();
    await app.stop();
    await Deno.remove(page);
  }
});
