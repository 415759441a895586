import assert from "node:assert/strict";
import { DriverError } from "../protocol/errors.ts";
import { PixelLock } from "./pixels.ts";

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => resolve = r);
  return { promise, resolve };
};

Deno.test("PixelLock runs positional input of two windows one after the other, in order", async () => {
  const lock = new PixelLock({ timeoutMs: 1_000 });
  const log: string[] = [];
  const first = deferred();
  const a = lock.run("w1", "act", async () => {
    log.push("w1 start");
    await first.promise;
    log.push("w1 end");
  }, AbortSignal.timeout(2_000));
  const b = lock.run("w2", "run_batch", () => {
    log.push("w2");
    return Promise.resolve();
  }, AbortSignal.timeout(2_000));
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(log, ["w1 start"], "w2 waits while w1's clicks run");
  assert.equal(lock.holder?.window, "w1");
  first.resolve();
  await Promise.all([a, b]);
  assert.deepEqual(log, ["w1 start", "w1 end", "w2"]);
  assert.equal(lock.holder, undefined);
});

Deno.test("PixelLock answers busy naming the holder, and frees the lock after a throw", async () => {
  const lock = new PixelLock({ timeoutMs: 30 });
  const hold = deferred();
  const held = lock.run("w1", "act", () => hold.promise, AbortSignal.timeout(2_000));
  await assert.rejects(
    lock.run("w2", "act", () => Promise.resolve(), AbortSignal.timeout(2_000)),
    (err: unknown) => err instanceof DriverError && err.code === "busy" && /act/.test(err.message),
  );
  hold.resolve();
  await held;
  await assert.rejects(
    lock.run("w1", "act", () => Promise.reject(new Error("boom")), AbortSignal.timeout(100)),
    /boom/,
  );
  assert.equal(await lock.run("w2", "act", () => Promise.resolve(7), AbortSignal.timeout(100)), 7);
});
