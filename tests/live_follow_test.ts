/**
 * Who the live map listens to (issue 5's idle-CPU target): element-level notifications
 * come only from followed apps, repeated bounds are dropped, and an app that floods
 * bounds (gtk3-widget-factory's animations post ~180 a second) is muted for a while,
 * its windows reading as degraded with the reason, while other windows stay live.
 */
import assert from "node:assert/strict";
import { session } from "./support/client.ts";
import { calculator, requireDesktop, widgetFactory } from "./support/apps.ts";
import { AtspiEngine } from "../engines/atspi/engine.ts";
import type { EngineEvent } from "../model/engine.ts";

requireDesktop();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean, timeoutMs = 8_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!ok()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

Deno.test("element notifications come only for followed apps; a bounds flood is muted, then heard again", async () => {
  const factory = await widgetFactory();
  const engine = new AtspiEngine({ boundsMuteMs: 1_000 });
  const seen: EngineEvent[] = [];
  const off = await engine.subscribe((e) => seen.push(e));
  try {
    const app = (await engine.listApps(AbortSignal.timeout(5_000)))
      .find((a) => a.name === "gtk3-widget-factory")!.app;
    const from = (kind: EngineEvent["kind"]) =>
      seen.filter((e) => e.app === app && e.kind === kind);
    await sleep(1_000);
    assert.equal(from("bounds").length, 0, "nobody follows the app yet");

    await engine.follow([app]);
    await until("a bounds event", () => from("bounds").length > 0);
    await until("the flood to be muted", () => from("muted").length > 0);
    // The same few nodes post the same rects every frame: repeats never reach us.
    assert.ok(from("bounds").length < 20, `${from("bounds").length} bounds events passed`);
    assert.match(from("muted")[0]!.detail ?? "", /^bounds_flood: /);
    await until("the mute to end", () => from("unmuted").length > 0, 4_000);

    await engine.follow([]);
    await sleep(300); // signals already in flight
    const before = seen.length;
    await sleep(1_500);
    const late = seen.slice(before).filter((e) => e.app === app && e.kind === "bounds");
    assert.equal(late.length, 0, "unfollowed: no more bounds");
  } finally {
    await off();
    await engine.close();
    await factory.stop();
  }
});

Deno.test("a window whose app floods bounds reads degraded with the reason; others stay live", async () => {
  const apps = [await calculator(), await widgetFactory()];
  const s = await session();
  try {
    const calc = await s.client.call("read_ui", { app: "gnome-calculator" });
    const first = await s.client.call("read_ui", { app: "gtk3-widget-factory" });
    assert.equal(first.live?.state, "live");
    let r = first;
    const end = performance.now() + 8_000;
    while (r.live?.state !== "degraded" && performance.now() < end) {
      await sleep(250);
      r = await s.client.call("read_ui", { window: first.window });
    }
    assert.equal(r.live?.state, "degraded");
    assert.match(r.live?.reason ?? "", /^bounds_flood: /);
    assert.ok(r.elements!.length > 50, "a degraded window is still read in full");
    const again = await s.client.call("read_ui", { window: calc.window });
    assert.equal(again.live?.state, "live");
    assert.equal(again.cached, true);
  } finally {
    await s.close();
    for (const a of apps) await a.stop();
  }
});
