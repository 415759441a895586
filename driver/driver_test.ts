import assert from "node:assert/strict";
import { ALL_ENGINE_OPS } from "../engines/ops.ts";
import { defaultConfig, type DriverConfig } from "../model/config.ts";
import type { RawNode } from "../model/engine.ts";
import type { Element } from "../protocol/element.ts";
import { DriverError } from "../protocol/errors.ts";
import { Dispatcher } from "../rpc/dispatcher.ts";
import { type DriverPaths, driverPaths } from "../util/paths.ts";
import { Driver } from "./driver.ts";
import {
  button,
  entryOf,
  type ScriptedApp,
  ScriptedEngine,
  until,
  windowNode,
} from "./_fake_engines.ts";

/** A text field whose value the tests change. */
function field(handle: string, name: string, value: string): RawNode {
  return {
    handle,
    role: "AXTextField",
    name,
    value,
    bounds: { x: 0, y: 100, w: 300, h: 24 },
    enabled: true,
    focused: false,
    actions: ["focus", "set_value"],
    children: [],
  };
}

/**
 * Notes (the app the tests drive) and Shell (the frontmost app, which the driver
 * prewarms at start, so it stays out of the way of Notes' counters).
 */
function desktop(): ScriptedApp[] {
  return [
    {
      app: "app.shell",
      name: "Shell",
      pid: Deno.pid,
      windows: [{
        window: "w-shell",
        focused: true,
        tree: windowNode("shell-win", "Shell", [button("run", "Run"), button("quit", "Quit", 70)]),
      }],
    },
    {
      app: "app.notes",
      name: "Notes",
      pid: Deno.pid,
      windows: [{
        window: "w-notes",
        tree: windowNode("notes-win", "Notes", [
          button("save", "Save", 0),
          button("open", "Open", 70),
          button("add-row", "Add row", 140),
          button("broken", "Broken", 210),
          button("print", "Print", 280),
          field("title", "Title", "draft"),
        ]),
      }],
    },
  ];
}

/** A calculator only pixels can see. */
function xcalc(): ScriptedApp {
  return {
    app: "vision:xcalc",
    name: "xcalc",
    pid: Deno.pid,
    windows: [{
      window: "w-xcalc",
      focused: true,
      tree: windowNode("xcalc-win", "xcalc", [
        button("k7", "7", 0),
        button("k8", "8", 70),
        button("plus", "+", 140),
        button("eq", "=", 210),
        button("clr", "AC", 280),
      ]),
    }],
  };
}

/** What a test gets: the driver, a dispatcher over its handlers and its files. */
interface Rig {
  driver: Driver;
  rpc: Dispatcher;
  paths: DriverPaths;
  /** One wire request; answers the parsed response. */
  line: (method: string, params?: unknown) => Promise<Record<string, unknown>>;
}

type Result = Record<string, unknown>;

/**
 * Starts a driver over `engines` (preferred first) in a temp data folder, waits for its
 * prewarm read of the frontmost window, runs `fn`, then closes it and removes the folder.
 */
async function withDriver(
  engines: readonly ScriptedEngine[],
  fn: (rig: Rig) => Promise<void>,
  config: Partial<DriverConfig> = {},
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "driver_test_" });
  const paths = driverPaths(dir);
  let driver: Driver | undefined;
  try {
    driver = await Driver.start({
      paths,
      // No probe during a test; short settle times so actions answer fast.
      config: {
        ...defaultConfig(),
        probe_ms: 60_000,
        settle_quiet_ms: 5,
        no_reaction_ms: 30,
        ...config,
      },
      engines: engines.map(entryOf),
    });
    const first = engines.find((e) => e.availabilityNow.available);
    if (first) {
      const windows = first.apps.some((a) => a.windows.length > 0);
      await until(
        () => first.listCalls >= 1 && (!windows || first.walks >= 1),
        "the prewarm read",
      );
      await new Promise((r) => setTimeout(r, 0)); // let the prewarm finish its bookkeeping
    }
    const rpc = new Dispatcher(driver.handlers(), { checkResults: true });
    let id = 0;
    const line = async (method: string, params?: unknown) => {
      const request = { jsonrpc: "2.0", id: ++id, method, ...(params ? { params } : {}) };
      const answer = await rpc.handleLine(JSON.stringify(request));
      assert.ok(answer !== undefined, "a request with an id is answered");
      return JSON.parse(answer) as Record<string, unknown>;
    };
    await fn({ driver, rpc, paths, line });
  } finally {
    await driver?.close();
    await Deno.remove(dir, { recursive: true });
  }
}

