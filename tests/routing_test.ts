/**
 * Router, locks and audit (issue 6) through the real serve process and the AT-SPI
 * engine: concurrent clients on one window, and the files the router writes.
 */
import assert from "node:assert/strict";
import { byLabel, centre, session } from "./support/client.ts";
import { calculator, chromium, mousepad, requireDesktop } from "./support/apps.ts";
import { oracleNodes } from "./support/oracle.ts";
import { replanned } from "./support/desktop_steps.ts";
import { DriverClient } from "../rpc/client.ts";
import { startDriver } from "./support/driver_process.ts";
import { X11Display } from "../platform/x11/mod.ts";

/** Button1Mask in an X pointer state. */
const BUTTON1 = 1 << 8;

requireDesktop();

Deno.test("two clients reading and acting on one window get consistent, serialized results", async () => {
  const app = await calculator();
  const s = await session();
  const other = await DriverClient.connect({ socket: s.proc.ready.socket! });
  try {
    const r = await s.client.call("read_ui", { app: "gnome-calculator" });
    const walks0 = (await s.client.call("hello")).live.walks!;
    const reads = await Promise.all(
      Array.from(
        { length: 8 },
        (_, i) => (i % 2 ? other : s.client).call("read_ui", { window: r.window, fresh: true }),
      ),
    );
    const walks = (await s.client.call("hello")).live.walks! - walks0;
    assert.ok(walks < 8, `concurrent fresh reads share walks (${walks} walks for 8 reads)`);
    for (const x of reads) {
      assert.deepEqual(x.elements!.map((e) => e.id), reads[0]!.elements!.map((e) => e.id));
    }
    const plan = await s.client.call("read_ui", { window: r.window });
    const press = (label: string) => ({
      window: r.window,
      version: plan.version,
      id: byLabel(plan.elements!, "AXButton", label).id,
      action: "press" as const,
    });
    // Both planned on the same version: input is serialized, so whichever runs second
    // sees a map that moved on and is refused rather than acting on a stale plan.
    const [a, b] = await Promise.all([
      s.client.call("act", press("4")).catch((e) => e),
      other.call("act", press("5")).catch((e) => e),
    ]);
    const outcomes = [a, b].map((x) => ("ok" in x ? "ok" : x.code)).sort();
    assert.deepEqual(outcomes, ["ok", "stale_version"]);
    const done = "ok" in a ? a : b;
    const shown = [...done.changed, ...done.added].find((e: { role: string }) =>
      e.role === "AXTextArea"
    );
    assert.ok(shown?.value === "4" || shown?.value === "5", `display ${shown?.value}`);
  } finally {
    await other.close();
    await s.close();
    await app.stop();
  }
});

Deno.test("every routed op is audited, and router.json is written atomically", async () => {
  const app = await calculator();
  const s = await session();
  const driverDir = `${s.proc.dataDir}/computer-use/driver`;
  try {
    const r = await s.client.call("read_ui", { app: "gnome-calculator" });
    await s.client.call("find", { window: r.window, query: { role: "AXButton" } });
    await s.client.call("act", { window: r.window, version: 999, id: "x", action: "press" })
      .catch(() => {});
    const hello = await s.client.call("hello");
    assert.ok(hello.router, "hello reports the router");
  } finally {
    await s.close();
    await app.stop();
  }
  const lines = (await Deno.readTextFile(`${driverDir}/audit.jsonl`)).trim().split("\n")
    .map((l) => JSON.parse(l));
  const ops = lines.map((l) => l.op);
  for (const op of ["read_ui", "find", "act", "hello"]) assert.ok(ops.includes(op), op);
  const read = lines.find((l) => l.op === "read_ui");
  assert.equal(read.engine, "atspi");
  assert.equal(read.app, "gnome-calculator");
  assert.equal(read.outcome, "ok");
  assert.equal(lines.find((l) => l.op === "act").outcome, "stale_version");
  for (const l of lines) {
    for (const k of ["ts", "op", "app", "engine", "reason", "ms", "outcome"]) {
      assert.ok(k in l, k);
    }
  }
  const table = JSON.parse(await Deno.readTextFile(`${driverDir}/router.json`));
  assert.equal(table.version, 1);
  const leftovers = [...Deno.readDirSync(driverDir)].filter((e) => e.name.endsWith(".tmp"));
  assert.deepEqual(leftovers, []);
});

/** A router.json in which vision looks far faster than atspi at `ops` on gnome-calculator. */
async function visionLooksFaster(dataDir: string, ops: string[]): Promise<void> {
  const dir = `${dataDir}/computer-use/driver`;
  await Deno.mkdir(dir, { recursive: true });
  const now = Date.now();
  const samples = (ms: number) => Array.from({ length: 5 }, () => ({ ok: true, ms, at: now }));
  const engine = (name: string, ms: number) => ({
    engine: name,
    calls: 5,
    failures: 0,
    timed: 5,
    ewma_ms: ms,
    recent: samples(ms),
  });
  const entries = ops.map((op) => ({
    op,
    app: "gnome-calculator",
    at: now,
    reads: 19, // the next read would be the 20th: an exploring one, where reads explore
    engines: [engine("atspi", 400), engine("vision", 2)],
  }));
  await Deno.writeTextFile(`${dir}/router.json`, JSON.stringify({ version: 1, entries }));
}

