import assert from "node:assert/strict";
import { busyError } from "./busy.ts";
import { WindowLocks } from "./window_locks.ts";

const never = new AbortController().signal;

Deno.test("WindowLocks lets a walk and input of one window run together", async () => {
  const locks = new WindowLocks({ timeoutMs: 10_000, walkReuseMs: 250 });
  const gate = Promise.withResolvers<void>();
  const walk = locks.walk("w1", "read_ui", () => gate.promise.then(() => "tree"), never);
  const input = locks.input("w1", "act", () => gate.promise.then(() => "pressed"), never);
  const screen = locks.input(null, "pixel_click", () => Promise.resolve("clicked"), never);
  await Promise.resolve();
  assert.deepEqual(locks.held, { walks: 1, inputs: 1, screen: false });
  gate.resolve();
  assert.deepEqual(await walk, { value: "tree", reused: false });
  assert.equal(await input, "pressed");
  assert.equal(await screen, "clicked");
  assert.deepEqual(locks.held, { walks: 0, inputs: 0, screen: false });
});

Deno.test("busyError() names a request waiting ahead as queued", () => {
  const err = busyError(
    "input",
    "w1",
    { op: "pixel_click", window: null, since: 100 },
    400,
    50,
    true,
  );
  assert.equal(err.code, "busy");
  assert.equal(
    err.message,
    'Window "w1" is busy: "pixel_click" (screen-wide) has waited ahead of it for input ' +
      "for 300 ms; gave up after 50 ms",
  );
  assert.deepEqual(err.data, {
    lock: "input",
    timeout_ms: 50,
    holder: { op: "pixel_click", window: null, ms: 300, queued: true },
  });
});
