/**
 * Element ids survive what does not change what an element is (map/ids.ts), on real apps:
 * a Calc cell's edit, a Writer paragraph getting a twin, a file created above a Thunar
 * row, typing in FeatherPad's Find field, a GTK 3 combo showing another option. Every
 * change is made as a user would (the driver's own actions, or the disk) and checked by
 * the app (pyatspi in its own process, the disk), never by the driver's answer alone.
 */
import assert from "node:assert/strict";
import type { DriverClient } from "../rpc/client.ts";
import type { Element } from "../protocol/element.ts";
import { session, withApp } from "./support/client.ts";
import * as apps from "./support/apps.ts";
import { onDocument, sheet, textDocument } from "./support/documents.ts";
import { oracleCell, oracleNodes, oracleState } from "./support/oracle.ts";
import { pressMenuItem, replanned } from "./support/desktop_steps.ts";

apps.requireDesktop();

/** Polls `read` until `done` holds or `ms` pass; the last value. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (true) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Reads `window` until `done` holds of its elements (or 10 s pass); that read. */
function readUntil(client: DriverClient, window: string, done: (els: Element[]) => boolean) {
  return until(() => client.call("read_ui", { window }), (r) => done(r.elements!));
}

const ids = (els: readonly Element[]) => new Set(els.map((e) => e.id));

Deno.test("LibreOffice Calc: a cell's edit keeps its id and the other cells' ids", async () => {
  await withApp(
    (files) => onDocument(files, sheet(5), ".fods", (p) => apps.libreoffice(p, "LibreOffice Calc")),
    async (client, app, window) => {
      const before = await client.call("read_ui", { window });
      const cells = before.elements!.filter((e) => e.role === "AXCell");
      // A3 holds "Row 2" (row 0 is the header).
      const a3 = cells.find((e) => e.value === "Row 2");
      assert.ok(a3, `no cell holds "Row 2": ${JSON.stringify(cells.slice(0, 9))}`);
      const set = await replanned(() =>
        client.call("act", {
          window,
          version: before.version,
          id: a3.id,
          action: "set_value",
          value: "Changed",
        })
      );
      const shown = await until(() => oracleCell(app.pid, 2, 0), (c) => c?.text === "Changed");
      assert.equal(
        shown?.text,
        "Changed",
        `pyatspi reads A3 as ${JSON.stringify(shown)} after ${
          JSON.stringify({ ...set, added: set.added?.length, changed: set.changed?.length })
        }`,
      );
      const after = await readUntil(
        client,
        window,
        (els) => els.some((e) => e.id === a3.id && e.value === "Changed"),
      );
      const edited = after.elements!.find((e) => e.id === a3.id);
      assert.equal(edited?.value, "Changed", `A3 keeps its id ${a3.id}: ${JSON.stringify(edited)}`);
      const now = ids(after.elements!);
      const kept = cells.filter((c) => now.has(c.id)).length;
      assert.ok(
        kept >= cells.length * 0.9,
        `${kept} of ${cells.length} cells keep their ids (act: ${JSON.stringify(set.ok)})`,
      );
      assert.equal(set.ok, true, `set_value answered ${JSON.stringify(set)}`);
    },
  );
});

