import assert from "node:assert/strict";
import { OP_NAMES } from "./ops.ts";
import { OPS_DOC, opsMarkdown } from "./op_docs.ts";

Deno.test("docs/ops.md is what the op table says (run `deno task docs` after changing it)", async () => {
  const written = await Deno.readTextFile(new URL(`../${OPS_DOC}`, import.meta.url));
  assert.equal(written, opsMarkdown());
});

Deno.test("opsMarkdown() lists every op with its fields, act's extend and guard among them", () => {
  const doc = opsMarkdown();
  for (const op of OP_NAMES) assert.match(doc, new RegExp(`^## ${op}$`, "m"));
  const act = doc.slice(doc.indexOf("## act\n"), doc.indexOf("## run_batch"));
  assert.match(act, /`extend\?`/);
  assert.match(act, /`guard\?`/);
  assert.match(act, /`verified\?`/);
});
