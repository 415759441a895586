import assert from "node:assert/strict";
import { setBounded } from "./bounded.ts";

Deno.test("setBounded() keeps the newest entries, a re-set key counting as new", () => {
  const m = new Map<string, number>();
  setBounded(m, "a", 1, 2);
  setBounded(m, "b", 2, 2);
  setBounded(m, "a", 3, 2);
  setBounded(m, "c", 4, 2);
  assert.deepEqual([...m], [["a", 3], ["c", 4]]);
});
