import assert from "node:assert/strict";
import { ALL_ENGINE_OPS } from "../../engines/ops.ts";
import { defaultConfig } from "../../model/config.ts";
import type { RawNode } from "../../model/engine.ts";
import type { Element } from "../../protocol/element.ts";
import { Dispatcher } from "../../rpc/dispatcher.ts";
import { driverPaths } from "../../util/paths.ts";
import { Driver } from "../driver.ts";
import { button, entryOf, ScriptedEngine, until, windowNode } from "../_fake_engines.ts";

const SECRET = "hunter2-not-for-traces";

function passwordField(): RawNode {
  return {
    handle: "pw",
    role: "AXSecureTextField",
    name: "Password",
    value: "",
    bounds: { x: 0, y: 100, w: 300, h: 24 },
    enabled: true,
    focused: true,
    actions: ["focus", "set_value"],
    children: [],
  };
}

function login(): ScriptedEngine {
  return new ScriptedEngine("alpha", {
    ops: ALL_ENGINE_OPS,
    apps: [{
      app: "app.login",
      name: "Login",
      pid: Deno.pid,
      windows: [{
        window: "w-login",
        focused: true,
        tree: windowNode("login-win", "Login", [button("go", "Sign in", 0), passwordField()]),
      }],
    }],
  });
}

/** A driver over a scripted Login window, with a dispatcher; closed afterwards. */
async function withDriver(fn: (rpc: Dispatcher, dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "trace_op_test_" });
  const engine = login();
  const driver = await Driver.start({
    paths: driverPaths(dir),
    config: { ...defaultConfig(), probe_ms: 60_000, settle_quiet_ms: 5, no_reaction_ms: 30 },
    engines: [entryOf(engine)],
  });
  try {
    await until(() => engine.walks >= 1, "the prewarm read");
    const onSessionEnd = (session: object) => driver.sessionEnded(session);
    await fn(new Dispatcher(driver.handlers(), { checkResults: true, onSessionEnd }), dir);
  } finally {
    await driver.close();
    await Deno.remove(dir, { recursive: true });
  }
}

function idOf(read: Record<string, unknown>, name: string): string {
  const e = (read.elements as Element[]).find((x) => x.name === name);
  assert.ok(e, name);
  return e.id;
}

async function lines(dir: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(`${dir}/trace.jsonl`);
  return text.trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("trace_start records this connection's ops with screenshots around acts; trace_stop counts them", async () => {
  await withDriver(async (rpc, data) => {
    const mine = {};
    const other = {};
    const dir = `${data}/t1`;
    const started = await rpc.call("trace_start", { dir }, mine);
    assert.equal(started.path, dir);
    const read = await rpc.call("read_ui", { app: "Login" }, mine);
    await rpc.call("read_ui", { app: "Login" }, other); // Another connection: not recorded.
    await rpc.call("act", {
      window: "w-login",
      version: read.version,
      id: idOf(read, "Sign in"),
      action: "press",
    }, mine);
    await rpc.call("act", {
      window: "w-login",
      version: read.version,
      id: idOf(read, "Password"),
      action: "set_value",
      value: SECRET,
      guard: "element",
    }, mine);
    await rpc.call("clipboard_set", { text: SECRET }, mine).catch(() => {});
    const stopped = await rpc.call("trace_stop", {}, mine);
    assert.equal(stopped.path, dir);
    assert.equal(stopped.ops, 4);
    assert.equal(stopped.images, 1, "the fake engine's one white image, stored once");
    assert.equal(stopped.images_capped, false);

    const all = await lines(dir);
    assert.equal(all[0]!.trace, "allternit-driver-trace");
    assert.equal(all.at(-1)!.end, true);
    const ops = all.slice(1, -1).sort((a, b) => Number(a.seq) - Number(b.seq));
    assert.deepEqual(ops.map((l) => l.op), ["read_ui", "act", "act", "clipboard_set"]);
    const press = ops[1]!;
    const images = press.images as { before: { sha: string }; after: { sha: string } };
    assert.ok(images.before.sha && images.after.sha, "before and after screenshots");
    await Deno.stat(`${dir}/images/${images.before.sha}.png`);
    assert.deepEqual((press.targets as { id: string }[]).map((t) => t.id), [idOf(read, "Sign in")]);
    assert.ok((press.targets as { bounds?: unknown }[])[0]!.bounds, "the target's bounds");
    assert.equal((press.route as { reason: string }).reason.length > 0, true);
    assert.equal(ops[0]!.images, undefined, "reads get no screenshots");
    // No secret anywhere in the folder.
    assert.ok(!(await Deno.readTextFile(`${dir}/trace.jsonl`)).includes(SECRET));
    assert.match(JSON.stringify(ops[2]!.params), /secret: not recorded/);
    assert.match(JSON.stringify(ops[3]!.params), /secret: not recorded/);
  });
});

Deno.test("trace_stop with no trace on the connection is refused invalid_request", async () => {
  await withDriver(async (rpc) => {
    await assert.rejects(rpc.call("trace_stop", {}, {}), /No trace is recording/);
  });
});

Deno.test("trace_start twice on one connection is refused; into a folder with a trace too", async () => {
  await withDriver(async (rpc, data) => {
    const a = {};
    await rpc.call("trace_start", { dir: `${data}/t2` }, a);
    await assert.rejects(rpc.call("trace_start", {}, a), /already recording/);
    await assert.rejects(rpc.call("trace_start", { dir: `${data}/t2` }, {}), /holds a trace/);
    await rpc.call("trace_stop", {}, a);
  });
});

Deno.test("trace_start without dir records under the data folder's traces/", async () => {
  await withDriver(async (rpc, data) => {
    const s = {};
    const r = await rpc.call("trace_start", {}, s);
    assert.ok(String(r.path).startsWith(`${data}/computer-use/driver/traces/trace-`));
    await rpc.call("trace_stop", {}, s);
  });
});

Deno.test("a connection that ends without trace_stop has its trace finished then", async () => {
  await withDriver(async (rpc, data) => {
    const gone = {};
    const dir = `${data}/left-open`;
    await rpc.call("trace_start", { dir }, gone);
    await rpc.call("list_apps", {}, gone);
    await rpc.sessionEnded(gone);
    const all = await lines(dir);
    assert.equal(all.at(-1)!.end, true, "the end line is written when the connection ends");
    assert.equal(all.at(-1)!.ops, 1);
    // The connection's trace is gone: a new one may start for another.
    await assert.rejects(() => rpc.call("trace_stop", {}, gone), /No trace is recording/);
  });
});
