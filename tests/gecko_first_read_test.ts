/**
 * Gecko's first read (issue 19, engines/atspi/first_read.ts): Firefox fills what it says of
 * a page only once a client asked, and listing the apps asks and watches the fill land. A
 * first read, on the listing's heels or well after it, is read once: it must still be
 * whole, with the bounds of every element and a long table's rows in view, as pyatspi
 * reads them in its own process. The engine is driven directly: through the driver, the
 * live map would take a partial read's bounds for motion and read again, hiding what the
 * engine answered.
 */
import assert from "node:assert/strict";
import { AtspiEngine } from "../engines/atspi/engine.ts";
import type { RawNode } from "../model/engine.ts";
import * as apps from "./support/apps.ts";
import { requireDesktop } from "./support/apps.ts";
import {
  LONG_TABLE_TITLE,
  onLongTable,
  onSlidingPage,
  SLIDING_TITLE,
} from "./support/documents.ts";
import { oracleState } from "./support/oracle.ts";
import { quiet } from "./support/proc_cost.ts";

requireDesktop();

/** Past FILL_MAX_MS (first_read.ts): the warm-up is long over. */
const AFTER_LISTING_MS = 400;

/** Every node of `root`. */
function nodes(root: RawNode): RawNode[] {
  return [root, ...root.children.flatMap(nodes)];
}

/**
 * Starts Firefox on a page (`open`), lists the apps with a new engine, waits `after` ms and
 * reads the window for the first time; `check` gets the app, the read's nodes and how many
 * reads the engine made.
 */
async function firstRead(
  open: (files: string[]) => Promise<apps.App>,
  after: number,
  check: (app: apps.App, read: RawNode[], walks: number) => Promise<void>,
): Promise<void> {
  const files: string[] = [];
  const app = await open(files);
  const engine = new AtspiEngine();
  try {
    await quiet(app.pid);
    const listed = await engine.listApps(AbortSignal.timeout(10_000));
    const window = listed.find((a) => a.pid === app.pid)?.windows[0]?.window;
    assert.ok(window, "Firefox's window is listed");
    await new Promise((r) => setTimeout(r, after));
    const tree = await engine.readWindow(window, {
      maxElements: 2_000,
      signal: AbortSignal.timeout(20_000),
    });
    await check(app, nodes(tree.root), engine.stats().walks);
  } finally {
    await engine.close();
    await app.stop();
    for (const f of files) await Deno.remove(f).catch(() => {});
  }
}

for (const after of [0, AFTER_LISTING_MS]) {
  const when = after === 0 ? "right after listing" : "well after listing";
  Deno.test(`Gecko: a first read ${when} is read once, with the page's bounds and a long table's rows`, async () => {
    const open = (files: string[]) =>
      onLongTable(files, (page) => apps.firefox(page, LONG_TABLE_TITLE));
    await firstRead(open, after, async (app, read, walks) => {
      assert.equal(walks, 1, "the listing saw the fill land: one read");
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
    });
  });

  Deno.test(`Gecko: a first read ${when} has a page's actions and texts as pyatspi reads them`, async () => {
    // Its button is the first thing on any of the test pages whose actions nothing but
    // asking for them fills: on the form page something else asks first.
    const open = (files: string[]) =>
      onSlidingPage(files, (page) => apps.firefox(page, SLIDING_TITLE));
    await firstRead(open, after, async (app, read) => {
      // Each comes from a cache domain of its own: actions, texts, bounds.
      const button = read.find((n) => n.role === "AXButton" && n.name === "Show more");
      const seenButton = await oracleState(app.pid, "push button|button", "Show more");
      assert.ok(button && seenButton, "both find the button");
      assert.ok(seenButton.actions && seenButton.actions.length > 0, "pyatspi: it has actions");
      assert.ok(button.actions.includes("press"), `its actions: ${button.actions}`);
      const seenPara = await oracleState(app.pid, "paragraph", "");
      assert.equal(seenPara?.text, "Not tapped", "pyatspi reads the paragraph's text");
      assert.ok(read.some((n) => n.value === "Not tapped"), "the read has the paragraph's text");
      const b = button.bounds;
      assert.deepEqual([b.x, b.y, b.w, b.h], seenButton.extents, "the button has pyatspi's bounds");
    });
  });
}
