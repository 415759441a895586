import assert from "node:assert/strict";
import { writeAllSync } from "./write.ts";

Deno.test("writeAllSync() keeps writing until a short-writing sink has every byte", () => {
  const got: number[] = [];
  const sink = { writeSync: (p: Uint8Array) => (got.push(p[0]!), 1) };
  writeAllSync(sink, "héllo");
  assert.deepEqual(new Uint8Array(got), new TextEncoder().encode("héllo"));
});
