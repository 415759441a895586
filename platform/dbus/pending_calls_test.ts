import assert from "node:assert/strict";
import { PendingCalls } from "./pending_calls.ts";
import { DBusTimeoutError } from "./errors.ts";

/** A call's settler and the promise it settles. */
function waiter() {
  let resolve!: (body: unknown[]) => void;
  let reject!: (e: unknown) => void;
  const done = new Promise<unknown[]>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { settler: { resolve, reject }, done };
}

Deno.test("pending calls: a shorter limit added later still times out first", async () => {
  const calls = new PendingCalls();
  const long = waiter();
  const short = waiter();
  calls.add(1, long.settler, 400, undefined, "Long");
  calls.add(2, short.settler, 30, undefined, "Short");
  const t = performance.now();
  await assert.rejects(short.done, (e: unknown) => e instanceof DBusTimeoutError);
  assert.ok(performance.now() - t < 300, "the short call waited for the long one's timer");
  assert.equal(calls.size, 1);
  await assert.rejects(long.done, (e: unknown) => e instanceof DBusTimeoutError);
  assert.equal(calls.size, 0);
});

Deno.test("pending calls: one signal fails every call still waiting on it, only those", async () => {
  const calls = new PendingCalls();
  const controller = new AbortController();
  const [a, b, c] = [waiter(), waiter(), waiter()];
  calls.add(1, a.settler, 5_000, controller.signal, "A");
  calls.add(2, b.settler, 5_000, controller.signal, "B");
  calls.add(3, c.settler, 5_000, undefined, "C");
  calls.take(1)?.resolve(["ok"]);
  const reason = new Error("stop");
  controller.abort(reason);
  assert.deepEqual(await a.done, ["ok"]);
  await assert.rejects(b.done, (e: unknown) => e === reason);
  assert.equal(calls.size, 1);
  // Settling the last call clears the timer: the test's sanitizer fails on a leaked one.
  calls.take(3)?.resolve([]);
  assert.deepEqual(await c.done, []);
});

Deno.test("pending calls: a settled burst leaves no timer and no listener behind", () => {
  const calls = new PendingCalls();
  const controller = new AbortController();
  for (let i = 1; i <= 100; i++) calls.add(i, waiter().settler, 1_000, controller.signal, "X");
  for (let i = 1; i <= 100; i++) calls.take(i)?.resolve([]);
  assert.equal(calls.size, 0);
  // Aborting now reaches no call: nothing was left subscribed.
  controller.abort(new Error("late"));
});
