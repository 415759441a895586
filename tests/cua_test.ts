/**
 * The Cua engine (issue 10) against THE CUA DRIVER CONFORMANCE DOUBLE, not Cua Driver
 * (which cannot be installed here): a separate MCP server process (tests/support/cua_double)
 * serving Cua's documented tools from real AT-SPI reads of gnome-calculator. Then both
 * engines behind the real driver process, and the router's choices in its audit log.
 */
import assert from "node:assert/strict";
import { AtspiEngine } from "../engines/atspi/engine.ts";
import { CUA_OPS } from "../engines/cua/ops.ts";
import { CuaEngine } from "../engines/cua/engine.ts";
import type { CuaWindowTree } from "../engines/cua/tree.ts";
import type { RawNode } from "../model/engine.ts";
import { computeIds } from "../map/mod.ts";
import { DriverError } from "../protocol/errors.ts";
import { type App, calculator, requireDesktop } from "./support/apps.ts";
import { byLabel } from "./support/client.ts";
import { startDriver } from "./support/driver_process.ts";
import { DriverClient } from "../rpc/client.ts";
import { cuaDouble, cuaWindowId } from "./support/cua_double/harness.ts";

requireDesktop();

const budget = (ms = 15_000) => ({ maxElements: 5_000, signal: AbortSignal.timeout(ms) });

function nodes(root: RawNode): RawNode[] {
  return [root, ...root.children.flatMap(nodes)];
}

const button = (root: RawNode, label: string) =>
  nodes(root).find((n) => n.role === "AXButton" && n.name.split(" ")[0] === label)!;

const display = (root: RawNode) => nodes(root).find((n) => n.role === "AXTextArea")?.value ?? "";

