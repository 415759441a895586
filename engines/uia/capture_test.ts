import assert from "node:assert/strict";
import { allBlack } from "./capture.ts";

Deno.test("allBlack() sees any lit pixel and ignores alpha", () => {
  const rgba = new Uint8Array(4 * 100);
  for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
  assert.equal(allBlack(rgba), true);
  rgba[4 * 99 + 2] = 1;
  assert.equal(allBlack(rgba), false);
});
