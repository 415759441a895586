import assert from "node:assert/strict";
import { newToken, tokenMatches } from "./token.ts";

Deno.test("tokenMatches() accepts only the exact token", () => {
  const t = newToken();
  assert.equal(t.length, 64);
  assert.equal(tokenMatches(t, t), true);
  assert.equal(tokenMatches(t.slice(0, 63), t), false);
  assert.equal(tokenMatches(t + "0", t), false);
  assert.equal(tokenMatches(undefined, t), false);
  assert.equal(tokenMatches(42, t), false);
  assert.notEqual(newToken(), t);
});