Deno.test("LibreOffice Writer: a paragraph with another's text leaves every paragraph's id", async () => {
  await withApp(
    (files) =>
      onDocument(
        files,
        textDocument(["Alpha", "Beta", "Gamma"]),
        ".fodt",
        (p) => apps.libreoffice(p, "LibreOffice Writer"),
      ),
    async (client, app, window) => {
      const before = await client.call("read_ui", { window });
      const paragraphs = before.elements!.filter((e) =>
        ["Alpha", "Beta", "Gamma"].includes(e.value ?? "")
      );
      assert.equal(paragraphs.length, 3, JSON.stringify(paragraphs));
      // A new last paragraph reading "Beta", typed as a user would: a click into the text
      // first (a Writer just started may hold its keyboard focus elsewhere), then the keys.
      await replanned(async () => {
        const now = await client.call("read_ui", { window });
        const gamma = now.elements!.find((e) => e.value === "Gamma")!;
        await client.call("act", { window, version: now.version, id: gamma.id, action: "click" });
      });
      for (const keys of ["ctrl+End", "Return"]) await client.call("pixel_key", { keys, window });
      await client.call("pixel_type_text", { text: "Beta", window });
      const texts = await until(
        () => oracleNodes(app.pid, 5_000, 30),
        (ns) => ns.filter((n) => n.role === "paragraph" && n.text === "Beta").length === 2,
      );
      const betas = texts.filter((n) => n.role === "paragraph" && n.text === "Beta");
      assert.equal(betas.length, 2, `pyatspi reads ${betas.length} "Beta" paragraphs`);
      const after = await readUntil(
        client,
        window,
        (els) => els.filter((e) => e.value === "Beta").length === 2,
      );
      for (const p of paragraphs) {
        const now = after.elements!.find((e) => e.id === p.id);
        assert.equal(now?.value, p.value, `"${p.value}" keeps its id ${p.id}`);
      }
    },
  );
});