function elementsOf(r: Result): Element[] {
  return (r.elements ?? []) as Element[];
}

/** The id of the element named `name` in a read_ui answer. */
function idOf(r: Result, name: string): string {
  const el = elementsOf(r).find((e) => e.name === name);
  assert.ok(el, `no element "${name}" in ${elementsOf(r).map((e) => e.name).join(", ")}`);
  return el.id;
}

/** Presses Notes' Save, planned on `v1`, the window's first read. */
function pressSave(rpc: Dispatcher, v1: Result) {
  return rpc.call("act", { window: "w-notes", version: 1, id: idOf(v1, "Save"), action: "press" });
}

/** Every line of audit.jsonl (the driver must be closed first). */
async function auditLines(paths: DriverPaths): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(paths.audit);
  return text.trim().split("\n").map((l) => JSON.parse(l));
}

const alphaOnly = () => new ScriptedEngine("alpha", { ops: ALL_ENGINE_OPS, apps: desktop() });

/** Rejects with the DriverError `code`, and returns it for more checks. */
async function refused(p: Promise<unknown>, code: string): Promise<DriverError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof DriverError, `a DriverError, not ${err}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected ${code}`);
}

Deno.test("Driver read_ui answers a scripted app's elements and a version", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ rpc }) => {
    const r = await rpc.call("read_ui", { app: "Notes" });
    assert.equal(r.app, "Notes");
    assert.equal(r.pid, Deno.pid);
    assert.equal(r.window, "w-notes");
    assert.equal(r.version, 1);
    assert.equal(r.cached, false);
    assert.equal(r.engine, "alpha");
    assert.equal(r.source, "tree");
    assert.deepEqual(r.live, { state: "live" });
    assert.deepEqual(
      elementsOf(r).map((e) => e.name),
      ["Notes", "Save", "Open", "Add row", "Broken", "Print", "Title"],
    );
    assert.equal(elementsOf(r).find((e) => e.name === "Title")?.value, "draft");
    assert.equal(alpha.walksOf("w-notes"), 1);
  });
});

Deno.test("Driver read_ui answers a re-read from memory (cached) without a new walk", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ rpc }) => {
    const first = await rpc.call("read_ui", { app: "Notes" });
    const byApp = await rpc.call("read_ui", { app: "Notes" });
    const byWindow = await rpc.call("read_ui", { window: "w-notes" });
    for (const again of [byApp, byWindow]) {
      assert.equal(again.cached, true);
      assert.equal(again.version, first.version);
      assert.deepEqual(again.elements, first.elements);
    }
    assert.equal(alpha.walksOf("w-notes"), 1, "one walk in all");
    assert.deepEqual(alpha.patches, []);
  });
});

Deno.test("Driver read_ui after a notification answers the patched map at a new version", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ rpc }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    const titleId = idOf(v1, "Title");
    alpha.tree("w-notes").children[5]!.value = "edited";
    alpha.post({ app: "app.notes", kind: "text", handle: "title" });
    const v2 = await rpc.call("read_ui", { window: "w-notes", since: 1 });
    assert.equal(v2.version, 2);
    assert.equal(v2.cached, false);
    assert.deepEqual((v2.changed as Element[]).map((e) => [e.id, e.value]), [[titleId, "edited"]]);
    assert.deepEqual(v2.added, []);
    assert.deepEqual(v2.removed, []);
    assert.equal(alpha.walksOf("w-notes"), 1, "patched, not walked again");
  });
});

