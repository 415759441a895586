import assert from "node:assert/strict";
import { defaultConfig } from "../../model/config.ts";
import { LiveMap } from "../../live/live_map.ts";
import { fixtureEngine, TEXTEDIT_PID } from "./_testing.ts";

const signal = new AbortController().signal;

/** A live map over the fixture engine; no probe or background patch timers fire. */
async function liveSetup() {
  const parts = await fixtureEngine();
  const live = new LiveMap(() => parts.engine, {
    ...defaultConfig(),
    probe_ms: 3_600_000,
    active_ms: 0,
  });
  await live.start();
  const app = (await parts.engine.listApps(signal)).find((a) => a.name === "TextEdit")!;
  const target = { window: app.windows[0]!.window, app: app.app, appName: app.name, pid: app.pid };
  const first = await live.refresh(target, signal);
  return { ...parts, live, target, first };
}

Deno.test("an AXValueChanged notification patches only the node it names", async () => {
  const { engine, live, source, hub, first } = await liveSetup();
  assert.ok(hub.started);
  assert.ok(hub.watched.has(TEXTEDIT_PID));
  assert.equal(first.map.version, 1);
  source.applyVariant(TEXTEDIT_PID, "typed");
  const calls = source.calls;
  hub.emit({
    pid: TEXTEDIT_PID,
    kind: "property",
    note: "AXValueChanged",
    handle: `${TEXTEDIT_PID}:text`,
    count: 1,
  });
  const { watched, cached } = await live.current(first, signal);
  assert.equal(cached, false);
  // One batched attribute call for the one node named, not a walk.
  assert.equal(source.calls - calls, 1);
  const delta = watched.map.since(1);
  if (delta.reset) throw new Error("unexpected reset");
  assert.deepEqual(delta.changed.map((e) => [e.role, e.value]), [
    ["AXTextArea", "Hello from the driver"],
  ]);
  await live.close();
  await engine.close();
});

Deno.test("an AXCreated notification makes the live map walk the window again", async () => {
  const { engine, live, source, hub, first } = await liveSetup();
  source.applyVariant(TEXTEDIT_PID, "typed");
  const walks = engine.stats().walks;
  hub.emit({
    pid: TEXTEDIT_PID,
    kind: "structure",
    note: "AXCreated",
    handle: `${TEXTEDIT_PID}:title`,
    count: 1,
  });
  const { watched } = await live.current(first, signal);
  assert.equal(engine.stats().walks, walks + 1);
  const delta = watched.map.since(1);
  if (delta.reset) throw new Error("unexpected reset");
  // The walk sees what no notification named: the window title and its text.
  assert.equal(delta.changed.length, 2);
  assert.equal(delta.added.length, 1);
  assert.equal(delta.removed.length, 1);
  await live.close();
  await engine.close();
});

Deno.test("a focus move announces the element that lost focus too", async () => {
  const { engine, live, hub, target } = await liveSetup();
  const seen: string[] = [];
  const off = await engine.subscribe((e) => seen.push(`${e.kind}:${e.handle ?? ""}`));
  await engine.focusedHandle(target.window, signal);
  hub.emit({
    pid: TEXTEDIT_PID,
    kind: "focus",
    note: "AXFocusedUIElementChanged",
    handle: `${TEXTEDIT_PID}:size`,
    count: 1,
  });
  assert.deepEqual(seen, [`focus:${TEXTEDIT_PID}:size`, `state:${TEXTEDIT_PID}:text`]);
  await off();
  await live.close();
  await engine.close();
});