Deno.test("read_ui and find of a tree app stay on its tree when vision measured faster", async () => {
  const app = await calculator();
  const dataDir = await Deno.makeTempDir({ prefix: "allternit-test-" });
  await visionLooksFaster(dataDir, ["read_ui", "find"]);
  const proc = await startDriver(["serve"], { dataDir });
  const client = await DriverClient.connect({ socket: proc.ready.socket! });
  try {
    const read = await client.call("read_ui", { app: "gnome-calculator" });
    assert.equal(read.engine, "atspi", "the calculator's elements come from its tree");
    assert.equal(read.source, "tree");
    const found = await client.call("find", { window: read.window, query: { role: "AXButton" } });
    assert.equal(found.engine, "atspi");
    assert.ok(found.elements.length > 10, "the tree's buttons, not OCR boxes");
  } finally {
    await client.close();
    await proc.stop();
    await app.stop();
  }
  const audit = (await Deno.readTextFile(`${dataDir}/computer-use/driver/audit.jsonl`))
    .trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(
    audit.filter((l) => l.op === "read_ui" || l.op === "find").map((l) => l.engine),
    ["atspi", "atspi"],
  );
  await Deno.remove(dataDir, { recursive: true });
});

Deno.test("positional input of two callers on two windows never interleaves", async () => {
  const pad = await mousepad();
  const page = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(
    page,
    `<!doctype html><title>Count 0</title>
     <button style="position:fixed;left:300px;top:300px;width:160px;height:60px"
       onclick="document.title = 'Count ' + (++window.n)">Count</button>
     <script>window.n = 0</script><p>ready</p>`,
  );
  const web = await chromium(page, "Count 0", "ready");
  // Short settles: each caller's next input follows at once, so the two overlap.
  const s = await session({}, { no_reaction_ms: 20, settle_quiet_ms: 20 });
  const other = await DriverClient.connect({ socket: s.proc.ready.socket! });
  try {
    const text = "alpha beta gamma delta epsilon";
    let note = await s.client.call("read_ui", { app: "mousepad" });
    const area = note.elements!.find((e) => e.role === "AXTextArea")!;
    await s.client.call("act", {
      window: note.window,
      version: note.version,
      id: area.id,
      action: "type_text",
      value: text,
    });
    note = await s.client.call("read_ui", { window: note.window });
    const count = await other.call("read_ui", { app: "chromium" });
    // Caller one drags across mousepad's first line, eight times: the button is held down
    // for ~200 ms each time. Caller two clicks the page's button eight times meanwhile, by
    // position: a batch's pixel step on the page's window (Chromium's own press action
    // would not land by position).
    const y = Math.round(area.bounds.y + 12);
    const drag = {
      op: "pixel_drag" as const,
      from: { x: area.bounds.x + 4, y },
      to: { x: area.bounds.x + 200, y },
    };
    const dragging = s.client.call("run_batch", {
      window: note.window,
      version: note.version,
      steps: Array.from({ length: 8 }, () => drag),
    });
    // Awaited below; a failure before then must not leave its rejection unheard (it
    // surfaced as the runner's "uncaught error" and hid the failure itself).
    dragging.catch(() => {});
    using x = X11Display.open();
    for (let i = 0; i < 8; i++) {
      // Press while caller one's drag holds the button down, where the two would collide.
      const deadline = Date.now() + 5_000;
      while ((x.pointerPosition().mask & BUTTON1) === 0 && Date.now() < deadline) {
        await new Promise((res) => setTimeout(res, 2));
      }
      // The page retitles itself after each press ("Count N"), and the window's focus
      // follows the pointer between the two apps: a plan those made stale is made again.
      const pressed = await replanned(async () => {
        const now = await other.call("read_ui", { window: count.window });
        const at = centre(byLabel(now.elements!, "AXButton", "Count"));
        return await other.call("run_batch", {
          window: count.window,
          version: now.version,
          steps: [{ op: "pixel_click", x: Math.round(at.x), y: Math.round(at.y) }],
        });
      });
      assert.equal(pressed.results[0]?.via, "pixel");
    }
    assert.equal((await dragging).ok, true);
    // Read independently: every press reached the page, and the drags selected text.
    const frames = (await oracleNodes(web.pid, 20, 0)).map((n) => n.name);
    assert.ok(frames.some((f) => /^Count 8/.test(f)), JSON.stringify(frames));
    const selected = (await oracleNodes(pad.pid)).find((n) => n.selected)?.selected ?? "";
    assert.ok(
      text.startsWith(selected) && selected.length > 3,
      `selected ${JSON.stringify(selected)}`,
    );
  } finally {
    await other.close();
    await s.close();
    await web.stop();
    await pad.stop();
    await Deno.remove(page);
  }
});
