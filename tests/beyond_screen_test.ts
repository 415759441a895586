/**
 * Beyond the screen (issues 19 and 20): `find` with `scope: "all"` finds what the map
 * cannot hold (a row 1,500 of a web table below the fold, row 9,000 of a GTK tree view of
 * 10,000 whose cells were never built), and `act … scroll_into_view` brings it on screen
 * and answers its new bounds. Where it landed is read by pyatspi in its own process.
 */
import assert from "node:assert/strict";
import type { Element } from "../protocol/element.ts";
import * as apps from "./support/apps.ts";
import { requireDesktop } from "./support/apps.ts";
import { withApp } from "./support/client.ts";
import {
  LONG_TABLE_ROWS,
  LONG_TABLE_TITLE,
  onDocument,
  onLongTable,
  sheet,
  sheetValue,
} from "./support/documents.ts";
import { costOf, quiet } from "./support/proc_cost.ts";
import { oracleCell, oracleState } from "./support/oracle.ts";
import type { DriverClient } from "../rpc/client.ts";

requireDesktop();

/** Finds the one element named `name` beyond the map; it must not be in the map already. */
async function findBeyond(
  client: DriverClient,
  window: string,
  name: string,
): Promise<{ el: Element; version: number }> {
  const inMap = await client.call("find", { window, query: { name } });
  assert.equal(inMap.elements.length, 0, `"${name}" is not in the map before scrolling`);
  const all = await client.call("find", { window, query: { name }, scope: "all" });
  const el = all.elements.find((e) => e.role === "AXCell");
  assert.ok(el, `find scope all: "${name}" found (${JSON.stringify(all).slice(0, 300)})`);
  assert.equal(el.offscreen, true, "what the map lacks says offscreen");
  assert.ok(el.actions.includes("scroll_into_view"), `offers scroll_into_view: ${el.actions}`);
  assert.ok((all.searched ?? 0) > 0, "says how much it searched");
  return { el, version: all.version };
}

/** Scrolls `el` into view; answers the element as the map now holds it. */
async function scrollTo(
  client: DriverClient,
  window: string,
  el: Element,
  version: number,
): Promise<Element> {
  const r = await client.call("act", { window, version, id: el.id, action: "scroll_into_view" });
  assert.equal(r.ok, true, `scroll_into_view: ${r.value}`);
  assert.ok(r.element, "the answer holds the element as read after scrolling");
  assert.equal(r.element.name, el.name);
  assert.equal(r.element.offscreen, undefined, "in the map now");
  // Its map id resolves in the window's map from now on.
  const again = await client.call("find", { window, query: { name: el.name } });
  assert.ok(again.elements.some((e) => e.id === r.element!.id), "find in the map sees it");
  return r.element;
}

const ROW = 1_500;
assert.ok(ROW < LONG_TABLE_ROWS);

for (
  const [browser, start] of [
    ["Firefox", (page: string) => apps.firefox(page, LONG_TABLE_TITLE)],
    ["Chromium", (page: string) => apps.chromium(page, LONG_TABLE_TITLE, "Stock")],
  ] as const
) {
  Deno.test(`beyond the screen: ${browser} finds row ${ROW} of a long table and scrolls to it`, async () => {
    await withApp((files) => onLongTable(files, start), async (client, app, window) => {
      const name = `Item ${ROW}`;
      const { el, version } = await findBeyond(client, window, name);
      const now = await scrollTo(client, window, el, version);
      const seen = await oracleState(app.pid, "table cell", name);
      assert.ok(seen, `pyatspi finds the cell "${name}"`);
      assert.ok(seen.states.includes("showing"), `pyatspi: showing (${seen.states})`);
      const b = now.bounds;
      assert.deepEqual(seen.extents, [b.x, b.y, b.w, b.h], "the answered bounds are pyatspi's");
    });
  });
}

Deno.test("beyond the screen: GTK 3 tree view of 10,000 rows, row 9,000 found and scrolled to", async () => {
  await withApp(() => apps.zenityList(), async (client, app, window) => {
    const rss = () => residentKb(app.pid);
    const before = await rss();
    const { el, version } = await findBeyond(client, window, "Row 9000");
    const grew = (await rss()) - before;
    // The search builds the cells it asks about, as a screen reader's would: bounded.
    assert.ok(grew < 50_000, `the search grew the app by ${grew} kB`);
    const now = await scrollTo(client, window, el, version);
    const cell = await oracleCell(app.pid, 8_999, 0);
    assert.ok(cell, "pyatspi finds the tree view");
    assert.equal(cell.name, "Row 9000");
    const [x, y, w, h] = cell.extents;
    const [wx, wy, ww, wh] = cell.window;
    assert.ok(y >= wy && y + h <= wy + wh && x >= wx && x + w <= wx + ww, "inside its window");
    assert.deepEqual([x, y, w, h], [now.bounds.x, now.bounds.y, now.bounds.w, now.bounds.h]);
  });
});

