/**
 * Actions that mean one thing on real apps (issue 44), each effect checked by the app (the
 * disk, its title) or by pyatspi in its own process, never by the driver's answer:
 * `select` selects and never opens, a cell's `set_value` commits once, a button that closes
 * its dialog answers `closed`.
 */
import assert from "node:assert/strict";
import { session } from "./support/client.ts";
import { libreoffice, requireDesktop, thunar } from "./support/apps.ts";
import { zooApp } from "./support/zoo.ts";
import { DriverError } from "../protocol/errors.ts";
import { onDocument, sheet, sheetValue } from "./support/documents.ts";
import { oracleCell, oracleNodes, oracleState } from "./support/oracle.ts";
import { actOn, openedDialog, pressMenuItem, replanned } from "./support/desktop_steps.ts";
import type { DriverClient } from "../rpc/client.ts";

requireDesktop();

/** Polls `read` until `done` holds or `ms` pass; the last value. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (true) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Shows Thunar's folder as a list (its icon view lists no items on the bus), runs `body`,
 * and puts the icon view back: Thunar keeps the last view for the next test's window.
 */
async function inListView(client: DriverClient, main: string, body: () => Promise<void>) {
  await pressMenuItem(client, main, "View", "List View");
  try {
    await body();
  } finally {
    await pressMenuItem(client, main, "View", "Icon View");
  }
}

/** Acts on the element of `window` named `name` (and of `role`, when given). */
function actNamed(
  client: DriverClient,
  window: string,
  name: string,
  action: "select" | "set_value" | "type_text",
  value?: string,
  role?: string,
) {
  return replanned(async () => {
    // A folder is listed a moment after its window shows.
    const found = await until(
      () => client.call("find", { window, query: { name, ...(role ? { role } : {}) } }),
      (f) => f.elements.length > 0,
    );
    const el = found.elements[0];
    assert.ok(el, `no "${name}" in ${window}`);
    return await client.call("act", {
      window,
      version: found.version,
      id: el.id,
      action,
      ...(value === undefined ? {} : { value }),
    });
  });
}