Deno.test("Driver act planned on an old version is refused stale_version with the current map", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ rpc, line }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    alpha.tree("w-notes").children[1]!.name = "Open…";
    alpha.post({ app: "app.notes", kind: "property", handle: "open" });
    const v2 = await rpc.call("read_ui", { window: "w-notes" });
    assert.equal(v2.version, 2);
    const r = await line("act", {
      window: "w-notes",
      version: 1,
      id: idOf(v1, "Save"),
      action: "press",
    });
    const error = r.error as { code: number; data: Record<string, unknown> };
    assert.equal(error.code, -32002);
    assert.equal(error.data.code, "stale_version");
    const map = error.data.map as { window: string; version: number; elements: Element[] };
    assert.equal(map.window, "w-notes");
    assert.equal(map.version, 2);
    assert.deepEqual(map.elements, v2.elements);
    assert.ok(map.elements.some((e) => e.name === "Open…"));
    assert.deepEqual(alpha.acts, [], "the engine never acted");
  });
});

Deno.test("Driver act on the current version acts on the right node and answers the settled diff", async () => {
  const alpha = alphaOnly();
  alpha.onAct = (call) => {
    if (call.handle !== "save") return;
    alpha.tree("w-notes").children[5]!.value = "saved";
    alpha.post({ app: "app.notes", kind: "text", handle: "title" });
  };
  await withDriver([alpha], async ({ rpc }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    const r = await pressSave(rpc, v1);
    assert.deepEqual(alpha.acts, [
      { window: "w-notes", handle: "save", action: "press", value: undefined },
    ]);
    assert.equal(r.ok, true);
    assert.equal(r.via, "action");
    assert.equal(r.settled, "quiet");
    assert.equal(r.effect, "changed");
    assert.equal(r.version, 2);
    assert.equal(r.engine, "alpha");
    assert.deepEqual((r.changed as Element[]).map((e) => [e.id, e.value]), [
      [idOf(v1, "Title"), "saved"],
    ]);
    assert.deepEqual(r.added, []);
    assert.deepEqual(r.removed, []);
  });
});

Deno.test("Driver act whose object the app replaced reads the window once and acts on the new one", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ rpc }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    // The app recreated the button's object without a notification (Gecko, Chromium):
    // the map still lists the id, and the engine finds the old handle gone.
    alpha.tree("w-notes").children[0] = button("save-2", "Save", 0);
    alpha.actError = (call) =>
      call.handle === "save" ? new DriverError("element_not_found", "Element is gone") : undefined;
    const r = await pressSave(rpc, v1);
    assert.deepEqual(alpha.acts.map((a) => a.handle), ["save", "save-2"]);
    assert.equal(r.ok, true);
    const hello = await rpc.call("hello", {}) as { live: { rebound?: number } };
    assert.equal(hello.live.rebound, 1, "hello counts it");
  });
});

Deno.test("Driver act that closes its own window answers ok and closed, not window_not_found", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ rpc }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    // A dialog's button: pressing it closes the window the action was in.
    alpha.onAct = () => {
      for (const app of alpha.apps) app.windows = app.windows.filter((w) => w.window !== "w-notes");
    };
    const r = await pressSave(rpc, v1);
    assert.equal(r.ok, true);
    assert.equal(r.closed, true);
    assert.equal(r.effect, "changed");
    await refused(rpc.call("read_ui", { window: "w-notes" }), "window_not_found");
  });
});

Deno.test("Driver act on an id that is really gone answers element_not_found after one re-read", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ rpc }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    alpha.tree("w-notes").children.splice(0, 1);
    alpha.actError = () => new DriverError("element_not_found", "Element is gone");
    await refused(
      pressSave(rpc, v1),
      "element_not_found",
    );
    assert.deepEqual(alpha.acts.map((a) => a.handle), ["save"], "acted once, then gave up");
  });
});

Deno.test("Driver act the app does not react to answers no_reaction and effect none", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ rpc }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    const r = await rpc.call("act", {
      window: "w-notes",
      version: 1,
      id: idOf(v1, "Title"),
      action: "set_value",
      value: "hello",
    });
    assert.deepEqual(alpha.acts, [
      { window: "w-notes", handle: "title", action: "set_value", value: "hello" },
    ]);
    assert.equal(r.settled, "no_reaction");
    assert.equal(r.effect, "none");
    assert.equal(r.version, 1);
    assert.deepEqual([r.added, r.changed, r.removed], [[], [], []]);
  });
});