Deno.test("Thunar: a file created above a row keeps the row's id, and select by it selects that row", async () => {
  const dir = await Deno.makeTempDir({ prefix: "allternit-ids-" });
  for (const f of ["draft.txt", "notes.txt"]) await Deno.writeTextFile(`${dir}/${f}`, f);
  const app = await apps.thunar(dir);
  const s = await session();
  try {
    const client = s.client;
    const window = (await client.call("read_ui", { app: app.pid })).window;
    // The list view shows rows (the icon view's items are not in the tree).
    await pressMenuItem(client, window, "View", "List");
    const before = await readUntil(
      client,
      window,
      (els) => els.some((e) => e.name === "notes.txt"),
    );
    const notes = before.elements!.find((e) =>
      e.name === "notes.txt" && e.actions.includes("select")
    );
    assert.ok(
      notes,
      `no selectable "notes.txt": ${JSON.stringify(before.elements!.map((e) => e.name))}`,
    );
    const draft = before.elements!.find((e) => e.name === "draft.txt");
    // Sorted by name, "alpha.txt" comes above both. A fresh read: whether the live map
    // notices the row by itself is the next test's business.
    await Deno.writeTextFile(`${dir}/alpha.txt`, "alpha");
    const after = await until(
      () => client.call("read_ui", { window, fresh: true }),
      (r) => r.elements!.some((e) => e.name === "alpha.txt"),
    );
    const now = after.elements!.find((e) => e.id === notes.id);
    assert.equal(now?.name, "notes.txt", `"notes.txt" keeps its id: ${JSON.stringify(now)}`);
    assert.equal(after.elements!.find((e) => e.id === draft?.id)?.name, "draft.txt");
    // The id planned before the file came, on the current version (re-read when the
    // window moved on meanwhile, as an agent does on `stale_version`).
    let version = after.version;
    const picked = await replanned(async () => {
      const acted = await client.call("act", { window, version, id: notes.id, action: "select" })
        .catch(async (err) => {
          version = (await client.call("read_ui", { window, fresh: true })).version;
          throw err;
        });
      return acted;
    });
    const role = "table cell|list item|table row";
    const selected = await until(
      () => oracleState(app.pid, role, "notes.txt", 0, true),
      (st) => st?.states.includes("selected") === true,
    );
    assert.ok(selected?.states.includes("selected"), `pyatspi: ${JSON.stringify(selected)}`);
    for (const other of ["alpha.txt", "draft.txt"]) {
      const st = await oracleState(app.pid, role, other, 0, true);
      assert.ok(
        !st?.states.includes("selected"),
        `${other} is not selected: ${JSON.stringify(st)}`,
      );
    }
    assert.equal(picked.ok, true, JSON.stringify({ ...picked, added: [], changed: [] }));
  } finally {
    await s.close();
    await app.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Thunar: the live map shows a file created in the shown folder", async () => {
  const dir = await Deno.makeTempDir({ prefix: "allternit-ids-" });
  for (const f of ["draft.txt", "notes.txt"]) await Deno.writeTextFile(`${dir}/${f}`, f);
  const app = await apps.thunar(dir);
  const s = await session();
  try {
    const client = s.client;
    const window = (await client.call("read_ui", { app: app.pid })).window;
    await pressMenuItem(client, window, "View", "List");
    await readUntil(client, window, (els) => els.some((e) => e.name === "notes.txt"));
    await Deno.writeTextFile(`${dir}/alpha.txt`, "alpha");
    const shown = await until(
      () => oracleState(app.pid, "table cell", "alpha.txt", 0, true),
      (st) => st !== null,
    );
    assert.ok(shown, "pyatspi: Thunar lists alpha.txt");
    // Without `fresh`: the map must follow the app, or acts land on rows by old bounds.
    const after = await readUntil(client, window, (els) => els.some((e) => e.name === "alpha.txt"));
    const row = after.elements!.find((e) => e.name === "alpha.txt");
    assert.ok(row, `the map lists alpha.txt (cached: ${after.cached}, version ${after.version})`);
  } finally {
    await s.close();
    await app.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("FeatherPad: typing in the Find field keeps the editor's id", async () => {
  await withApp(() => apps.featherpad(), async (client, app, window) => {
    await client.call("pixel_key", { keys: "ctrl+f", window });
    const found = await readUntil(
      client,
      window,
      (els) =>
        els.filter((e) => e.role === "AXTextArea").length === 1 &&
        els.some((e) => e.role === "AXTextField"),
    );
    const editor = found.elements!.find((e) => e.role === "AXTextArea");
    assert.ok(editor, "FeatherPad shows its editor");
    await client.call("pixel_type_text", { text: "hello", window });
    const typed = await until(
      () => oracleNodes(app.pid, 200, 14),
      (ns) => ns.some((n) => n.text === "hello"),
    );
    assert.ok(typed.some((n) => n.text === "hello"), "pyatspi reads hello in the Find field");
    const after = await readUntil(client, window, (els) => els.some((e) => e.value === "hello"));
    const now = after.elements!.find((e) => e.id === editor.id);
    assert.equal(now?.role, "AXTextArea", `the editor keeps its id ${editor.id}`);
  });
});

Deno.test("GTK 3: a combo box keeps its id when it shows another option", async () => {
  await withApp(() => apps.widgetFactory(), async (client, app, window) => {
    const before = await client.call("read_ui", { window });
    // Three combos named by the option each shows: "Left", "Middle" and "Right".
    const combo = before.elements!.find((e) => e.role === "AXPopUpButton" && e.name === "Left");
    assert.ok(combo, "a combo shows Left");
    const found = await client.call("find", { window, query: { name: "Right" }, scope: "all" });
    const option = found.elements.find((e) => e.role === "AXMenuItem");
    assert.ok(option, `the combo's option "Right" is found`);
    const picked = await client.call("act", {
      window,
      version: found.version,
      id: option.id,
      action: "select",
    });
    assert.equal(picked.ok, true, JSON.stringify(picked));
    const gone = await until(() => oracleState(app.pid, "combo box", "Left"), (st) => st === null);
    assert.equal(gone, null, "pyatspi: no combo shows Left");
    const after = await readUntil(
      client,
      window,
      (els) => !els.some((e) => e.role === "AXPopUpButton" && e.name === "Left"),
    );
    const now = after.elements!.find((e) => e.id === combo.id);
    assert.equal(now?.name, "Right", `the combo keeps its id ${combo.id}: ${JSON.stringify(now)}`);
  });
});
