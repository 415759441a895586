import assert from "node:assert/strict";
import { defaultConfig } from "../model/config.ts";
import { LiveMap, type Target } from "./live_map.ts";
import { FakeEngine } from "./_fake_engine.ts";
import { PLACED_SETTLE_MS, Placements } from "./placed.ts";

const target: Target = { window: "w1", app: ":1.9", appName: "fake", pid: Deno.pid };
const signal = () => AbortSignal.timeout(5_000);

Deno.test("Placements: a map read within the settle time is owed one more read after it", () => {
  const p = new Placements();
  p.mark("w", 1_000);
  assert.equal(p.due("w", 1_010, 1_050), false, "still settling: the read after the move stands");
  assert.equal(p.due("w", 1_010, 1_000 + PLACED_SETTLE_MS), true, "then read once more");
  assert.equal(p.due("w", 1_000 + PLACED_SETTLE_MS, 2_000), false, "a read after it is trusted");
  assert.equal(p.due("other", 0, 2_000), false);
  p.sweep((id) => (id === "w" ? 1_000 + PLACED_SETTLE_MS : undefined), () => false);
  assert.equal(p.at("w"), undefined, "confirmed placements are forgotten");
  p.mark("gone", 5);
  p.mark("first", 5);
  p.sweep(() => undefined, (id) => id === "first");
  assert.deepEqual([p.at("gone"), p.at("first")], [undefined, 5]);
});

Deno.test("LiveMap reads a placed window in full, and once more after the settle time", async () => {
  const engine = new FakeEngine();
  const live = new LiveMap(() => engine, { ...defaultConfig(), probe_ms: 60_000 });
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    assert.equal((await live.current(w, signal())).cached, true);
    engine.tree.bounds = { x: 100, y: 50, w: 10, h: 10 };
    engine.post({ app: target.app, window: target.window, kind: "placed" });
    const moved = await live.current(w, signal());
    assert.equal(moved.cached, false);
    assert.equal(engine.walks, 2, "a placement is a full read, not a patch");
    assert.equal(engine.patches.length, 0);
    assert.equal(moved.watched.map.elements[0]!.bounds.x, 100);
    assert.equal(live.events.count(target.app), 0, "not counted as the app's notification");
    engine.post({ app: target.app, window: "other", kind: "placed" });
    assert.equal((await live.current(w, signal())).cached, true, "another window's placement");
    // The window is in use: the confirming read runs in the background once it is due.
    const deadline = performance.now() + 2_000;
    while (engine.walks < 3 && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(engine.walks, 3, "the confirming read");
    assert.equal((await live.current(w, signal())).cached, true);
    assert.equal(engine.walks, 3);
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap: a window placed while its first read ran is read again", async () => {
  const engine = new FakeEngine();
  const live = new LiveMap(() => engine, { ...defaultConfig(), probe_ms: 60_000 });
  await live.start();
  try {
    const readWindow = engine.readWindow.bind(engine);
    engine.readWindow = () => {
      engine.post({ app: target.app, window: target.window, kind: "placed" });
      return readWindow();
    };
    const w = await live.refresh(target, signal());
    engine.readWindow = readWindow;
    assert.equal((await live.current(w, signal())).cached, false);
    assert.equal(engine.walks, 2);
  } finally {
    await live.close();
  }
});

Deno.test("LiveMap tells the engine which windows to watch for placement, before a read", async () => {
  const engine = new FakeEngine();
  const told: { windows: string[]; walks: number }[] = [];
  engine.watchPlacement = (windows) =>
    void told.push({ windows: [...windows], walks: engine.walks });
  let flushes = 0;
  engine.flushEvents = () => void flushes++;
  const live = new LiveMap(() => engine, { ...defaultConfig(), probe_ms: 60_000 });
  await live.start();
  try {
    const w = await live.refresh(target, signal());
    assert.deepEqual(told[0], { windows: ["w1"], walks: 0 }, "watched before the first read");
    await live.current(w, signal());
    assert.equal(flushes, 1, "a read from memory first takes in what X already said");
    live.windows.drop("w1");
    await live.refresh({ ...target, window: "w2" }, signal());
    assert.deepEqual(told.at(-1)?.windows, ["w2"]);
  } finally {
    await live.close();
  }
});
