import assert from "node:assert/strict";
import { loadEngines } from "../engines/registry.ts";
import { ALL_ENGINE_OPS } from "../engines/ops.ts";
import { defaultConfig } from "../model/config.ts";
import { DriverError } from "../protocol/errors.ts";
import { AuditLog, Router } from "../router/mod.ts";
import { DriverCore } from "./core.ts";
import {
  BUSY_APP_WAIT_MS,
  locateWindow,
  mapEngineOf,
  pickEngine,
  sourceOf,
} from "./engine_choice.ts";
import {
  button,
  canvas,
  entryOf,
  type ScriptedApp,
  ScriptedEngine,
  windowNode,
} from "./_fake_engines.ts";

const signal = () => AbortSignal.timeout(5_000);

/** Notes, a window with enough named elements to be read from its tree alone. */
function notesApp(): ScriptedApp {
  return {
    app: "app.notes",
    name: "Notes",
    pid: Deno.pid,
    windows: [{
      window: "w-notes",
      focused: true,
      tree: windowNode("notes-win", "Notes", [
        button("save", "Save", 0),
        button("open", "Open", 70),
        button("undo", "Undo", 140),
        button("redo", "Redo", 210),
        button("print", "Print", 280),
      ]),
    }],
  };
}

/** A calculator only pixels can see (no accessibility tree). */
function calcApp(): ScriptedApp {
  return {
    app: "vision:xcalc",
    name: "xcalc",
    pid: Deno.pid,
    windows: [{ window: "w-xcalc", focused: true, tree: windowNode("xcalc-win", "xcalc") }],
  };
}

const NOTES = { window: "w-notes", app: "app.notes", appName: "Notes", pid: Deno.pid };

/** A core over `engines` (preferred first), as Driver.start wires it, with no timers. */
async function withCore(
  engines: readonly ScriptedEngine[],
  fn: (core: DriverCore) => void | Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "engine_choice_test_" });
  const loaded = await loadEngines(engines.map(entryOf));
  const serving = loaded.filter((l) => l.engine && l.availability.available)
    .map((l) => ({ name: l.entry.name, ops: l.engine?.ops ?? l.entry.ops }));
  const audit = new AuditLog(`${dir}/audit.jsonl`);
  const core = new DriverCore(
    loaded,
    { ...defaultConfig(), probe_ms: 60_000 },
    new Router(serving),
    audit,
  );
  try {
    await fn(core);
  } finally {
    await core.live.close();
    await audit.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** alpha (preferred, every op) and beta (no screenshot, zoom or pixel input). */
function alphaBeta() {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: [notesApp()] });
  const beta = new ScriptedEngine("beta", {
    ops: ["list_apps", "read_ui", "act", "run_batch", "find", "verify"],
    apps: [notesApp()],
  });
  return { alpha, beta };
}

Deno.test("pickEngine() serves a watched window with the engine that read its map", async () => {
  const { alpha, beta } = alphaBeta();
  await withCore([alpha, beta], async (core) => {
    await core.live.refresh(NOTES, signal(), false, "beta");
    assert.deepEqual(pickEngine(core, "read_ui", { window: "w-notes" }), {
      engine: "beta",
      reason: "map",
      app: "Notes",
      window: "w-notes",
    });
    for (const op of ["find", "verify"] as const) {
      assert.equal(pickEngine(core, op, { window: "w-notes" }).engine, "beta", op);
    }
  });
});

Deno.test("pickEngine() sends actions on a watched window to the engine that read its map", async () => {
  const { alpha, beta } = alphaBeta();
  await withCore([alpha, beta], async (core) => {
    await core.live.refresh(NOTES, signal(), false, "beta");
    for (const op of ["act", "run_batch"] as const) {
      const pick = pickEngine(core, op, { window: "w-notes", version: 1 });
      assert.deepEqual({ engine: pick.engine, reason: pick.reason }, {
        engine: "beta",
        reason: "map",
      }, op);
    }
  });
});

Deno.test("pickEngine() leaves a watched window to the router when its map engine lacks the op", async () => {
  const { alpha, beta } = alphaBeta();
  await withCore([alpha, beta], async (core) => {
    await core.live.refresh(NOTES, signal(), false, "beta");
    // Only alpha declares screenshot: capability decides.
    assert.deepEqual(pickEngine(core, "screenshot", { window: "w-notes" }), {
      engine: "alpha",
      reason: "capability",
      app: "Notes",
      window: "w-notes",
    });
  });
});