Deno.test("Driver act that finds the element already as asked answers effect none", async () => {
  const alpha = alphaOnly();
  // While the engine reads the state, a change the app posted late (an earlier action's
  // notification) lands in the map: it is no effect of this act, which did nothing.
  alpha.actOutcome = async () => {
    alpha.tree("w-notes").children[5]!.value = "late";
    alpha.post({ app: "app.notes", kind: "text", handle: "title" });
    await new Promise((r) => setTimeout(r, 300));
    return { via: "action", already: true };
  };
  await withDriver([alpha], async ({ rpc }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    const r = await pressSave(rpc, v1);
    assert.equal(r.already, true);
    assert.equal(r.effect, "none", "nothing was done");
    assert.equal(r.settled, "no_reaction");
  });
});

Deno.test("Driver act on a window never read answers window_not_found", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ rpc }) => {
    const err = await refused(
      rpc.call("act", { window: "w-notes", version: 1, id: "abc", action: "press" }),
      "window_not_found",
    );
    assert.match(err.message, /read it with read_ui first/);
    assert.deepEqual(alpha.acts, []);
  });
});

Deno.test("Driver run_batch resolves ids against the planned version and runs steps in order", async () => {
  const alpha = alphaOnly();
  alpha.onAct = (call) => {
    const root = alpha.tree("w-notes");
    if (call.handle === "add-row") {
      root.children.push(button("row1", "Row 1", 350));
      alpha.post({ app: "app.notes", kind: "structure", handle: "notes-win" });
    } else if (call.handle === "save") {
      root.children[5]!.value = "saved";
      alpha.post({ app: "app.notes", kind: "text", handle: "title" });
    }
  };
  await withDriver([alpha], async ({ rpc }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    const r = await rpc.call("run_batch", {
      window: "w-notes",
      version: 1,
      steps: [
        { id: idOf(v1, "Add row"), action: "press" },
        { op: "pixel_click", x: 5, y: 6 },
        // Planned on version 1; the map is at version 2 by now, and the id still holds.
        { id: idOf(v1, "Save"), action: "press" },
      ],
    });
    assert.deepEqual(alpha.order, ["act:add-row", "input:click", "act:save"]);
    assert.deepEqual(alpha.inputs, [{ kind: "click", x: 5, y: 6, button: "left", count: 1 }]);
    assert.equal(r.ok, true);
    const results = r.results as { ok: boolean; via?: string; settled?: string }[];
    assert.deepEqual(results.map((s) => [s.ok, s.via]), [
      [true, "action"],
      [true, "pixel"],
      [true, "action"],
    ]);
    assert.equal(results[0]!.settled, "quiet");
    assert.equal(r.version, 3);
    assert.equal(r.engine, "alpha");
    assert.deepEqual((r.added as Element[]).map((e) => e.name), ["Row 1"]);
    assert.deepEqual((r.changed as Element[]).map((e) => [e.name, e.value]), [["Title", "saved"]]);
  });
});

Deno.test("Driver run_batch skips the steps after a failing one when stop_on_error", async () => {
  const alpha = alphaOnly();
  alpha.onAct = (call) => {
    if (call.handle !== "open") return;
    // Opening removes the Print button.
    const root = alpha.tree("w-notes");
    root.children = root.children.filter((c) => c.handle !== "print");
    alpha.post({ app: "app.notes", kind: "structure", handle: "notes-win" });
  };
  await withDriver([alpha], async ({ rpc }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    const r = await rpc.call("run_batch", {
      window: "w-notes",
      version: 1,
      steps: [
        { id: idOf(v1, "Open"), action: "press" },
        { id: idOf(v1, "Print"), action: "press" }, // gone after step 1
        { id: idOf(v1, "Save"), action: "press" },
      ],
    });
    assert.equal(r.ok, false);
    const results = r.results as {
      ok: boolean;
      skipped?: boolean;
      error?: { code: string; message: string };
      ms: number;
    }[];
    assert.equal(results[0]!.ok, true);
    assert.equal(results[1]!.ok, false);
    assert.equal(results[1]!.error?.code, "element_not_found");
    assert.match(results[1]!.error!.message, /gone at version 2/);
    assert.deepEqual(results[2], { ok: false, skipped: true, ms: 0 });
    assert.deepEqual(alpha.order, ["act:open"], "nothing acted after the failure");
    assert.equal(r.version, 2);
    assert.deepEqual(r.removed, [idOf(v1, "Print")]);
  });
});

