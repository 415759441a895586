/**
 * What the map holds after reads and notifications, checked against real apps: a state
 * change patches the element (enabled, with the actions it now offers), descriptions name
 * unnamed buttons, hidden GTK 4 pages stay out, names are trimmed and offscreen rows carry
 * no sentinel bounds, document text is in `value`, and a wide Qt table's visible range is
 * the columns on screen. Every expectation is first checked by pyatspi in its own process
 * (what the app publishes), never by the driver's answer alone.
 */
import assert from "node:assert/strict";
import type { DriverClient } from "../rpc/client.ts";
import type { Element } from "../protocol/element.ts";
import { session } from "./support/client.ts";
import { featherpad, libreoffice, mousepad, requireDesktop } from "./support/apps.ts";
import { onDocument, textDocument } from "./support/documents.ts";
import { oracleState } from "./support/oracle.ts";
import { zooApp } from "./support/zoo.ts";
import { openedDialog, pressMenuItem, replanned } from "./support/desktop_steps.ts";

requireDesktop();

/** Polls `check` until it answers true, for at most `ms`; false when it never did. */
async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return await check();
}

/** pyatspi's description of every showing push button of process `pid` with no name. */
async function unnamedButtons(pid: number): Promise<string[]> {
  const script = `
import json, sys, pyatspi
out = []
def walk(n, depth):
    if n is None or depth > 40: return
    st = n.getState()
    if n.getRoleName() == "push button" and not n.name and st.contains(pyatspi.STATE_SHOWING):
        out.append(n.description or "")
    for i in range(min(n.childCount, 500)): walk(n.getChildAtIndex(i), depth + 1)
for app in pyatspi.Registry.getDesktop(0):
    if app is not None and app.get_process_id() == int(sys.argv[1]):
        for w in app: walk(w, 0)
print(json.dumps(out))
`;
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script, String(pid)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** The map of `window` from memory or patches: never a `fresh` read. */
async function mapOf(client: DriverClient, window: string): Promise<Element[]> {
  return (await client.call("read_ui", { window })).elements!;
}

Deno.test("a button enabled by typing shows enabled with its press action (FeatherPad)", async () => {
  const app = await featherpad();
  const s = await session();
  try {
    const first = await s.client.call("read_ui", { app: app.pid });
    const window = first.window;
    const save = (es: readonly Element[]) =>
      es.find((e) => e.role === "AXButton" && e.name === "Save");
    assert.equal(save(first.elements!)?.enabled, false, "Save starts disabled");
    const acted = await replanned(async () => {
      const r = await s.client.call("read_ui", { window });
      const editor = r.elements!.find((e) => e.role === "AXTextArea");
      assert.ok(editor, "FeatherPad's editor is in the map");
      return await s.client.call("act", {
        window,
        version: r.version,
        id: editor.id,
        action: "type_text",
        value: "hello",
      });
    });
    assert.equal(acted.ok, true);
    // The app itself says Save is enabled and pressable now.
    assert.ok(
      await eventually(async () =>
        (await oracleState(app.pid, "push button", "Save"))?.actions?.includes("Press") ?? false
      ),
      "pyatspi reads Save enabled with its Press action",
    );
    let last: Element | undefined = save([...acted.changed, ...acted.added]);
    const ok = last?.enabled === true && last.actions.includes("press") ||
      await eventually(async () => {
        last = save(await mapOf(s.client, window));
        return last?.enabled === true && last.actions.includes("press");
      });
    assert.ok(ok, `the map shows Save enabled with press, not ${JSON.stringify(last)}`);
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("a file chooser's Save button enabled by set_value on Name shows enabled (GTK 3)", async () => {
  const app = await mousepad();
  const s = await session();
  try {
    const main = (await s.client.call("read_ui", { app: app.pid })).window;
    const dialog = openedDialog(await pressMenuItem(s.client, main, "File", "Save As"), /Save/);
    const save = (es: readonly Element[]) =>
      es.find((e) => e.role === "AXButton" && e.name === "Save");
    const acted = await replanned(async () => {
      const r = await s.client.call("read_ui", { window: dialog });
      assert.equal(save(r.elements!)?.enabled, false, "Save starts disabled (no name yet)");
      const name = r.elements!.find((e) => e.role === "AXTextField");
      assert.ok(name, "the Name field is in the map");
      return await s.client.call("act", {
        window: dialog,
        version: r.version,
        id: name.id,
        action: "set_value",
        value: "truths.txt",
      });
    });
    assert.equal(acted.ok, true, JSON.stringify(acted));
    assert.ok(
      await eventually(async () =>
        (await oracleState(app.pid, "push button", "Save", 1))?.states.includes("sensitive") ??
          false
      ),
      "pyatspi reads the dialog's Save sensitive",
    );
    let last: Element | undefined = save([...acted.changed, ...acted.added]);
    const ok = last?.enabled === true && last.actions.includes("press") ||
      await eventually(async () => {
        last = save(await mapOf(s.client, dialog));
        return last?.enabled === true && last.actions.includes("press");
      });
    assert.ok(ok, `the map shows Save enabled with press, not ${JSON.stringify(last)}`);
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("GTK 4: a button enabled by set_value shows enabled; a hidden page stays out", async () => {
  const app = await zooApp("truths_gtk4.py", "Truths GTK 4");
  const s = await session();
  try {
    // pyatspi reads the hidden page's label VISIBLE (GTK 4 never says SHOWING), of no size.
    const label = await oracleState(app.pid, "label", "Could Not Open File");
    assert.ok(label?.states.includes("visible"), JSON.stringify(label));
    assert.deepEqual(label?.extents.slice(2), [0, 0], JSON.stringify(label));
    const first = await s.client.call("read_ui", { app: app.pid });
    const window = first.window;
    const names = first.elements!.map((e) => e.name);
    assert.ok(names.includes("Page shown"), JSON.stringify(names));
    for (const hidden of ["Could Not Open File", "Retry Opening"]) {
      assert.ok(!names.includes(hidden), `"${hidden}" is on a hidden page: ${names}`);
    }
    const els = first.elements!;
    const emptyLeaves = els.filter((e) =>
      e.parent !== undefined && (e.bounds.w <= 0 || e.bounds.h <= 0) &&
      !els.some((c) => c.parent === e.id)
    );
    assert.deepEqual(emptyLeaves.map((e) => e.name), [], "no element of no size and no child");
    const save = (es: readonly Element[]) =>
      es.find((e) => e.role === "AXButton" && e.name === "Save");
    assert.equal(save(first.elements!)?.enabled, false, "Save starts disabled");
    const acted = await replanned(async () => {
      const r = await s.client.call("read_ui", { window });
      const name = r.elements!.find((e) => e.role === "AXTextField" && e.name === "Name");
      assert.ok(name, "the Name field is in the map");
      return await s.client.call("act", {
        window,
        version: r.version,
        id: name.id,
        action: "set_value",
        value: "truths.txt",
      });
    });
    assert.equal(acted.ok, true, JSON.stringify(acted));
    await app.said((l) => l === "save: sensitive");
    let last: Element | undefined = save([...acted.changed, ...acted.added]);
    const ok = last?.enabled === true && last.actions.includes("press") ||
      await eventually(async () => {
        last = save(await mapOf(s.client, window));
        return last?.enabled === true && last.actions.includes("press");
      });
    assert.ok(ok, `the map shows Save enabled with press, not ${JSON.stringify(last)}`);
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("an icon button with no name is named by its description (FeatherPad's Replace dock)", async () => {
  const app = await featherpad();
  const s = await session();
  try {
    const window = (await s.client.call("read_ui", { app: app.pid })).window;
    const acted = await replanned(async () => {
      const r = await s.client.call("read_ui", { window });
      const replace = r.elements!.find((e) => e.role === "AXButton" && e.name === "Replace");
      assert.ok(replace, "the Replace toolbar button is in the map");
      return await s.client.call("act", {
        window,
        version: r.version,
        id: replace.id,
        action: "press",
      });
    });
    assert.equal(acted.ok, true, JSON.stringify(acted));
    assert.ok(
      await eventually(async () => (await unnamedButtons(app.pid)).includes("Replace all (F10)")),
      'pyatspi reads an unnamed button described "Replace all (F10)"',
    );
    let names: string[] = [];
    const found = await eventually(async () => {
      names = (await mapOf(s.client, window)).filter((e) => e.role === "AXButton").map((e) =>
        e.name
      );
      return names.includes("Replace all (F10)");
    });
    assert.ok(found, `the map names the button by its description: ${JSON.stringify(names)}`);
    // Pressed again, the dock hides: the map lets its buttons go.
    const again = await replanned(async () => {
      const r = await s.client.call("read_ui", { window });
      const replace = r.elements!.find((e) => e.role === "AXButton" && e.name === "Replace");
      assert.ok(replace, "the Replace toolbar button is in the map");
      return await s.client.call("act", {
        window,
        version: r.version,
        id: replace.id,
        action: "press",
      });
    });
    assert.equal(again.ok, true, JSON.stringify(again));
    assert.ok(
      await eventually(async () => !(await unnamedButtons(app.pid)).includes("Replace all (F10)")),
      "pyatspi no longer reads the dock's button showing",
    );
    const gone = await eventually(async () => {
      names = (await mapOf(s.client, window)).map((e) => e.name);
      return !names.includes("Replace all (F10)");
    });
    assert.ok(gone, `the hidden dock's button left the map: ${JSON.stringify(names)}`);
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("names are trimmed and offscreen menu items carry no sentinel bounds (mousepad)", async () => {
  const app = await mousepad();
  const s = await session();
  try {
    // What GTK 3 publishes: a padded name, and extents of INT_MIN for a closed menu's item.
    const item = await oracleState(app.pid, "menu item", "Save      ");
    assert.ok(item, 'pyatspi reads a menu item named "Save      "');
    assert.equal(item.extents[0], -2147483648, JSON.stringify(item));
    const window = (await s.client.call("read_ui", { app: app.pid })).window;
    const found = await s.client.call("find", {
      window,
      query: { role: "AXMenuItem", name_contains: "Save" },
      scope: "all",
    });
    const names = found.elements.map((e) => e.name);
    assert.ok(names.includes("Save"), JSON.stringify(names));
    const exact = await s.client.call("find", {
      window,
      query: { role: "AXMenuItem", name: "Save" },
      scope: "all",
    });
    assert.equal(exact.elements.length, 1, "find by the trimmed name finds the item");
    for (const e of found.elements) {
      assert.equal(e.name, e.name.trim(), `"${e.name}" is trimmed`);
      const { x, y, w, h } = e.bounds;
      assert.ok(
        [x, y, w, h].every((v) => Math.abs(v) < 1_000_000),
        `${e.name}: bounds ${JSON.stringify(e.bounds)}`,
      );
    }
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("a wide Qt table's map holds the columns on screen; find does not call them offscreen", async () => {
  const title = "Truths Qt table";
  const app = await zooApp("truths_qt_table.py", title);
  const s = await session();
  try {
    const on = ["Title 1", "Username 1", "URL 1"];
    for (const name of on) {
      const cell = await oracleState(app.pid, "table cell", name, 0, true);
      assert.ok(
        cell?.states.includes("showing"),
        `pyatspi: ${name} shows: ${JSON.stringify(cell)}`,
      );
    }
    const r = await s.client.call("read_ui", { app: app.pid });
    const table = r.elements!.find((e) => e.table !== undefined);
    assert.ok(table, "the table is read by its visible range");
    assert.equal(table.table!.first_column, 0, JSON.stringify(table.table));
    const names = r.elements!.map((e) => e.name);
    for (const name of on) assert.ok(names.includes(name), `${name} in ${JSON.stringify(names)}`);
    const found = await s.client.call("find", {
      window: r.window,
      query: { name: "Username 1" },
      scope: "all",
    });
    assert.ok(found.elements.length > 0, "find answers Username 1");
    for (const e of found.elements) {
      assert.notEqual(e.offscreen, true, `on screen, not offscreen: ${JSON.stringify(e)}`);
    }
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("a Writer document's paragraphs carry their text in the map", async () => {
  const files: string[] = [];
  const words = ["Alpha paragraph of the truths.", "Beta paragraph follows it."];
  const app = await onDocument(
    files,
    textDocument(words),
    ".fodt",
    (doc) => libreoffice(doc, "LibreOffice Writer"),
  );
  const s = await session();
  try {
    // The document manages its descendants: its paragraphs are asked for by index.
    const texts = await Promise.all(
      [0, 1].map(async (nth) => (await oracleState(app.pid, "paragraph", "", nth, true))?.text),
    );
    assert.deepEqual(texts, words, "pyatspi reads both paragraphs");
    let shown: string[] = [];
    const ok = await eventually(async () => {
      const r = await s.client.call("read_ui", { app: app.pid });
      shown = r.elements!.flatMap((e) => [e.name, e.value ?? ""]);
      return words.every((w) => shown.includes(w));
    }, 15_000);
    assert.ok(
      ok,
      `the map holds both paragraphs: ${JSON.stringify(shown.filter((t) => t).slice(-40))}`,
    );
  } finally {
    await s.close();
    await app.stop();
    for (const f of files) await Deno.remove(f).catch(() => {});
  }
});

Deno.test("GTK 4: flipping a stack's page patches the map to the page now shown", async () => {
  const app = await zooApp("truths_gtk4.py", "Truths GTK 4");
  const s = await session();
  try {
    const first = await s.client.call("read_ui", { app: app.pid });
    const window = first.window;
    const acted = await replanned(async () => {
      const r = await s.client.call("read_ui", { window });
      const flip = r.elements!.find((e) => e.role === "AXButton" && e.name === "Flip Page");
      assert.ok(flip, "Flip Page is in the map");
      return await s.client.call("act", {
        window,
        version: r.version,
        id: flip.id,
        action: "press",
      });
    });
    assert.equal(acted.ok, true, JSON.stringify(acted));
    await app.said((l) => l === "page: hidden");
    let names: string[] = [];
    const ok = await eventually(async () => {
      names = (await mapOf(s.client, window)).map((e) => e.name);
      return names.includes("Could Not Open File") && !names.includes("Page shown");
    });
    assert.ok(ok, `the map shows the other page alone: ${JSON.stringify(names)}`);
  } finally {
    await s.close();
    await app.stop();
  }
});