Deno.test("beyond the screen: Qt 5, a hidden menu item pressed, then a far row of its list wheeled to", async () => {
  await withApp(() => apps.speedcrunch(), async (client, app, window) => {
    // The View menu's items exist only beyond the map (the menu is closed).
    const menu = await client.call("find", {
      window,
      query: { role: "AXMenuItem", name: "Functions" },
      scope: "all",
    });
    const item = menu.elements[0];
    assert.ok(item?.offscreen, `the closed menu's item is found: ${JSON.stringify(menu)}`);
    const pressed = await client.call("act", {
      window,
      version: menu.version,
      id: item.id,
      action: "press",
    });
    assert.equal(pressed.ok, true);
    const list = await client.call("verify", {
      window,
      query: { role: "AXTextField" },
      expect: { exists: true },
      timeout_ms: 5_000,
    });
    assert.ok(list.ok, "the Functions panel opened");
    const { el, version } = await findBeyond(client, window, "Truncation");
    const now = await scrollTo(client, window, el, version);
    const seen = await oracleState(app.pid, "table cell", "Truncation", 0, true);
    assert.ok(seen, "pyatspi finds the cell");
    assert.ok(seen.states.includes("showing"), `pyatspi: showing (${seen.states})`);
    const b = now.bounds;
    assert.deepEqual(seen.extents, [b.x, b.y, b.w, b.h], "the answered bounds are pyatspi's");
  });
});

const SHEET_ROWS = 400;
const FAR_ROW = 300;

Deno.test(`beyond the screen: Calc, a value ${FAR_ROW} rows down its sheet found, then scrolled to after its object expired`, async () => {
  const start = (files: string[]) =>
    onDocument(
      files,
      sheet(SHEET_ROWS),
      ".fods",
      (doc) => apps.libreoffice(doc, "LibreOffice Calc"),
    );
  await withApp(start, async (client, app, window) => {
    const text = sheetValue(FAR_ROW, 0);
    const inMap = await client.call("find", { window, query: { text_contains: text } });
    assert.equal(inMap.elements.length, 0, `"${text}" is not in the map: its row is not shown`);
    await quiet(app.pid);
    // The search asks the sheet's filled part cell by cell, never its billion children.
    const { result: all, cpuMs, rssGrowthMb } = await costOf(
      app.pid,
      () => client.call("find", { window, query: { text_contains: text }, scope: "all" }),
    );
    const el = all.elements.find((e) => e.value === text);
    assert.ok(el, `find scope all: "${text}" found (${JSON.stringify(all).slice(0, 300)})`);
    assert.equal(el.name, `A${FAR_ROW + 1}`, "the cell is named by its address");
    assert.equal(el.offscreen, true);
    assert.ok(el.actions.includes("scroll_into_view"), `offers scroll_into_view: ${el.actions}`);
    assert.ok(cpuMs < 3_000, `the search cost soffice ${cpuMs} ms of CPU`);
    assert.ok(rssGrowthMb < 50, `soffice grew by ${rssGrowthMb.toFixed(1)} MB`);
    // LibreOffice makes a new object per ask and the bridge keeps it 15 s: the found id
    // must outlive that object.
    await new Promise((r) => setTimeout(r, 17_000));
    const now = await scrollTo(client, window, el, all.version);
    const cell = await oracleCell(app.pid, FAR_ROW, 0);
    assert.ok(cell, "pyatspi finds the sheet");
    assert.equal(cell.name, el.name);
    const [x, y, w, h] = cell.extents;
    const [wx, wy, ww, wh] = cell.window;
    assert.ok(y >= wy && y + h <= wy + wh && x >= wx && x + w <= wx + ww, "inside its window");
    assert.deepEqual([x, y, w, h], [now.bounds.x, now.bounds.y, now.bounds.w, now.bounds.h]);
    assert.equal(now.value, text);
  });
});

/** Resident memory of process `pid`, in kB, from /proc. */
async function residentKb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}