Deno.test("pickEngine() takes the router's default among several capable engines when the map engine lacks the op", async () => {
  const { alpha, beta } = alphaBeta();
  const gamma = new ScriptedEngine("gamma", { ops: ["screenshot"], apps: [notesApp()] });
  await withCore([alpha, beta, gamma], async (core) => {
    await core.live.refresh(NOTES, signal(), false, "beta");
    const pick = pickEngine(core, "screenshot", { window: "w-notes" });
    assert.equal(pick.engine, "alpha");
    assert.equal(pick.reason, "default");
  });
});

Deno.test("pickEngine() gives an unknown window or app to the router's pick", async () => {
  const { alpha, beta } = alphaBeta();
  await withCore([alpha, beta], async (core) => {
    await core.live.refresh(NOTES, signal(), false, "beta");
    assert.deepEqual(pickEngine(core, "read_ui", { window: "w-nowhere" }), {
      engine: "alpha",
      reason: "default",
      app: "?",
      window: "w-nowhere",
    });
    // An app named, even one with a watched window, is the router's: only a window is mapped.
    assert.deepEqual(pickEngine(core, "read_ui", { app: "Notes" }), {
      engine: "alpha",
      reason: "default",
      app: "Notes",
      window: undefined,
    });
    assert.deepEqual(pickEngine(core, "act", { window: "w-nowhere", version: 1 }), {
      engine: "alpha",
      reason: "default",
      app: "?",
      window: "w-nowhere",
    });
    assert.equal(pickEngine(core, "pixel_click", { x: 1, y: 2 }).app, "*");
    assert.equal(pickEngine(core, "read_ui", { app: 4242 }).app, "4242");
  });
});

Deno.test("pickEngine() follows what the router learned for a window it does not watch", async () => {
  const { alpha, beta } = alphaBeta();
  await withCore([alpha, beta], (core) => {
    for (let i = 0; i < 3; i++) {
      core.router.record({ op: "read_ui", app: "Notes" }, "alpha", {
        ok: false,
        ms: 5,
        code: "internal",
      });
    }
    const pick = pickEngine(core, "read_ui", { app: "Notes" });
    assert.deepEqual({ engine: pick.engine, reason: pick.reason }, {
      engine: "beta",
      reason: "failures",
    });
  });
});

Deno.test("pickEngine() sends a watched window to the router once its map engine is unavailable", async () => {
  const { alpha, beta } = alphaBeta();
  await withCore([alpha, beta], async (core) => {
    await core.live.refresh(NOTES, signal(), false, "beta");
    beta.availabilityNow = { available: false, reason: "restarting" };
    await core.recheck();
    const pick = pickEngine(core, "read_ui", { window: "w-notes" });
    assert.deepEqual({ engine: pick.engine, reason: pick.reason }, {
      engine: "alpha",
      reason: "default",
    });
  });
});

Deno.test("pickEngine() keeps hello for the driver itself (engine undefined, reason meta)", async () => {
  const { alpha, beta } = alphaBeta();
  await withCore([alpha, beta], (core) => {
    assert.deepEqual(pickEngine(core, "hello", {}), {
      engine: undefined,
      reason: "meta",
      app: "*",
      window: undefined,
    });
    // list_apps is meta too, but an engine lists the apps: it is routed.
    assert.equal(pickEngine(core, "list_apps", {}).engine, "alpha");
  });
});

Deno.test("pickEngine() answers reason unavailable when no engine can serve", async () => {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: [notesApp()] });
  alpha.availabilityNow = { available: false, reason: "no_display" };
  await withCore([alpha], (core) => {
    assert.equal(core.routable, false);
    for (const op of ["read_ui", "act", "list_apps", "pixel_click"] as const) {
      const pick = pickEngine(core, op, { app: "Notes" });
      assert.deepEqual({ engine: pick.engine, reason: pick.reason }, {
        engine: undefined,
        reason: "unavailable",
      }, op);
    }
    // hello still answers, as the driver's own op.
    assert.equal(pickEngine(core, "hello", {}).reason, "meta");
  });
});

Deno.test("mapEngineOf() is the engine that read the window's map, whatever the router prefers", async () => {
  const { alpha, beta } = alphaBeta();
  await withCore([alpha, beta], async (core) => {
    const w = await core.live.refresh(NOTES, signal(), false, "beta");
    assert.equal(mapEngineOf(core, w, true), beta);
    const again = await core.live.refresh(NOTES, signal(), true, "alpha");
    assert.equal(
      mapEngineOf(core, again, true),
      alpha,
      "a full read by alpha hands the map to alpha",
    );
  });
});

