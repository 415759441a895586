import assert from "node:assert/strict";
import { processAlive } from "./process.ts";

Deno.test("processAlive() sees this process and not one that exited", async () => {
  assert.equal(processAlive(Deno.pid), true);
  const child = new Deno.Command("true").spawn();
  await child.status;
  assert.equal(processAlive(child.pid), false);
});
