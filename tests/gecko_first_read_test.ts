/**
 * Gecko's first read (issue 19, engines/atspi/first_read.ts): Firefox fills what it says of
 * a page only once a client asked, and listing the apps asks. A first read that comes well
 * after the listing is read once: it must still be whole, with the bounds of every element
 * and a long table's rows in view, as pyatspi reads them in its own process. The engine is
 * driven directly: through the driver, the live map would take a partial read's bounds for
 * motion and read again, hiding what the engine answered.
 */
import assert from "node:assert/strict";
import { AtspiEngine } from "../engines/atspi/engine.ts";
import type { RawNode } from "../model/engine.ts";
import * as apps from "./support/apps.ts";
import { requireDesktop } from "./support/apps.ts";
import { LONG_TABLE_TITLE, onLongTable } from "./support/documents.ts";
import { oracleState } from "./support/oracle.ts";
import { quiet } from "./support/proc_cost.ts";

requireDesktop();

/** Past FILL_MAX_MS (first_read.ts): the read trusts the listing's warm-up. */
const AFTER_LISTING_MS = 400;

/** Every node of `root`. */
function nodes(root: RawNode): RawNode[] {
  return [root, ...root.children.flatMap(nodes)];
}

Deno.test("Gecko: a first read well after listing has the page's bounds and a long table's rows", async () => {
  const files: string[] = [];
  const app = await onLongTable(files, (page) => apps.firefox(page, LONG_TABLE_TITLE));
  const engine = new AtspiEngine();
  try {
    await quiet(app.pid);
    const listed = await engine.listApps(AbortSignal.timeout(10_000));
    const window = listed.find((a) => a.pid === app.pid)?.windows[0]?.window;
    assert.ok(window, "Firefox's window is listed");
    await new Promise((r) => setTimeout(r, AFTER_LISTING_MS));
    const tree = await engine.readWindow(window, {
      maxElements: 2_000,
      signal: AbortSignal.timeout(20_000),
    });
    const read = nodes(tree.root);
    const cells = read.filter((n) => n.role === "AXCell");
    assert.ok(cells.length >= 20, `the rows in view are read: ${cells.length} cells`);
    for (
      const [role, name] of [["table cell", "Item 1"], ["table cell", "7"], ["heading", "Stock"]]
    ) {
      const seen = await oracleState(app.pid, role!, name!);
      assert.ok(seen, `pyatspi finds the ${role} "${name}"`);
      const mine = read.find((n) => (n.name || n.value) === name);
      assert.ok(mine, `the read has "${name}"`);
      const b = mine.bounds;
      assert.deepEqual([b.x, b.y, b.w, b.h], seen.extents, `"${name}" has pyatspi's bounds`);
    }
  } finally {
    await engine.close();
    await app.stop();
    for (const f of files) await Deno.remove(f).catch(() => {});
  }
});
