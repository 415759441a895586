/**
 * Which ops the Cua engine serves, derived from the tools a running Cua Driver lists; the
 * registry's static list is the most Cua 0.34 can serve (known before spawning anything).
 *
 * Never declared: `run_batch` (Cua 0.34 has no batch tool, so the router sends batches to
 * an engine that declares them, with reason `capability`) and `hold_key` (no key-down tool).
 *
 * @module
 */
import { NEVER_CALLED, TOOL } from "./tools.ts";

/** Each op with the tools it needs (all of them). */
const NEEDS: readonly (readonly [op: string, tools: readonly string[]])[] = [
  ["list_apps", [TOOL.listWindows]],
  ["read_ui", [TOOL.listWindows, TOOL.getWindowState]],
  ["act", [TOOL.getWindowState, TOOL.click]],
  ["verify", [TOOL.getWindowState]],
  ["find", [TOOL.getWindowState]],
  ["screenshot", [TOOL.getWindowState, TOOL.getDesktopState]],
  // The driver crops zoom regions from `capture`; the zoom tool is what says Cua can.
  ["zoom", [TOOL.zoom, TOOL.getWindowState, TOOL.getDesktopState]],
  ["pixel_click", [TOOL.click]],
  ["pixel_move", [TOOL.moveCursor]],
  ["pixel_drag", [TOOL.drag]],
  ["pixel_scroll", [TOOL.scroll]],
  ["pixel_type_text", [TOOL.typeText]],
  ["pixel_key", [TOOL.pressKey, TOOL.hotkey]],
];

/** The most Cua 0.34 can serve: every op of {@link NEEDS}. */
export const CUA_OPS: readonly string[] = NEEDS.map(([op]) => op);

/** The ops a Cua Driver listing `tools` can serve, in {@link CUA_OPS} order. */
export function deriveOps(tools: Iterable<string>): string[] {
  const have = new Set(tools);
  for (const never of NEVER_CALLED) have.delete(never);
  return NEEDS.filter(([, needs]) => needs.every((t) => have.has(t))).map(([op]) => op);
}