Deno.test("Driver run_batch runs on after a failing step when stop_on_error is false", async () => {
  const alpha = alphaOnly();
  alpha.actError = (call) =>
    call.handle === "broken"
      ? new DriverError("action_not_supported", "Broken cannot be pressed", { actions: [] })
      : undefined;
  await withDriver([alpha], async ({ rpc }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    const r = await rpc.call("run_batch", {
      window: "w-notes",
      version: 1,
      stop_on_error: false,
      steps: [
        { id: idOf(v1, "Broken"), action: "press" },
        { id: idOf(v1, "Save"), action: "press" },
      ],
    });
    assert.equal(r.ok, false);
    const results = r.results as { ok: boolean; error?: { code: string } }[];
    assert.deepEqual(results.map((s) => [s.ok, s.error?.code]), [
      [false, "action_not_supported"],
      [true, undefined],
    ]);
    assert.deepEqual(alpha.order, ["act:broken", "act:save"]);
  });
});

Deno.test("Driver run_batch planned on an old version is refused before any step", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ rpc }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    alpha.tree("w-notes").children[5]!.value = "elsewhere";
    alpha.post({ app: "app.notes", kind: "text", handle: "title" });
    const err = await refused(
      rpc.call("run_batch", {
        window: "w-notes",
        version: 1,
        steps: [{ id: idOf(v1, "Save"), action: "press" }, { op: "pixel_key", keys: "Return" }],
      }),
      "stale_version",
    );
    assert.equal((err.data.map as { version: number }).version, 2);
    assert.deepEqual(alpha.order, []);
  });
});

Deno.test("Driver find answers matching elements from the map without a walk", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ rpc }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    const r = await rpc.call("find", { window: "w-notes", query: { name_contains: "sav" } });
    assert.deepEqual(elementsOf(r).map((e) => e.id), [idOf(v1, "Save")]);
    assert.equal(r.version, 1);
    assert.equal(alpha.walksOf("w-notes"), 1);
  });
});

Deno.test("Driver answers an unknown op method_not_found with the ops it has", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ line }) => {
    const r = await line("read_everything", {});
    const error = r.error as { code: number; data: { code: string; ops: string[] } };
    assert.equal(error.code, -32601);
    assert.equal(error.data.code, "method_not_found");
    assert.ok(error.data.ops.includes("read_ui"));
    assert.equal((await line("hello")).error, undefined, "still serving");
  });
});

Deno.test("Driver answers bad params invalid_params with the field's path", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ line }) => {
    const cases: [string, unknown, (string | number)[]][] = [
      ["act", { window: "w-notes", version: 1, id: "x", action: "set_value" }, ["value"]],
      ["act", { window: "w-notes", version: -1, id: "x", action: "press" }, ["version"]],
      ["read_ui", { app: "Notes", max_elements: 0 }, ["max_elements"]],
      ["run_batch", { window: "w-notes", version: 1, steps: [] }, ["steps"]],
    ];
    for (const [method, params, path] of cases) {
      const r = await line(method, params);
      const error = r.error as {
        code: number;
        data: { code: string; issues: { path: (string | number)[] }[] };
      };
      assert.equal(error.code, -32602, method);
      assert.equal(error.data.code, "invalid_params");
      assert.ok(
        error.data.issues.some((i) => JSON.stringify(i.path) === JSON.stringify(path)),
        `${method}: ${JSON.stringify(error.data.issues)}`,
      );
    }
    assert.deepEqual(alpha.acts, [], "invalid params never reach an engine");
    assert.equal(alpha.walksOf("w-notes"), 0);
  });
});

Deno.test("Driver answers an engine's plain Error as internal and serves the next call", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ line }) => {
    alpha.failOnce("readWindow", new Error("accessibility bus crashed"));
    const bad = await line("read_ui", { app: "Notes" });
    const error = bad.error as { code: number; message: string; data: { code: string } };
    assert.equal(error.code, -32603);
    assert.equal(error.data.code, "internal");
    assert.equal(error.message, "accessibility bus crashed");
    const good = await line("read_ui", { app: "Notes" });
    assert.equal(good.error, undefined);
    const result = good.result as Result;
    assert.equal(result.version, 1);
    assert.equal(result.cached, false);
  });
});

