import assert from "node:assert/strict";
import { EventHub } from "./events.ts";

const post = (hub: EventHub) => hub.onEvent({ app: "a", kind: "text", handle: "n" });

Deno.test("EventHub.settle() answers busy at maxMs while the app keeps posting", async () => {
  const hub = new EventHub();
  const timer = setInterval(() => post(hub), 10);
  try {
    const t0 = performance.now();
    const how = await hub.settle("a", hub.count("a"), 50, 600, 200, AbortSignal.timeout(5_000));
    assert.equal(how, "busy");
    const ms = performance.now() - t0;
    assert.ok(ms >= 190 && ms < 1_000, `${ms} ms`);
  } finally {
    clearInterval(timer);
  }
});

Deno.test("EventHub.settle() answers quiet, no_reaction, and timeout when maxMs comes first", async () => {
  const hub = new EventHub();
  const since = hub.count("a");
  post(hub);
  assert.equal(await hub.settle("a", since, 20, 600, 2_000, AbortSignal.timeout(5_000)), "quiet");
  const now = hub.count("a");
  assert.equal(
    await hub.settle("a", now, 20, 50, 2_000, AbortSignal.timeout(5_000)),
    "no_reaction",
  );
  assert.equal(await hub.settle("a", now, 20, 600, 30, AbortSignal.timeout(5_000)), "timeout");
  const aborted = AbortSignal.abort();
  assert.equal(await hub.settle("a", now, 20, 600, 2_000, aborted), "timeout");
});
