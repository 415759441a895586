import assert from "node:assert/strict";
import { CUA_OPS, deriveOps } from "./ops.ts";
import { TOOL } from "./tools.ts";

const ALL = [...Object.values(TOOL), "parse_visual_regions", "list_apps", "get_screen_size"];

Deno.test("deriveOps() serves every op of the full catalogue, never batches or held keys", () => {
  assert.deepEqual(deriveOps(ALL), [...CUA_OPS]);
  assert.ok(!CUA_OPS.includes("run_batch"));
  assert.ok(!CUA_OPS.includes("hold_key"));
});

Deno.test("deriveOps() drops the ops whose tools are missing", () => {
  const noZoom = deriveOps(ALL.filter((t) => t !== TOOL.zoom));
  assert.ok(!noZoom.includes("zoom"));
  assert.ok(noZoom.includes("screenshot"));
  const noTree = deriveOps(ALL.filter((t) => t !== TOOL.getWindowState));
  for (const op of ["read_ui", "act", "find", "verify", "screenshot", "zoom"]) {
    assert.ok(!noTree.includes(op), op);
  }
  assert.ok(noTree.includes("pixel_click"));
});

Deno.test("deriveOps() never counts parse_visual_regions, listed or not", () => {
  assert.deepEqual(deriveOps(["parse_visual_regions"]), []);
});
