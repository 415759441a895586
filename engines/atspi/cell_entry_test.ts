import assert from "node:assert/strict";
import { sameText } from "./cell_entry.ts";

Deno.test("sameText(): a cell holds what was typed, a formula by its formula", () => {
  assert.equal(sameText("77", "77"), true);
  assert.equal(sameText("1630", "=SUM(B2:B4)"), false, "a result is no formula");
  assert.equal(sameText("=sum( B2:B4 )", "=SUM(B2:B4)"), true);
  // LibreOffice's bridge cuts the Formula attribute at its first (escaped) colon.
  assert.equal(sameText("=SUM(B2\\", "=SUM(B2:B4)"), true);
  assert.equal(sameText("=SUM(C2\\", "=SUM(B2:B4)"), false);
  assert.equal(sameText("=\\", "=SUM(B2:B4)"), false, "an empty start proves nothing");
});
