import assert from "node:assert/strict";
import type { RawNode } from "../../model/engine.ts";
import { filterOf } from "./search.ts";

const cell = (name: string, value?: string): RawNode => ({
  handle: name,
  role: "AXCell",
  name,
  ...(value !== undefined ? { value } : {}),
  bounds: { x: 0, y: 0, w: 1, h: 1 },
  enabled: true,
  focused: false,
  actions: [],
  children: [],
});

Deno.test("filterOf: role and name prune before a full read; text is decided on the full node", () => {
  const f = filterOf({ role: "AXCell", name_contains: "row 9" }, 5);
  assert.equal(f.maxResults, 5);
  assert.equal(f.maybe("AXCell", "Row 9000"), true);
  assert.equal(f.maybe("AXButton", "Row 9000"), false);
  assert.equal(f.maybe("AXCell", "Row 8000"), false);
  const t = filterOf({ text_contains: "signed in" }, 1);
  assert.equal(t.maybe("AXParagraph", ""), true, "text may be in the value: read it");
  assert.equal(t.accept(cell("", "Signed in as bob")), true);
  assert.equal(t.accept(cell("", "Not yet")), false);
});
