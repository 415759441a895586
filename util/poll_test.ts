import assert from "node:assert/strict";
import { pollUntil } from "./poll.ts";

Deno.test("pollUntil() reads until the value is done, and no longer", async () => {
  let reads = 0;
  const v = await pollUntil(() => Promise.resolve(++reads), (n) => n === 3, 1_000, 1);
  assert.equal(v, 3);
  assert.equal(reads, 3);
});

Deno.test("pollUntil() gives up after its time with the last value read", async () => {
  let reads = 0;
  const v = await pollUntil(() => Promise.resolve(++reads), () => false, 20, 5);
  assert.ok(reads >= 2 && v === reads, `${reads} reads, answered ${v}`);
});