Deno.test("Driver audit log records the serving engine and the reason of each routed op", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ driver, rpc, paths }) => {
    await rpc.call("hello", {});
    await rpc.call("read_ui", { app: "Notes" });
    await rpc.call("read_ui", { window: "w-notes" });
    await refused(rpc.call("read_ui", { app: "Ghost" }), "app_not_running");
    await driver.close(); // writes the audit log out
    const lines = await auditLines(paths);
    const picked = lines.map(({ op, app, window, engine, reason, outcome }) => ({
      op,
      app,
      window,
      engine,
      reason,
      outcome,
    }));
    assert.deepEqual(picked, [
      {
        op: "hello",
        app: "*",
        window: undefined,
        engine: "driver",
        reason: "meta",
        outcome: "ok",
      },
      {
        op: "read_ui",
        app: "Notes",
        window: undefined,
        engine: "alpha",
        reason: "capability", // the only engine: capability decides
        outcome: "ok",
      },
      {
        op: "read_ui",
        app: "Notes",
        window: "w-notes",
        engine: "alpha",
        reason: "map",
        outcome: "ok",
      },
      {
        op: "read_ui",
        app: "Ghost",
        window: undefined,
        engine: "alpha",
        reason: "capability",
        outcome: "app_not_running",
      },
    ]);
    for (const l of lines) {
      assert.equal(typeof l.ms, "number");
      assert.ok(!Number.isNaN(Date.parse(l.ts as string)));
    }
  });
});

Deno.test("Driver sends an action to the engine that read the window's map, and audits it so", async () => {
  // beta is preferred, so it reads Notes; alpha could act too but never does.
  const beta = new ScriptedEngine("beta", {
    ops: ["list_apps", "read_ui", "act", "run_batch"],
    apps: desktop(),
  });
  const alpha = alphaOnly();
  await withDriver([beta, alpha], async ({ driver, rpc, paths }) => {
    const v1 = await rpc.call("read_ui", { app: "Notes" });
    assert.equal(v1.engine, "beta");
    const r = await pressSave(rpc, v1);
    assert.equal(r.engine, "beta");
    assert.deepEqual(beta.order, ["act:save"]);
    assert.deepEqual(alpha.order, []);
    await driver.close();
    const act = (await auditLines(paths)).find((l) => l.op === "act");
    assert.deepEqual([act?.engine, act?.reason, act?.window], ["beta", "map", "w-notes"]);
  });
});

Deno.test("Driver reads an app only vision sees from pixels, and audits vision as the server", async () => {
  const alpha = alphaOnly();
  const vision = new ScriptedEngine("vision", {
    ops: ALL_ENGINE_OPS,
    apps: [xcalc()],
    notifies: false,
  });
  await withDriver([alpha, vision], async ({ driver, rpc, paths }) => {
    const r = await rpc.call("read_ui", { app: "xcalc" });
    assert.equal(r.engine, "vision");
    assert.equal(r.window, "w-xcalc");
    assert.equal(r.source, "vision");
    assert.equal(r.degraded, true);
    assert.equal(r.degraded_reason, "no_accessibility_tree");
    assert.deepEqual(r.live, { state: "degraded", reason: "no_notifications_from_vision" });
    assert.deepEqual(elementsOf(r).map((e) => e.name), ["xcalc", "7", "8", "+", "=", "AC"]);
    assert.equal(vision.walksOf("w-xcalc"), 1);
    await driver.close();
    const read = (await auditLines(paths)).find((l) => l.op === "read_ui");
    // The router picked alpha; the engine that really served is recorded, as "map".
    assert.deepEqual([read?.engine, read?.reason, read?.outcome], ["vision", "map", "ok"]);
  });
});

