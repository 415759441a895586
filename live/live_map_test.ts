import assert from "node:assert/strict";
import { defaultConfig } from "../model/config.ts";
import { inherited, LiveMap, type Target } from "./live_map.ts";
import { FakeEngine, node } from "./_fake_engine.ts";
import { boundsOf, MOTION_READ_MS, MOTION_STILL_MS } from "./motion.ts";

const target: Target = { window: "w1", app: ":1.9", appName: "fake", pid: Deno.pid };
const signal = () => AbortSignal.timeout(5_000);

function setup(cfg: Partial<ReturnType<typeof defaultConfig>> = {}) {
  const engine = new FakeEngine();
  const live = new LiveMap(() => engine, { ...defaultConfig(), ...cfg });
  return { engine, live };
}

Deno.test("LiveMap answers a clean window from memory and patches only the node named", async () => {
  const { engine, live } = setup({ probe_ms: 60_000 });
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    assert.equal((await live.current(w, signal())).cached, true);
    assert.equal(engine.walks, 1);
    engine.tree.children[0]!.name = "A2";
    engine.post({ app: target.app, kind: "property", handle: "a" });
    const after = await live.current(w, signal());
    assert.equal(after.cached, false);
    assert.equal(engine.walks, 1, "no second walk");
    assert.deepEqual(engine.patches, [[{ handle: "a", scope: "node" }]]);
    assert.ok(after.watched.map.elements.some((e) => e.name === "A2"));
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap reads bounds-only for bounds, a subtree for structure, all for window events", async () => {
  const { engine, live } = setup({ probe_ms: 60_000 });
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    engine.post({ app: target.app, kind: "bounds", handle: "b" });
    engine.post({ app: target.app, kind: "bounds", handle: "zz" }); // not in the map: ignored
    await live.current(w, signal());
    assert.deepEqual(engine.patches.at(-1), [{ handle: "b", scope: "bounds" }]);
    engine.tree.children.push(node("c", "C"));
    engine.post({ app: target.app, kind: "structure", handle: "w" });
    const grown = await live.current(w, signal());
    assert.deepEqual(engine.patches.at(-1), [{ handle: "w", scope: "subtree" }]);
    assert.ok(grown.watched.map.elements.some((e) => e.name === "C"));
    engine.post({ app: target.app, kind: "window", handle: "w" });
    await live.current(w, signal());
    assert.equal(engine.walks, 2, "a window-level change reads the window again");
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap reads the window again when a node it does not hold gets a size", async () => {
  const { engine, live } = setup({ probe_ms: 60_000 });
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    engine.post({ app: target.app, kind: "bounds", handle: "zz" });
    await live.current(w, signal());
    assert.equal(engine.walks, 1, "a bounds change of a node off the map changes nothing");
    // GTK 4 flipping a stack's page only gives the new page's nodes their size.
    engine.post({ app: target.app, kind: "bounds", handle: "zz", detail: "sized" });
    await live.current(w, signal());
    assert.equal(engine.walks, 2);
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap goes to a full read after a burst past burst_limit", async () => {
  const { engine, live } = setup({ probe_ms: 60_000, burst_limit: 3 });
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    for (let i = 0; i < 5; i++) engine.post({ app: target.app, kind: "structure", handle: "a" });
    await live.current(w, signal());
    assert.equal(engine.walks, 2);
    assert.equal(engine.patches.length, 0);
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap without notifications says degraded and reuses the map at most degraded_reuse_ms", async () => {
  const { engine, live } = setup({ degraded_reuse_ms: 50 });
  engine.noNotifications = true;
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    assert.equal(live.state(w).state, "degraded");
    assert.match(live.state(w).reason!, /no_notifications/);
    assert.equal((await live.current(w, signal())).cached, true);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal((await live.current(w, signal())).cached, false);
    assert.equal(engine.walks, 2);
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap's probe degrades a window after two changes no notification announced", async () => {
  const { engine, live } = setup({ probe_ms: 50 });
  await live.start();
  try {
    let w = await live.refresh(target, signal());
    live.windows.use(w.window); // a caller's read: only windows in use are probed
    const waitFor = async (cond: () => boolean) => {
      const deadline = performance.now() + 3_000;
      while (!cond() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.ok(cond());
    };
    await waitFor(() => w.probe !== undefined);
    engine.children = 3; // a change the app never announced
    await waitFor(() => w.needsFull);
    w = await live.refresh(target, signal());
    await waitFor(() => w.probe !== undefined);
    engine.children = 4;
    await waitFor(() => w.degraded !== undefined);
    assert.equal(live.state(w).state, "degraded");
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap drops an app's windows when the app is gone", async () => {
  const { engine, live } = setup();
  await live.start();
  try {
    await live.refresh(target, signal());
    assert.equal(live.windows.size, 1);
    engine.post({ app: target.app, kind: "gone" });
    assert.equal(live.windows.size, 0);
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap follows an app before its first read and lets go when its windows go", async () => {
  const { engine, live } = setup({ probe_ms: 60_000 });
  await live.start();
  try {
    await live.refresh(target, signal());
    assert.deepEqual(engine.follows[0], { apps: [target.app], walks: 0 }, "followed, then read");
    engine.post({ app: target.app, kind: "gone" });
    assert.deepEqual(engine.follows.at(-1)?.apps, []);
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap: a muted app's windows read degraded, and after unmuted a full read is owed", async () => {
  const { engine, live } = setup({ probe_ms: 60_000, degraded_reuse_ms: 60_000 });
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    engine.post({ app: target.app, kind: "muted", detail: "bounds_flood: test" });
    assert.deepEqual(live.state(w), { state: "degraded", reason: "bounds_flood: test" });
    engine.post({ app: target.app, kind: "unmuted" });
    assert.deepEqual(live.state(w), { state: "live" });
    assert.equal(live.isFresh(w), false, "what was missed is read again");
    await live.current(w, signal());
    assert.equal(engine.walks, 2);
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap's child-list check reads a container again whose rows changed silently", async () => {
  const { engine, live } = setup({ probe_ms: 60_000 });
  engine.countsChildren = true;
  engine.tree = node("w", "Window", [node("list", "List", [node("r1", "Row 1")])]);
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    // A row appears with no notification; then the first row's name changes, announced.
    engine.tree.children[0]!.children.push(node("r2", "Row 2"));
    engine.tree.children[0]!.children[0]!.name = "Row 1!";
    engine.post({ app: target.app, kind: "property", handle: "r1" });
    const after = await live.current(w, signal());
    assert.deepEqual(engine.countCalls, [["list"]]);
    assert.deepEqual(engine.patches.at(-1), [
      { handle: "r1", scope: "node" },
      { handle: "list", scope: "subtree" },
    ]);
    const names = after.watched.map.elements.map((e) => e.name);
    assert.ok(names.includes("Row 2") && names.includes("Row 1!"), names.join(", "));
    assert.equal(engine.walks, 1, "no full read");
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap never reads a degraded window in the background", async () => {
  const { engine, live } = setup({ probe_ms: 60_000, degraded_reuse_ms: 1, patch_interval_ms: 1 });
  await live.start();
  try {
    await live.refresh(target, signal());
    engine.post({ app: target.app, kind: "muted", detail: "bounds_flood: test" });
    for (let i = 0; i < 5; i++) {
      engine.post({ app: target.app, kind: "property", handle: "a" });
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(engine.walks, 1);
    assert.deepEqual(engine.patches, []);
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap: a notification outdates a degraded window's map within its reuse time", async () => {
  const { engine, live } = setup({ probe_ms: 60_000, degraded_reuse_ms: 60_000 });
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    engine.post({ app: target.app, kind: "muted", detail: "bounds_flood: test" });
    assert.equal((await live.current(w, signal())).cached, true, "reused while nothing is said");
    engine.tree.children[0]!.name = "A2";
    engine.post({ app: target.app, kind: "property", handle: "a" });
    const after = await live.current(w, signal());
    assert.equal(after.cached, false);
    assert.equal(engine.walks, 2, "degraded: read in full");
    assert.ok(after.watched.map.elements.some((e) => e.name === "A2"));
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap: only callers' use keeps a window active; background patches do not", async () => {
  const { engine, live } = setup({ active_ms: 1_000, patch_interval_ms: 10, unwatch_ms: 2_000 });
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    assert.equal(w.used, -Infinity, "read, not yet used by a caller");
    engine.post({ app: target.app, kind: "text", handle: "a" });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(engine.patches.length, 0, "an unused window is not patched in the background");
    live.windows.use(w.window);
    engine.post({ app: target.app, kind: "text", handle: "a" });
    const deadline = performance.now() + 2_000;
    while (engine.patches.length === 0 && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(engine.patches.length, 1, "a window in use is patched");
    const used = w.used;
    assert.equal(live.windows.peek(w.window)!.used, used, "the patch did not count as use");
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap's probe compares with the map's read: a silent change right after it is caught", async () => {
  const { engine, live } = setup({ probe_ms: 50, active_ms: 60_000 });
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    live.windows.use(w.window);
    engine.children = 3; // silently, before the first probe ran
    const deadline = performance.now() + 3_000;
    while (!w.needsFull && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(w.needsFull, true, "the first probe already differs from the read");
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap checks an idle window with the probe before answering it from memory", async () => {
  const { engine, live } = setup({ probe_ms: 20, active_ms: 1 });
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    await new Promise((r) => setTimeout(r, 60)); // idle: not probed in the background
    const walks = engine.walks;
    engine.children = 5; // changed silently while idle
    const { cached } = await live.current(w, signal());
    assert.equal(cached, false, "the check failed: read again");
    assert.equal(engine.walks, walks + 1);
    await new Promise((r) => setTimeout(r, 60));
    const again = await live.current(w, signal());
    assert.equal(again.cached, true, "checked and unchanged: from memory");
    assert.equal(engine.walks, walks + 1, "no walk for a window the probe vouched for");
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap follows elements that move with no notification after an action, until they stop", async () => {
  const { engine, live } = setup({ probe_ms: 60_000 });
  await live.start();
  const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));
  const b = () => engine.tree.children[1]!;
  try {
    const w = await live.refresh(target, signal());
    const planned = boundsOf(w.tree);
    // The action's read: "b" has started to slide down; nothing announces the rest.
    b().bounds = { ...b().bounds, y: 5 };
    const acted = await live.refresh(target, signal(), true);
    live.followMotion(acted, planned);
    assert.equal(live.state(acted).moving, true);
    assert.equal((await live.current(acted, signal())).cached, true, "fresh within a step");
    b().bounds = { ...b().bounds, y: 40 };
    await wait(MOTION_READ_MS);
    const later = await live.current(acted, signal());
    assert.equal(later.cached, false, "read again while in motion");
    assert.equal(later.watched.map.elements.find((e) => e.name === "B")!.bounds.y, 40);
    // Still for the still span: the next due read ends the motion.
    await wait(MOTION_STILL_MS);
    const still = await live.current(acted, signal());
    assert.equal(still.cached, false);
    assert.equal(live.state(still.watched).moving, undefined);
    const walks = engine.walks;
    await wait(MOTION_READ_MS);
    assert.equal((await live.current(acted, signal())).cached, true, "trusted again");
    assert.equal(engine.walks, walks);
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap leaves a window alone after an action that moved nothing", async () => {
  const { live } = setup({ probe_ms: 60_000 });
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    live.followMotion(w, boundsOf(w.tree));
    assert.equal(live.state(w).moving, undefined);
  } finally {
    await live.close();
  }
});

Deno.test("inherited(): sensitivity and enabling reach a node's subtree, other states do not", () => {
  assert.equal(inherited({ kind: "state", detail: "sensitive" }), true);
  assert.equal(inherited({ kind: "state", detail: "enabled" }), true);
  assert.equal(inherited({ kind: "state", detail: "checked" }), false);
  assert.equal(inherited({ kind: "state" }), false);
  assert.equal(inherited({ kind: "property", detail: "sensitive" }), false);
});
