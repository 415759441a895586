import assert from "node:assert/strict";
import { slope } from "./series.ts";

Deno.test("slope() of points on a line is the line's slope", () => {
  assert.ok(Math.abs(slope([[0, 1], [1, 3], [2, 5], [3, 7]]) - 2) < 1e-9);
});

Deno.test("slope() of fewer than two points is 0", () => {
  assert.equal(slope([[1, 5]]), 0);
  assert.equal(slope([]), 0);
});
