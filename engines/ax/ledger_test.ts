import assert from "node:assert/strict";
import { HandleLedger } from "./ledger.ts";

Deno.test("HandleLedger releases a handle once no owner holds it", () => {
  const l = new HandleLedger();
  assert.deepEqual(l.hold("read:w1", ["a", "b", "shared"]), []);
  assert.deepEqual(l.hold("listing", ["w1", "shared"]), []);
  // A new read of w1 no longer has b; shared is still held by the listing.
  assert.deepEqual(l.hold("read:w1", ["a", "c"]), ["b"]);
  assert.deepEqual(l.drop("listing"), ["w1", "shared"]);
  l.add("read:w1", ["d", "a"]);
  assert.deepEqual(l.unheld(["a", "x", "x", "d"]), ["x"]);
  assert.deepEqual(l.keepOnly((o) => o !== "read:w1").sort(), ["a", "c", "d"]);
  assert.equal(l.held("a"), false);
});
