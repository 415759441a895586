import assert from "node:assert/strict";
import { DriverError } from "../protocol/errors.ts";
import { WalkLocks } from "./walks.ts";

const never = new AbortController().signal;

// Lets queued promise reactions run (no timer involved).
async function ticks(n = 10): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

Deno.test("walk() never runs two walks of one window at once", async () => {
  let t = 0;
  // Every clock read is a second later, so no walk is ever fresh enough to reuse.
  const locks = new WalkLocks({ timeoutMs: 10_000, walkReuseMs: 250, now: () => (t += 1_000) });
  let running = 0;
  let most = 0;
  const walk = async () => {
    most = Math.max(most, ++running);
    await ticks(3);
    running--;
    return "tree";
  };
  const results = await Promise.all(
    Array.from({ length: 8 }, () => locks.walk("w1", "read_ui", walk, never)),
  );
  assert.equal(most, 1);
  assert.ok(results.every((r) => !r.reused));
  assert.equal(locks.held, 0);
});

Deno.test("walk() runs walks of two windows side by side", async () => {
  const locks = new WalkLocks({ timeoutMs: 10_000, walkReuseMs: 250 });
  const started: string[] = [];
  const gate = Promise.withResolvers<void>();
  const walk = (w: string) =>
    locks.walk(w, "read_ui", async () => {
      started.push(w);
      await gate.promise;
      return w;
    }, never);
  const both = Promise.all([walk("w1"), walk("w2")]);
  await ticks();
  assert.deepEqual(started, ["w1", "w2"]);
  assert.equal(locks.held, 2);
  gate.resolve();
  await both;
});

Deno.test("walk() hands a waiting reader the walk that just finished", async () => {
  const locks = new WalkLocks({ timeoutMs: 10_000, walkReuseMs: 250, now: () => 0 });
  const gate = Promise.withResolvers<string>();
  const first = locks.walk("w1", "read_ui", () => gate.promise, never);
  let secondWalked = false;
  const second = locks.walk("w1", "find", () => {
    secondWalked = true;
    return Promise.resolve("other");
  }, never);
  gate.resolve("tree-1");
  assert.deepEqual(await first, { value: "tree-1", reused: false });
  assert.deepEqual(await second, { value: "tree-1", reused: true });
  assert.equal(secondWalked, false);
});

Deno.test("walk() does not reuse for a reader that did not wait", async () => {
  const locks = new WalkLocks({ timeoutMs: 10_000, walkReuseMs: 250, now: () => 0 });
  await locks.walk("w1", "read_ui", () => Promise.resolve("old"), never);
  const again = await locks.walk("w1", "read_ui", () => Promise.resolve("new"), never);
  assert.deepEqual(again, { value: "new", reused: false });
});

// A walk succeeds at 0; at `at`, a second walk fails while a reader waits behind it.
async function waitBehindFailedWalk(at: number) {
  let t = 0;
  const locks = new WalkLocks({ timeoutMs: 10_000, walkReuseMs: 250, now: () => t });
  await locks.walk("w1", "read_ui", () => Promise.resolve("tree-0"), never);
  t = at;
  const gate = Promise.withResolvers<string>();
  const failing = locks.walk("w1", "read_ui", () => gate.promise, never);
  const reader = locks.walk("w1", "find", () => Promise.resolve("fresh"), never);
  gate.reject(new Error("app hung"));
  await assert.rejects(failing, /app hung/);
  return await reader;
}

Deno.test("walk() reuses the last good walk if it finished 250 ms ago", async () => {
  assert.deepEqual(await waitBehindFailedWalk(250), { value: "tree-0", reused: true });
});

Deno.test("walk() does not reuse a walk that finished 251 ms ago", async () => {
  assert.deepEqual(await waitBehindFailedWalk(251), { value: "fresh", reused: false });
});

Deno.test("walk() releases the window when fn throws", async () => {
  const locks = new WalkLocks({ timeoutMs: 10_000, walkReuseMs: 250 });
  await assert.rejects(
    locks.walk("w1", "read_ui", () => Promise.reject(new Error("boom")), never),
    /boom/,
  );
  assert.equal(locks.held, 0);
  const next = await locks.walk("w1", "read_ui", () => Promise.resolve(1), never);
  assert.deepEqual(next, { value: 1, reused: false });
});

Deno.test("walk() gives busy naming the holder after the timeout", async () => {
  let t = 1_000;
  const locks = new WalkLocks({ timeoutMs: 5, walkReuseMs: 250, now: () => t });
  const gate = Promise.withResolvers<string>();
  const holder = locks.walk("w1", "read_ui", () => gate.promise, never);
  const waiter = locks.walk("w1", "find", () => Promise.resolve("x"), never);
  t = 2_200; // read when the timeout fires
  await assert.rejects(waiter, (err) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "busy");
    assert.equal(
      err.message,
      'Window "w1" is busy: "read_ui" has held the tree walk for 1200 ms; gave up after 5 ms',
    );
    assert.deepEqual(err.data.holder, { op: "read_ui", window: "w1", ms: 1_200 });
    return true;
  });
  gate.resolve("tree");
  assert.deepEqual(await holder, { value: "tree", reused: false });
  assert.equal(locks.held, 0);
});

Deno.test("walk() rejects an aborted waiter and keeps the line for the others", async () => {
  const locks = new WalkLocks({ timeoutMs: 10_000, walkReuseMs: 250, now: () => 0 });
  const gate = Promise.withResolvers<string>();
  const holder = locks.walk("w1", "read_ui", () => gate.promise, never);
  const stop = new AbortController();
  const aborted = locks.walk("w1", "read_ui", () => Promise.resolve("a"), stop.signal);
  const last = locks.walk("w1", "find", () => Promise.resolve("b"), never);
  stop.abort(new DriverError("timeout", "Request timed out"));
  await assert.rejects(aborted, /Request timed out/);
  gate.resolve("tree");
  assert.deepEqual(await holder, { value: "tree", reused: false });
  assert.deepEqual(await last, { value: "tree", reused: true });
  assert.equal(locks.held, 0);
});

Deno.test("walk() rejects at once when the signal is already aborted", async () => {
  const locks = new WalkLocks({ timeoutMs: 10_000, walkReuseMs: 250 });
  let ran = false;
  const walk = () => (ran = true, Promise.resolve(0));
  await assert.rejects(
    locks.walk("w1", "find", walk, AbortSignal.abort(new Error("gone"))),
    /gone/,
  );
  assert.equal(ran, false);
  assert.equal(locks.held, 0);
});