Deno.test("Driver with no engine available still says hello and answers driver_unavailable", async () => {
  const alpha = alphaOnly();
  alpha.availabilityNow = { available: false, reason: "no_display" };
  await withDriver([alpha], async ({ driver, rpc, paths }) => {
    const hello = await rpc.call("hello", {});
    assert.equal(hello.engine, "none");
    assert.deepEqual(hello.engines, [
      { name: "alpha", available: false, reason: "no_display", ops: [...ALL_ENGINE_OPS] },
    ]);
    const err = await refused(rpc.call("read_ui", { app: "Notes" }), "driver_unavailable");
    assert.match(String(err.data.reason), /alpha: no_display/);
    assert.equal(alpha.listCalls, 0);
    assert.equal(alpha.subscribes, 0, "nothing to listen to");
    await driver.close();
    const read = (await auditLines(paths)).find((l) => l.op === "read_ui");
    assert.deepEqual([read?.engine, read?.reason, read?.outcome], [
      "none",
      "unavailable",
      "driver_unavailable",
    ]);
  });
});

Deno.test("Driver closes every engine it loaded, once", async () => {
  const alpha = alphaOnly();
  const vision = new ScriptedEngine("vision", { ops: ALL_ENGINE_OPS, apps: [xcalc()] });
  await withDriver([alpha, vision], async ({ driver }) => {
    await driver.close();
    await driver.close();
    assert.equal(alpha.closes, 1);
    assert.equal(vision.closes, 1);
  });
});

Deno.test({
  // Rule 1 holds on a window's own map too: an engine that does not declare act is not
  // asked to act; the caller is told which engine read the map.
  name: "Driver never asks an engine to act when it does not declare act, even on its own map",
  fn: async () => {
    const beta = new ScriptedEngine("beta", { ops: ["list_apps", "read_ui"], apps: desktop() });
    const alpha = alphaOnly();
    await withDriver([beta, alpha], async ({ rpc }) => {
      const v1 = await rpc.call("read_ui", { app: "Notes" });
      assert.equal(v1.engine, "beta");
      const err = await rpc.call("act", {
        window: "w-notes",
        version: 1,
        id: idOf(v1, "Save"),
        action: "press",
      }).catch((e) => e);
      assert.equal(err.code, "action_not_supported");
      assert.match(err.message, /"beta" engine read its map/);
      assert.deepEqual(beta.acts, [], "beta does not declare act");
    });
  },
});

Deno.test("Driver: an engine without window, app or clipboard ops says so by name", async () => {
  const alpha = alphaOnly();
  await withDriver([alpha], async ({ rpc }) => {
    const refused = async (op: string, params: Record<string, unknown>, why: RegExp) => {
      await assert.rejects(() => rpc.call(op as never, params as never), (err: unknown) => {
        assert.ok(err instanceof DriverError, String(err));
        assert.equal(err.code, "action_not_supported", `${op}: ${err.message}`);
        assert.match(err.message, why);
        return true;
      });
    };
    await refused("window", { window: "w-notes", action: "raise" }, /alpha engine has no window/);
    await refused("clipboard_get", {}, /alpha engine has no clipboard/);
    await refused("clipboard_set", { text: "x" }, /alpha engine has no clipboard/);
    await refused("close_app", { app: "Notes" }, /alpha engine cannot close apps/);
  }, { launch: ["notes"] });
});

Deno.test("Driver: launch_app starts only allow-listed entries; app_control off refuses all", async () => {
  await withDriver([alphaOnly()], async ({ rpc }) => {
    await assert.rejects(
      () => rpc.call("launch_app", { id: "org.example.Other" }),
      /not on this driver's allow-list\. Add "org\.example\.Other" to "launch"/,
    );
    await assert.rejects(
      () => rpc.call("launch_app", { id: "notes.desktop" }),
      /alpha engine cannot start apps/,
    );
    const hello = await rpc.call("hello", {});
    assert.deepEqual(hello.app_control, { enabled: true, launch: ["notes"] });
  }, { launch: ["notes"] });
  await withDriver([alphaOnly()], async ({ rpc }) => {
    await assert.rejects(() => rpc.call("launch_app", { id: "notes" }), /app control is off/);
    await assert.rejects(() => rpc.call("close_app", { app: "Notes" }), /app control is off/);
  }, { app_control: false, launch: ["notes"] });
});
