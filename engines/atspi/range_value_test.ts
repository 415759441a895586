import assert from "node:assert/strict";
import { keySteps } from "./range_value.ts";

Deno.test("keySteps(): arrow keys from the value, in its increments", () => {
  assert.equal(keySteps(4, 7, 0, 10), 3);
  assert.equal(keySteps(7, 4, 0, 10), -3);
  assert.equal(keySteps(0, 50, 0, 100, 10), 5);
  assert.equal(keySteps(3, 3, -Infinity, Infinity), 0);
});

Deno.test("keySteps(): an empty part below its range lands on the minimum first", () => {
  // Chromium's year part limited to 2025 holds 0 until a key is pressed.
  assert.equal(keySteps(0, 2025, 2025, 2025), 1);
  // A month part: the first Up shows 1, five more show 6.
  assert.equal(keySteps(0, 6, 1, 12), 6);
  // Above the range, the first Down lands on the maximum.
  assert.equal(keySteps(99, 12, 1, 12), -1);
  assert.equal(keySteps(99, 10, 1, 12), -3);
});