Deno.test("Thunar: select on a folder's row selects it and does not open it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "allternit-select-" });
  for (const sub of ["alpha", "beta", "gamma"]) await Deno.mkdir(`${dir}/${sub}`);
  const app = await thunar(dir);
  const s = await session();
  try {
    const main = (await s.client.call("read_ui", { app: app.pid })).window;
    const title = dir.slice(dir.lastIndexOf("/") + 1);
    await inListView(s.client, main, async () => {
      await actNamed(s.client, main, "alpha", "select");
      const picked = await actNamed(s.client, main, "beta", "select");
      assert.equal(picked.ok, true, JSON.stringify(picked));
      // Still the same folder: an activation would have opened "beta".
      const windows = await oracleNodes(app.pid, 20, 0);
      assert.ok(windows.some((w) => w.name.startsWith(title)), JSON.stringify(windows));
      const state = (name: string) => oracleState(app.pid, "table cell", name, 0, true);
      const beta = await until(
        () => state("beta"),
        (st) => st?.states.includes("selected") === true,
      );
      assert.ok(beta?.states.includes("selected"), `pyatspi: ${JSON.stringify(beta)}`);
      // The selection was replaced, not added to.
      assert.ok(!(await state("alpha"))?.states.includes("selected"), "alpha is still selected");
    });
  } finally {
    await s.close();
    await app.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Thunar: the Rename dialog's button renames on disk and answers closed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "allternit-rename-" });
  await Deno.writeTextFile(`${dir}/draft.txt`, "draft");
  const app = await thunar(dir);
  const s = await session();
  try {
    const main = (await s.client.call("read_ui", { app: app.pid })).window;
    await inListView(s.client, main, async () => {
      await actNamed(s.client, main, "draft.txt", "select");
      const dialog = openedDialog(await pressMenuItem(s.client, main, "Edit", "Rename"), /Rename/);
      const set = await actOn(
        s.client,
        dialog,
        (e) => e.role === "AXTextField",
        "set_value",
        "final.txt",
      );
      assert.equal(set.ok, true, JSON.stringify(set));
      const done = await actOn(s.client, dialog, (e) => e.name === "Rename", "press");
      assert.equal(done.ok, true, JSON.stringify(done));
      assert.equal(done.closed, true, JSON.stringify(done));
      const renamed = await until(
        () => Deno.stat(`${dir}/final.txt`).then(() => true, () => false),
        (there) => there,
      );
      assert.ok(renamed, "final.txt is on disk");
    });
  } finally {
    await s.close();
    await app.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("LibreOffice Calc: set_value and type_text commit a cell once, the rest of the sheet intact", async () => {
  const files: string[] = [];
  const app = await onDocument(
    files,
    sheet(6),
    ".fods",
    (doc) => libreoffice(doc, "LibreOffice Calc"),
  );
  const s = await session();
  try {
    const main = (await s.client.call("read_ui", { app: app.pid })).window;
    const cellAt = (row: number, column: number) =>
      until(() => oracleCell(app.pid, row, column), () => true);
    const target = await replanned(async () => {
      const read = await s.client.call("read_ui", { window: main });
      const b2 = read.elements!.find((e) => e.role === "AXCell" && e.name.startsWith("B2"));
      assert.ok(
        b2,
        `no cell B2 in ${JSON.stringify(read.elements!.slice(0, 40).map((e) => e.name))}`,
      );
      return await s.client.call("act", {
        window: main,
        version: read.version,
        id: b2.id,
        action: "set_value",
        value: "77",
      });
    });
    assert.equal(target.ok, true, JSON.stringify({ ...target, added: [], changed: [] }));
    assert.equal(target.commit, "enter");
    const b2 = await until(() => cellAt(1, 1), (c) => c?.text === "77");
    assert.equal(b2?.text, "77", "pyatspi reads the committed cell");
    // Nothing typed twice, nothing else touched (select-all would select the sheet).
    const a2 = await cellAt(1, 0);
    assert.equal(a2?.text, sheetValue(1, 0));
    const typed = await replanned(async () => {
      const read = await s.client.call("read_ui", { window: main });
      const b3 = read.elements!.find((e) => e.role === "AXCell" && e.name.startsWith("B3"));
      assert.ok(b3, "no cell B3");
      return await s.client.call("act", {
        window: main,
        version: read.version,
        id: b3.id,
        action: "type_text",
        value: "7\n",
      });
    });
    assert.equal(typed.ok, true, JSON.stringify({ ...typed, added: [], changed: [] }));
    const b3 = await until(() => cellAt(2, 1), (c) => c?.text === "7");
    assert.equal(b3?.text, "7");
  } finally {
    await s.close();
    await app.stop();
    for (const f of files) await Deno.remove(f).catch(() => {});
  }
});

Deno.test("the element guard acts on a plan the window moved past; the window guard refuses it", async () => {
  const app = await zooApp("gtk3_zoo.py", "Guard zoo");
  const s = await session();
  try {
    const main = (await s.client.call("read_ui", { app: app.pid })).window;
    const plan = await s.client.call("read_ui", { window: main });
    const refresh = plan.elements!.find((e) => e.role === "AXButton" && e.name === "Refresh");
    assert.ok(refresh, "the icon button is named by its tooltip");
    // Something else in the window changes: the plan's version is behind.
    await actOn(
      s.client,
      main,
      (e) => e.name === "Notes" && e.role === "AXTextArea",
      "set_value",
      "x",
    );
    await app.said((l) => l === "notes: x");
    const act = (guard: "window" | "element") =>
      s.client.call("act", {
        window: main,
        version: plan.version,
        id: refresh.id,
        action: "press",
        guard,
      });
    await assert.rejects(
      () => act("window"),
      (err: unknown) => err instanceof DriverError && err.code === "stale_version",
    );
    const pressed = await act("element");
    assert.equal(pressed.ok, true, JSON.stringify(pressed));
    await app.said((l) => l === "refresh: clicked");
    // The answer's diff runs from the planned version: the Notes change is in it.
    assert.ok(pressed.changed.some((e) => e.value === "x"), JSON.stringify(pressed.changed));
  } finally {
    await s.close();
    await app.stop();
  }
});