Deno.test("locateWindow() finds the window with the picked engine when it sees the app", async () => {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: [notesApp()] });
  const vision = new ScriptedEngine("vision", { ops: ALL_ENGINE_OPS, apps: [notesApp()] });
  await withCore([alpha, vision], async (core) => {
    const found = await locateWindow(core, alpha, { app: "notes" }, signal());
    assert.deepEqual(found, { target: NOTES, engine: "alpha" });
    assert.equal(vision.listCalls, 0, "vision is not asked");
    assert.equal(core.router.degradedReason("Notes"), undefined);
  });
});

Deno.test("locateWindow() falls back to vision for an app the picked engine does not see", async () => {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: [notesApp()] });
  const vision = new ScriptedEngine("vision", {
    ops: ALL_ENGINE_OPS,
    apps: [calcApp()],
    notifies: false,
  });
  await withCore([alpha, vision], async (core) => {
    const found = await locateWindow(core, alpha, { app: "xcalc" }, signal());
    assert.deepEqual(found, {
      target: { window: "w-xcalc", app: "vision:xcalc", appName: "xcalc", pid: Deno.pid },
      engine: "vision",
    });
    assert.equal(core.router.degradedReason("xcalc"), "no_accessibility_tree");
  });
});

/** Notes as the AT-SPI engine lists an app that did not answer: its pid and name, no window. */
function silentNotes(): ScriptedApp {
  return {
    ...notesApp(),
    windows: [],
    live: { state: "degraded", reason: "app_not_responding" },
  };
}

Deno.test("locateWindow() asks again for an app on the bus that answered no window yet", async () => {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: [silentNotes()] });
  const vision = new ScriptedEngine("vision", { ops: ALL_ENGINE_OPS, apps: [notesApp()] });
  await withCore([alpha, vision], async (core) => {
    const answers = setTimeout(() => alpha.apps = [notesApp()], 300);
    try {
      const found = await locateWindow(core, alpha, { app: Deno.pid }, signal());
      assert.deepEqual(found, { target: NOTES, engine: "alpha" }, "its tree, once it answered");
      assert.ok(alpha.listCalls >= 2);
      assert.equal(vision.listCalls, 0, "its pixels were never the answer");
      assert.equal(core.router.degradedReason("Notes"), undefined);
    } finally {
      clearTimeout(answers);
    }
  });
});

Deno.test("locateWindow() reads an app that stays silent past the wait by its pixels", async () => {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: [silentNotes()] });
  const vision = new ScriptedEngine("vision", { ops: ALL_ENGINE_OPS, apps: [notesApp()] });
  await withCore([alpha, vision], async (core) => {
    const t0 = performance.now();
    const found = await locateWindow(core, alpha, { app: Deno.pid }, signal());
    assert.equal(found.engine, "vision");
    assert.ok(performance.now() - t0 >= BUSY_APP_WAIT_MS, "after the wait");
  });
});

Deno.test("locateWindow() falls back to vision for a window id the picked engine does not know", async () => {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: [notesApp()] });
  const vision = new ScriptedEngine("vision", { ops: ALL_ENGINE_OPS, apps: [calcApp()] });
  await withCore([alpha, vision], async (core) => {
    const found = await locateWindow(core, alpha, { window: "w-xcalc" }, signal());
    assert.equal(found.engine, "vision");
    assert.equal(found.target.window, "w-xcalc");
  });
});

Deno.test("locateWindow() rethrows the picked engine's error when vision does not see the app either", async () => {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: [notesApp()] });
  const vision = new ScriptedEngine("vision", { ops: ALL_ENGINE_OPS, apps: [calcApp()] });
  await withCore([alpha, vision], async (core) => {
    await assert.rejects(
      locateWindow(core, alpha, { app: "Ghost" }, signal()),
      (err: unknown) => {
        assert.ok(err instanceof DriverError);
        assert.equal(err.code, "app_not_running");
        // alpha's answer (its apps), not vision's.
        assert.deepEqual(err.data.apps, ["Notes"]);
        return true;
      },
    );
    assert.equal(vision.listCalls, 1, "vision was asked");
    assert.equal(core.router.degradedReason("Ghost"), undefined);
  });
});

Deno.test("locateWindow() never falls back to vision without an app or window named", async () => {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: [] });
  const vision = new ScriptedEngine("vision", { ops: ALL_ENGINE_OPS, apps: [calcApp()] });
  await withCore([alpha, vision], async (core) => {
    await assert.rejects(
      locateWindow(core, alpha, {}, signal()),
      (err: unknown) => err instanceof DriverError && err.code === "window_not_found",
    );
    assert.equal(vision.listCalls, 0);
  });
});

