import assert from "node:assert/strict";
import { DriverError } from "../../protocol/errors.ts";
import { DESKTOP, inputCalls, keyCall } from "./input.ts";

Deno.test("keyCall() sends a lone key as press_key and a chord as hotkey", () => {
  assert.deepEqual(keyCall("Return"), {
    tool: "press_key",
    args: { key: "return", target: DESKTOP },
  });
  assert.deepEqual(keyCall("a").args.key, "a");
  assert.deepEqual(keyCall("ctrl+shift+z"), {
    tool: "hotkey",
    args: { keys: ["ctrl", "shift", "z"], target: DESKTOP },
  });
  assert.deepEqual(keyCall("+").args.key, "+");
  assert.deepEqual(keyCall("ctrl++").args.keys, ["ctrl", "+"]);
});

Deno.test("keyCall() refuses a chord hotkey cannot express", () => {
  assert.throws(
    () => keyCall("a+b"),
    (e) => e instanceof DriverError && e.code === "action_not_supported",
  );
});

Deno.test("inputCalls() targets the desktop and splits a diagonal scroll", () => {
  const [click] = inputCalls({ kind: "click", x: 5, y: 6, button: "right", count: 2 });
  assert.deepEqual(click, {
    tool: "click",
    args: { x: 5, y: 6, button: "right", count: 2, target: DESKTOP },
  });
  const scroll = inputCalls({ kind: "scroll", dx: 2, dy: -3, x: 10, y: 20 });
  assert.deepEqual(scroll.map((c) => [c.args.direction, c.args.amount]), [["up", 3], ["right", 2]]);
  assert.equal(scroll[0]!.args.x, 10);
  assert.deepEqual(inputCalls({ kind: "scroll", dx: 0, dy: 0 }), []);
});

Deno.test("inputCalls() has no way to hold a key", () => {
  assert.throws(
    () => inputCalls({ kind: "hold", key: "shift", ms: 100 }),
    (e) => e instanceof DriverError && e.code === "action_not_supported",
  );
});