/** Polls `fn` until it answers something truthy, or fails after `ms`. */
async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = performance.now() + ms;
  while (true) {
    const got = await fn().catch(() => undefined);
    if (got) return got;
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function calculatorWindow(engine: CuaEngine, app: App): Promise<string> {
  const apps = await engine.listApps(AbortSignal.timeout(10_000));
  const mine = apps.find((a) => a.pid === app.pid);
  assert.ok(mine, `the double lists gnome-calculator (pid ${app.pid})`);
  assert.equal(mine.name, "gnome-calculator");
  return mine.windows[0]!.window;
}

Deno.test("Cua engine over the conformance double: tools, reads, actions, pixels", async (t) => {
  const app = await calculator();
  const double = await cuaDouble();
  const engine = new CuaEngine({ command: { command: double.wrapper, args: ["mcp"] } });
  const atspi = new AtspiEngine();
  try {
    await t.step("spawns cua-driver mcp and derives its ops from the listed tools", async () => {
      assert.deepEqual(await engine.availability(), { available: true });
      assert.ok(engine.tools.has("parse_visual_regions"), "the double lists it");
      assert.deepEqual([...engine.ops], [...CUA_OPS]);
      assert.ok(!engine.ops.includes("run_batch") && !engine.ops.includes("hold_key"));
      assert.ok(engine.ops.includes("zoom"));
    });

    const window = await calculatorWindow(engine, app);

    await t.step("reads the window into the tree the native engine reads, same ids", async () => {
      const cua = await engine.readWindow(window, budget());
      assert.equal(cua.root.role, "AXWindow");
      assert.equal(cua.truncated, false);
      assert.equal((cua as CuaWindowTree).degradedReason, undefined);
      const native = (await atspi.listApps(AbortSignal.timeout(5_000)))
        .find((a) => a.pid === app.pid)!.windows[0]!.window;
      const ref = await atspi.readWindow(native, budget());
      assert.equal(cua.nodes, ref.nodes);
      assert.deepEqual(computeIds(cua.root), computeIds(ref.root));
      assert.ok(button(cua.root, "7").actions.includes("press"));
    });

    await t.step("presses 7 by element token; a re-read shows it on the display", async () => {
      const tree = await engine.readWindow(window, budget());
      const before = display(tree.root);
      const done = await engine.act(
        window,
        button(tree.root, "7"),
        "press",
        undefined,
        budget().signal,
      );
      assert.equal(done.via, "action");
      const shown = await until("the display to show 7", async () => {
        const v = display((await engine.readWindow(window, budget())).root);
        return v !== before && v.includes("7") ? v : undefined;
      });
      assert.match(shown, /7/);
    });

    await t.step("clicks 8 by pixel through Cua's click tool", async () => {
      const tree = await engine.readWindow(window, budget());
      const b = button(tree.root, "8").bounds;
      await engine.input({
        kind: "click",
        x: b.x + b.w / 2,
        y: b.y + b.h / 2,
        button: "left",
        count: 1,
      }, budget().signal);
      await until("the display to show 78", async () => {
        const v = display((await engine.readWindow(window, budget())).root);
        return v.includes("78") ? v : undefined;
      });
    });

    await t.step("captures the window and the screen as RGBA", async () => {
      const shot = await engine.capture(window, budget().signal);
      assert.ok(shot.width > 100 && shot.height > 100);
      assert.equal(shot.rgba.length, shot.width * shot.height * 4);
      assert.ok(Math.abs(shot.scale - 1) < 0.05, `scale ${shot.scale}`);
      const screen = await engine.capture(undefined, budget().signal);
      assert.ok(screen.width >= shot.width && screen.height >= shot.height);
    });

    await t.step("an answer outside Cua's schema is an internal engine failure", async () => {
      await double.setMode("malformed");
      const err = await engine.readWindow(window, budget()).catch((e) => e);
      assert.ok(err instanceof DriverError, String(err));
      assert.equal(err.code, "internal");
      assert.equal(err.data.tool, "get_window_state");
      assert.ok((err.data.issues as unknown[]).length > 0);
      await double.setMode("normal");
      assert.ok((await engine.readWindow(window, budget())).nodes > 10, "still serving");
    });

    await t.step("Cua's degraded_reason comes back with the tree", async () => {
      await double.setMode("degraded");
      const tree: CuaWindowTree = await engine.readWindow(window, budget());
      assert.equal(tree.degradedReason, "ax_tree_empty");
      assert.equal(tree.root.children.length, 0);
      await double.setMode("normal");
    });

    await t.step("a killed child is restarted with backoff, and says so meanwhile", async () => {
      const before = engine.status();
      assert.equal(before.state, "ready");
      Deno.kill(before.pid!, "SIGKILL");
      const down = await until("the engine to report the restart", async () => {
        const a = await engine.availability();
        return a.available ? undefined : a;
      });
      assert.match(down.reason!, /^cua_restarting: killed by SIGKILL; restart 1 in \d+ ms$/);
      await until("the engine to be back", async () => (await engine.availability()).available);
      const after = engine.status();
      assert.equal(after.restarts, 1);
      assert.notEqual(after.pid, before.pid);
      assert.ok((await engine.readWindow(window, budget())).nodes > 10);
    });

    await t.step("a window whose app quit is window_not_found", async () => {
      await app.stop();
      const err = await engine.readWindow(window, budget()).catch((e) => e);
      assert.ok(err instanceof DriverError, String(err));
      assert.equal(err.code, "window_not_found");
    });
  } finally {
    await double.setMode("normal");
    await engine.close();
    await atspi.close();
    await app.stop();
    await double.cleanup();
  }
});

Deno.test("a Cua Driver that never answers fails the call with timeout, not a hang", async () => {
  const app = await calculator();
  const double = await cuaDouble();
  const engine = new CuaEngine({
    command: { command: double.wrapper, args: ["mcp"] },
    callTimeoutMs: 1_500,
  });
  try {
    const window = await calculatorWindow(engine, app);
    await double.setMode("hang");
    const started = performance.now();
    const err = await engine.readWindow(window, budget()).catch((e) => e);
    assert.ok(err instanceof DriverError, String(err));
    assert.equal(err.code, "timeout");
    assert.ok(performance.now() - started < 5_000, "answered by its own deadline");
    // The caller's deadline wins when it is the shorter one.
    const short = await engine.listApps(AbortSignal.timeout(200)).catch((e) => e);
    assert.equal((short as DriverError).code, "timeout");
    await double.setMode("normal");
    assert.ok((await engine.readWindow(window, budget())).nodes > 10, "same child serves again");
  } finally {
    await engine.close();
    await app.stop();
    await double.cleanup();
  }
});

Deno.test("without cua-driver the engine says cua_driver_not_found and never crashes", async () => {
  const engine = CuaEngine.fromEnvironment((k) => (k === "PATH" ? "/nonexistent" : undefined));
  try {
    assert.deepEqual(await engine.availability(), {
      available: false,
      reason: "cua_driver_not_found",
    });
    assert.deepEqual(engine.ops, []);
    const err = await engine.listApps(AbortSignal.timeout(1_000)).catch((e) => e);
    assert.equal((err as DriverError).code, "driver_unavailable");
  } finally {
    await engine.close();
  }
});

Deno.test("a cua-driver that dies at start is unavailable with the reason, retried behind", async () => {
  const engine = new CuaEngine({
    command: { command: "/bin/false", args: ["mcp"] },
    startTimeoutMs: 5_000,
    backoffMs: [60_000],
  });
  try {
    const a = await engine.availability();
    assert.equal(a.available, false);
    assert.match(a.reason!, /^cua_start_failed: .*; retrying in 60000 ms$/);
    const err = await engine.listApps(AbortSignal.timeout(300)).catch((e) => e);
    assert.equal((err as DriverError).code, "driver_unavailable");
  } finally {
    await engine.close();
  }
});

/** The calculator's window id in the AT-SPI engine. */
async function nativeWindow(app: App): Promise<string> {
  const atspi = new AtspiEngine();
  const apps = await atspi.listApps(AbortSignal.timeout(5_000)).finally(() => atspi.close());
  return apps.find((a) => a.pid === app.pid)!.windows[0]!.window;
}

/** The router's remembered stats for one engine (router.json, version 1). */
function row(
  engine: string,
  outcomes: { ok: boolean; ms: number; code?: string }[],
  ewma?: number,
) {
  const timed = ewma === undefined ? 0 : 5;
  const failures = outcomes.filter((o) => !o.ok).length;
  return {
    engine,
    calls: Math.max(timed, outcomes.length),
    failures,
    timed,
    ewma_ms: ewma ?? null,
    // Just now: a fault older than the router's cool-down would be tried again.
    recent: outcomes.map((o) => ({ ...o, at: Date.now() })),
  };
}

/** The real `serve` process with the double on its PATH and a router table it starts from. */
async function driverWith(env: Record<string, string>, engines: ReturnType<typeof row>[]) {
  const dataDir = await Deno.makeTempDir({ prefix: "allternit-test-" });
  const dir = `${dataDir}/computer-use/driver`;
  await Deno.mkdir(dir, { recursive: true });
  const entries = [{ op: "read_ui", app: "gnome-calculator", at: Date.now(), reads: 0, engines }];
  await Deno.writeTextFile(`${dir}/router.json`, JSON.stringify({ version: 1, entries }));
  const proc = await startDriver(["serve"], { env, dataDir });
  const client = await DriverClient.connect({ socket: proc.ready.socket! });
  return {
    client,
    audit: async () =>
      (await Deno.readTextFile(`${dir}/audit.jsonl`)).trim().split("\n").map((l) => JSON.parse(l)),
    async close() {
      await client.close();
      await proc.stop();
    },
  };
}

Deno.test("real driver, both engines: failures hand reads to cua; acts and batches on its map run through it", async () => {
  const app = await calculator();
  const double = await cuaDouble();
  const failed = { ok: false, ms: 5, code: "internal" };
  const d = await driverWith(double.env, [row("atspi", [failed, failed, failed])]);
  try {
    const hello = await d.client.call("hello");
    const cua = hello.engines.find((e) => e.name === "cua")!;
    assert.equal(cua.available, true, JSON.stringify(hello.engines));
    assert.ok(!cua.ops.includes("run_batch") && !cua.ops.includes("hold_key"));

    // By window id: a read by app name alone would reuse the window the driver prewarmed.
    const window = cuaWindowId(app.pid, await nativeWindow(app));
    const read = await d.client.call("read_ui", { app: "gnome-calculator", window });
    assert.equal(read.engine, "cua");
    assert.equal(read.live.state, "degraded", "Cua announces nothing: its windows are polled");
    const plan = { window: read.window, version: read.version };
    const seven = byLabel(read.elements!, "AXButton", "7");
    const acted = await d.client.call("act", { ...plan, id: seven.id, action: "press" });
    assert.equal(acted.engine, "cua", "the act follows the engine that read the map");
    assert.equal(acted.effect, "changed");
    assert.ok(
      [...acted.changed, ...acted.added].some((e) => e.role === "AXTextArea" && e.value === "7"),
      "the diff shows 7 on the display",
    );
    const eight = byLabel(read.elements!, "AXButton", "8");
    await d.client.call("run_batch", {
      window: read.window,
      version: acted.version,
      steps: [{ id: eight.id, action: "press" }],
    });
  } finally {
    await d.close().catch(() => {});
    await app.stop();
    await double.cleanup();
  }
  const lines = await d.audit();
  const of = (op: string) => lines.filter((l) => l.op === op).map((l) => [l.engine, l.reason]);
  assert.deepEqual(of("read_ui"), [["cua", "failures"]]);
  assert.deepEqual(of("act"), [["cua", "map"]]);
  // Cua declares no run_batch, so the router picks atspi; but the batch's elements are
  // in Cua's map and only Cua holds their handles, so its steps run as Cua acts, and the
  // audit records what really ran. (Re-reading the window with the router's engine, to
  // run a batch elsewhere, is not built.)
  assert.deepEqual(of("run_batch"), [["cua", "map"]]);
});

Deno.test("real driver, both engines: latency sends reads to cua until the double fails them", async () => {
  const app = await calculator();
  const double = await cuaDouble();
  const slow = Array.from({ length: 5 }, () => ({ ok: true, ms: 2_000 }));
  const d = await driverWith(double.env, [row("atspi", slow, 2_000), row("cua", [], 20)]);
  try {
    const native = await nativeWindow(app);
    const window = cuaWindowId(app.pid, native);
    const first = await d.client.call("read_ui", { app: "gnome-calculator", window });
    assert.equal(first.engine, "cua");
    await double.setMode("fail_reads");
    for (let i = 0; i < 2; i++) {
      const err = await d.client.call("read_ui", { window, fresh: true }).catch((e) => e);
      assert.equal(err.code, "internal", String(err.message));
    }
    // By the native window: a read of the window Cua read stays with Cua's map.
    const back = await d.client.call("read_ui", {
      app: "gnome-calculator",
      window: native,
      fresh: true,
    });
    assert.equal(back.engine, "atspi");
  } finally {
    await d.close().catch(() => {});
    await app.stop();
    await double.cleanup();
  }
  const reads = (await d.audit()).filter((l) => l.op === "read_ui");
  // The first read is the router's (latency); after it each window is watched, and a read
  // of a watched window is served by the engine that read its map (Cua's window by Cua,
  // the prewarmed native window by atspi).
  assert.deepEqual(reads.map((l) => [l.engine, l.reason, l.outcome]), [
    ["cua", "latency", "ok"],
    ["cua", "map", "internal"],
    ["cua", "map", "internal"],
    ["atspi", "map", "ok"],
  ]);
});
