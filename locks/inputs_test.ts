import assert from "node:assert/strict";
import { DriverError } from "../protocol/errors.ts";
import { InputLocks } from "./inputs.ts";

const never = new AbortController().signal;

// Lets queued promise reactions run (no timer involved).
async function ticks(n = 10): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

// Input whose fn runs until the test releases it, recording when it starts.
function scripted(locks: InputLocks, log: string[]) {
  return (window: string | null, op: string, signal = never) => {
    const gate = Promise.withResolvers<void>();
    const name = `${op}@${window ?? "screen"}`;
    const done = locks.input(window, op, async () => {
      log.push(name);
      await gate.promise;
      return name;
    }, signal);
    return { done, release: () => gate.resolve() };
  };
}

Deno.test("input() runs input to two windows side by side", async () => {
  const locks = new InputLocks({ timeoutMs: 10_000 });
  const started: string[] = [];
  const run = scripted(locks, started);
  const [a, b] = [run("w1", "act"), run("w2", "act")];
  await ticks();
  assert.deepEqual(started, ["act@w1", "act@w2"]);
  assert.equal(locks.windows, 2);
  a.release();
  b.release();
  await Promise.all([a.done, b.done]);
  assert.equal(locks.windows, 0);
});

Deno.test("input() keeps one owner per window, first come first served", async () => {
  const locks = new InputLocks({ timeoutMs: 10_000 });
  let running = 0;
  let most = 0;
  const order: number[] = [];
  await Promise.all(Array.from({ length: 6 }, (_, i) =>
    locks.input("w1", "act", async () => {
      most = Math.max(most, ++running);
      order.push(i);
      await ticks(3);
      running--;
    }, never)));
  assert.equal(most, 1);
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5]);
});

Deno.test("input() makes screen-wide input wait for window input", async () => {
  const locks = new InputLocks({ timeoutMs: 10_000 });
  const started: string[] = [];
  const run = scripted(locks, started);
  const [w1, w2] = [run("w1", "act"), run("w2", "pixel_key")];
  const screen = run(null, "pixel_click");
  await ticks();
  assert.deepEqual(started, ["act@w1", "pixel_key@w2"]);
  w1.release();
  await w1.done;
  await ticks();
  assert.equal(locks.screen, false, "still waits for w2");
  w2.release();
  await w2.done;
  await ticks();
  assert.deepEqual(started.at(-1), "pixel_click@screen");
  assert.equal(locks.screen, true);
  screen.release();
  await screen.done;
});

Deno.test("input() makes window input wait for screen-wide input", async () => {
  const locks = new InputLocks({ timeoutMs: 10_000 });
  const started: string[] = [];
  const run = scripted(locks, started);
  const screen = run(null, "hold_key");
  const w1 = run("w1", "act");
  await ticks();
  assert.deepEqual(started, ["hold_key@screen"]);
  screen.release();
  await screen.done;
  await ticks();
  assert.deepEqual(started, ["hold_key@screen", "act@w1"]);
  w1.release();
  await w1.done;
});

Deno.test("input() queues window input behind a waiting screen request", async () => {
  const locks = new InputLocks({ timeoutMs: 10_000 });
  const started: string[] = [];
  const run = scripted(locks, started);
  const w1 = run("w1", "act");
  const screen = run(null, "pixel_click");
  const w2 = run("w2", "act"); // free window, but the screen asked first
  await ticks();
  assert.deepEqual(started, ["act@w1"]);
  w1.release();
  await ticks();
  assert.deepEqual(started, ["act@w1", "pixel_click@screen"]);
  screen.release();
  await ticks();
  assert.deepEqual(started, ["act@w1", "pixel_click@screen", "act@w2"]);
  w2.release();
  await Promise.all([w1.done, screen.done, w2.done]);
});

Deno.test("input() lets another window pass a request waiting for its own window", async () => {
  const locks = new InputLocks({ timeoutMs: 10_000 });
  const started: string[] = [];
  const run = scripted(locks, started);
  const [first, second, other] = [run("w1", "act"), run("w1", "pixel_key"), run("w2", "act")];
  await ticks();
  assert.deepEqual(started, ["act@w1", "act@w2"]);
  for (const r of [first, second, other]) r.release();
  await Promise.all([first.done, second.done, other.done]);
  assert.deepEqual(started, ["act@w1", "act@w2", "pixel_key@w1"]);
});

Deno.test("input() gives busy naming the screen-wide holder after the timeout", async () => {
  let t = 500;
  const locks = new InputLocks({ timeoutMs: 5, now: () => t });
  const run = scripted(locks, []);
  const screen = run(null, "pixel_drag");
  const waiter = locks.input("w1", "act", () => Promise.resolve(), never);
  t = 1_400;
  await assert.rejects(waiter, (err) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "busy");
    assert.equal(
      err.message,
      'Window "w1" is busy: "pixel_drag" (screen-wide) has held input for 900 ms; ' +
        "gave up after 5 ms",
    );
    assert.deepEqual(err.data.holder, { op: "pixel_drag", window: null, ms: 900 });
    return true;
  });
  screen.release();
  await screen.done;
  assert.equal(locks.screen, false);
});

Deno.test("input() gives the screen busy naming a window owner", async () => {
  const locks = new InputLocks({ timeoutMs: 5, now: () => 0 });
  const run = scripted(locks, []);
  const w2 = run("w2", "act");
  await assert.rejects(
    locks.input(null, "pixel_click", () => Promise.resolve(), never),
    /^DriverError: The screen is busy: "act" on window "w2" has held input for 0 ms/,
  );
  w2.release();
  await w2.done;
});

Deno.test("input() releases the window when fn throws", async () => {
  const locks = new InputLocks({ timeoutMs: 10_000 });
  await assert.rejects(
    locks.input("w1", "act", () => Promise.reject(new Error("boom")), never),
    /boom/,
  );
  assert.equal(locks.windows, 0);
  assert.equal(await locks.input("w1", "act", () => Promise.resolve(7), never), 7);
  await assert.rejects(locks.input(null, "hold_key", () => Promise.reject(new Error("x")), never));
  assert.equal(locks.screen, false);
});

Deno.test("input() abort of a waiter leaves the line consistent", async () => {
  const locks = new InputLocks({ timeoutMs: 10_000 });
  const started: string[] = [];
  const run = scripted(locks, started);
  const w1 = run("w1", "act");
  const stop = new AbortController();
  const screen = run(null, "pixel_click", stop.signal);
  const w2 = run("w2", "act");
  await ticks();
  assert.deepEqual(started, ["act@w1"]);
  stop.abort(new Error("caller gave up"));
  await assert.rejects(screen.done, /caller gave up/);
  await ticks();
  assert.deepEqual(started, ["act@w1", "act@w2"], "w2 no longer waits behind the screen");
  w1.release();
  w2.release();
  await Promise.all([w1.done, w2.done]);
  assert.deepEqual([locks.windows, locks.screen], [0, false]);
  assert.equal(await locks.input(null, "pixel_click", () => Promise.resolve("ok"), never), "ok");
});