Deno.test("locateWindow() does not fall back to vision when the engine fails for another reason", async () => {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: [notesApp()] });
  const vision = new ScriptedEngine("vision", { ops: ALL_ENGINE_OPS, apps: [calcApp()] });
  alpha.failOnce("listApps", new Error("bus hung up"));
  await withCore([alpha, vision], async (core) => {
    await assert.rejects(locateWindow(core, alpha, { app: "xcalc" }, signal()), /bus hung up/);
    assert.equal(vision.listCalls, 0);
  });
});

Deno.test("locateWindow() does not fall back when the picked engine is vision itself", async () => {
  const vision = new ScriptedEngine("vision", { ops: ALL_ENGINE_OPS, apps: [calcApp()] });
  await withCore([vision], async (core) => {
    await assert.rejects(
      locateWindow(core, vision, { app: "Ghost" }, signal()),
      (err: unknown) => err instanceof DriverError && err.code === "app_not_running",
    );
    assert.equal(vision.listCalls, 1, "asked once, not twice");
  });
});

Deno.test("sourceOf() says vision, degraded, for a window vision read", async () => {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS });
  const vision = new ScriptedEngine("vision", { ops: ALL_ENGINE_OPS, apps: [calcApp()] });
  await withCore([alpha, vision], async (core) => {
    const { target } = await locateWindow(core, alpha, { app: "xcalc" }, signal());
    const w = await core.live.refresh(target, signal(), false, "vision");
    assert.deepEqual(sourceOf(core, w), {
      source: {
        source: "vision",
        source_reason: "no_accessibility_tree",
        degraded: true,
        degraded_reason: "no_accessibility_tree",
      },
    });
  });
});

Deno.test("sourceOf() answers the tree alone for a rich tree, with no re-read", async () => {
  const { alpha, beta } = alphaBeta();
  await withCore([alpha, beta], async (core) => {
    const w = await core.live.refresh(NOTES, signal());
    assert.deepEqual(sourceOf(core, w), { source: { source: "tree" } });
  });
});

Deno.test("sourceOf() keeps an empty tree's read and says why when no merged engine serves", async () => {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: [calcApp()] });
  await withCore([alpha], async (core) => {
    const target = { window: "w-xcalc", app: "vision:xcalc", appName: "xcalc", pid: Deno.pid };
    const w = await core.live.refresh(target, signal());
    assert.deepEqual(sourceOf(core, w), {
      source: {
        source: "tree",
        source_reason:
          "empty_tree; merging in vision needs the alpha+vision engine, unavailable here",
        degraded: true,
        degraded_reason: "empty_tree",
      },
    });
  });
});

Deno.test("sourceOf() asks for a re-read by the merged engine for a thin tree over a canvas", async () => {
  const apps = (): ScriptedApp[] => [{
    app: "app.paint",
    name: "Paint",
    pid: Deno.pid,
    windows: [{
      window: "w-paint",
      tree: windowNode("paint-win", "Paint", [button("pen", "Pen"), canvas("area")]),
    }],
  }];
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: apps() });
  const merged = new ScriptedEngine("alpha+vision", { ops: ["read_ui"], apps: apps() });
  await withCore([alpha, merged], async (core) => {
    const target = { window: "w-paint", app: "app.paint", appName: "Paint", pid: Deno.pid };
    const w = await core.live.refresh(target, signal(), false, "alpha");
    assert.deepEqual(sourceOf(core, w), {
      source: {
        source: "both",
        source_reason: "sparse_tree",
        degraded: true,
        degraded_reason: "sparse_tree",
      },
      reread: "alpha+vision",
    });
    // Read by the merged engine, the same tree calls for no other re-read.
    const again = await core.live.refresh(target, signal(), true, "alpha+vision");
    assert.equal(sourceOf(core, again).reread, undefined);
  });
});

Deno.test("sourceOf() sends a merged window back to the tree engine once its tree has grown", async () => {
  const alpha = new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: [notesApp()] });
  const merged = new ScriptedEngine("alpha+vision", { ops: ["read_ui"], apps: [notesApp()] });
  await withCore([alpha, merged], async (core) => {
    const w = await core.live.refresh(NOTES, signal(), false, "alpha+vision");
    assert.deepEqual(sourceOf(core, w), { source: { source: "tree" }, reread: "alpha" });
  });
});

Deno.test("an engine a hello found gone is asked again until it is back, without another hello", async () => {
  const { alpha } = alphaBeta();
  await withCore([alpha], async (core) => {
    alpha.availabilityNow = { available: false, reason: "no_accessibility_bus" };
    await core.recheck();
    assert.throws(() => core.engine(), /no_accessibility_bus/);
    // The bus is back: within a retry period the engine serves again.
    alpha.availabilityNow = { available: true };
    const deadline = performance.now() + 5_000;
    while (core.available("alpha") === undefined && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(core.engine(), alpha);
  });
});
