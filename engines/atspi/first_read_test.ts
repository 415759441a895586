import assert from "node:assert/strict";
import type { RawNode, WindowTree } from "../../model/engine.ts";
import { FILL_MAX_MS, FILL_STEP_MS, hasPage, untilFilled, Warmups } from "./first_read.ts";

/** A window whose one field is named `name`. */
function tree(name: string, x = 0): WindowTree {
  const field: RawNode = {
    handle: ":1.5|/f",
    role: "AXTextField",
    name,
    bounds: { x, y: 0, w: 10, h: 10 },
    enabled: true,
    focused: false,
    actions: ["press"],
    children: [],
  };
  const root: RawNode = {
    ...field,
    handle: ":1.5|/w",
    role: "AXWindow",
    name: "W",
    children: [field],
  };
  return { root, nodes: 2, ms: 1, truncated: false };
}

const noWait = () => Promise.resolve();

Deno.test("first read: a partial read is read again until two reads agree", async () => {
  const reads = [tree("User name"), tree("User name")];
  let asked = 0;
  const out = await untilFilled(tree(""), () => Promise.resolve(reads[asked++]!), noWait);
  assert.equal(asked, 2, "the filled read was confirmed by one more");
  assert.equal(out.root.children[0]!.name, "User name");
});

Deno.test("first read: a complete read costs one more read; bounds moving do not count", async () => {
  let asked = 0;
  const out = await untilFilled(tree("User name"), () => {
    asked++;
    return Promise.resolve(tree("User name", 5));
  }, noWait);
  assert.equal(asked, 1);
  assert.equal(out.root.children[0]!.bounds.x, 5, "the latest read is the answer");
});

Deno.test("first read: an app that never settles is read at most until the cap", async () => {
  let asked = 0;
  const out = await untilFilled(tree("a"), () => Promise.resolve(tree(`n${++asked}`)), noWait);
  assert.equal(asked, Math.ceil(FILL_MAX_MS / FILL_STEP_MS));
  assert.equal(out.root.children[0]!.name, `n${asked}`);
});

Deno.test("first read: an app warmed up long enough before the read needs no second read", async () => {
  let now = 1_000;
  const warmups = new Warmups(() => now);
  assert.equal(warmups.warmAt(":1.5", now), false, "never asked: cold");
  let asks = 0;
  await warmups.start(":1.5", () => Promise.resolve(++asks > 0));
  await warmups.start(":1.5", () => Promise.resolve(++asks > 0));
  assert.equal(asks, 1, "asked once per app");
  assert.equal(warmups.warmAt(":1.5", now + FILL_MAX_MS - 1), false, "still filling");
  now += FILL_MAX_MS;
  assert.equal(warmups.warmAt(":1.5", now), true);
  assert.equal(warmups.warmAt(":1.6", now), false, "another app is not warmed by it");
});

Deno.test("first read: a warm-up that failed, or found nothing to fill, leaves the app cold", async () => {
  const warmups = new Warmups(() => 0);
  await warmups.start(":1.7", () => Promise.reject(new Error("timeout")));
  assert.equal(warmups.warmAt(":1.7", 10_000), false);
  await warmups.start(":1.6", () => Promise.resolve(false));
  assert.equal(warmups.warmAt(":1.6", 10_000), false, "no page when listed: not asked");
});

Deno.test("first read: only a read that holds a page can be partial", () => {
  const page = tree("User name");
  assert.equal(hasPage(page), false);
  page.root.children[0]!.children.push({ ...page.root.children[0]!, role: "AXWebArea" });
  assert.equal(hasPage(page), true);
});

Deno.test("first read: a read waits for the app's warm-up in flight, or for its own abort", async () => {
  const warmups = new Warmups(() => 0);
  await warmups.settled(":1.8"); // Never warmed up: nothing to wait for.
  let answer = () => {};
  void warmups.start(":1.8", () => new Promise<boolean>((r) => answer = () => r(true)));
  let settled = false;
  const waiting = warmups.settled(":1.8").then(() => settled = true);
  await Promise.resolve();
  assert.equal(settled, false, "the warm-up is still in flight");
  answer();
  await waiting;
  const stop = new AbortController();
  void warmups.start(":1.9", () => new Promise(() => {}));
  const aborted = warmups.settled(":1.9", stop.signal);
  stop.abort();
  await aborted; // Resolves: the read then fails on its own abort.
});

Deno.test("first read: a read whose bounds were not known yet does not confirm one that has them", async () => {
  const unplaced = tree("User name");
  unplaced.root.children[0]!.bounds = { x: -1, y: -1, w: -1, h: -1 };
  let asked = 0;
  const out = await untilFilled(unplaced, () => {
    asked++;
    return Promise.resolve(tree("User name"));
  }, noWait);
  assert.equal(asked, 2, "the read with bounds was confirmed by one more");
  assert.equal(out.root.children[0]!.bounds.w, 10);
});
