/**
 * The widget zoo's table of cells (one Deno.test per action × widget), the same for every
 * toolkit whose zoo app has the common widget set: each cell acts through the driver and
 * checks the effect by the line the app printed (or pyatspi), never by the answer alone,
 * and leaves the app as it found it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { openedDialog, pressMenuItem } from "./desktop_steps.ts";
import { oracleNodes } from "./oracle.ts";
import type { ZooApp } from "./zoo.ts";
import {
  act,
  element,
  eventually,
  lastSaid,
  mark,
  named,
  notSaid,
  type Pick,
  row,
  saidSince,
  type Zoo,
  zooCells,
} from "./zoo_steps.ts";

const SENTINEL = -2147483648;
const TEXT = /^AXText(Field|Area)$/;

/**
 * Cells a toolkit's zoo does not run, each with why: what the driver cannot yet do there.
 * They are the ✗ cells of docs/linux.md's table, named there with the same reason, and
 * the note lists them as left open. A gap is never a cell that passes.
 */
export type Gaps = Readonly<Record<string, string>>;

/**
 * Cells of one toolkit's own, on the table's app: what the toolkit truly does where a
 * common cell is a gap (GTK 4.8's toggle button, known for one only while on).
 */
export type OwnCells = Readonly<Record<string, (zoo: Zoo) => Promise<void>>>;

/**
 * Registers the zoo cells for `toolkit` ("GTK 3"), whose app `start` brings up; the cells
 * `gaps` names are left out, and the toolkit's `own` cells added.
 */
export function zooTable(
  toolkit: string,
  start: () => Promise<ZooApp>,
  gaps: Gaps = {},
  own: OwnCells = {},
): void {
  const { cell, done } = zooCells(start);
  const t = (name: string, fn: (zoo: Zoo) => Promise<void>) => {
    if (!(name in gaps)) cell(`${toolkit}: ${name}`, fn);
  };

  t("read: names trimmed, no sentinel bounds, Refresh described, Password secure", async (z) => {
    const { elements } = await element(z.client, z.window, named("Name", TEXT));
    for (const e of elements) {
      assert.equal(e.name, e.name.trim(), `name ${JSON.stringify(e.name)} is trimmed`);
      const b = e.bounds;
      assert.ok(
        ![b.x, b.y, b.w, b.h].includes(SENTINEL),
        `${e.role} "${e.name}" bounds ${JSON.stringify(b)}`,
      );
    }
    const password = elements.find((e) => e.name === "Password" && e.role !== "AXStaticText");
    assert.equal(password?.role, "AXSecureTextField");
    // The icon button has no label: its tooltip, as name or description, is its only word.
    const refresh = elements.find((e) =>
      e.role === "AXButton" &&
      (/Refresh/.test(e.name) ||
        /Refresh/.test(String((e as Record<string, unknown>).description ?? "")))
    );
    assert.ok(
      refresh,
      `no button says Refresh: ${
        JSON.stringify(elements.filter((e) => e.role === "AXButton").map((e) => e.name))
      }`,
    );
  });

  t("set_value Name holds the text, typed once, and keeps Name's id", async (z) => {
    const before = (await element(z.client, z.window, named("Name", TEXT))).element.id;
    const from = mark(z.app);
    const set = await act(z.client, z.window, named("Name", TEXT), "set_value", "Zoo name");
    assert.equal(set.ok, true, JSON.stringify(set));
    await saidSince(z.app, from, "name: Zoo name", set);
    notSaid(z.app, from, (l) => l.includes("Zoo nameZoo name"));
    const after = (await element(z.client, z.window, named("Name", TEXT))).element.id;
    assert.equal(after, before, "Name's id is unchanged after set_value");
  });

  t("set_value Name to the text it holds types nothing more", async (z) => {
    await act(z.client, z.window, named("Name", TEXT), "set_value", "Same");
    const from = mark(z.app);
    const set = await act(z.client, z.window, named("Name", TEXT), "set_value", "Same");
    assert.equal(set.ok, true, JSON.stringify(set));
    assert.equal(lastSaid(z.app, from, "name") ?? "name: Same", "name: Same");
  });

  t("type_text Name appends to what it holds", async (z) => {
    await act(z.client, z.window, named("Name", TEXT), "set_value", "Ann");
    const from = mark(z.app);
    const typed = await act(z.client, z.window, named("Name", TEXT), "type_text", " Lee");
    assert.equal(typed.ok, true, JSON.stringify(typed));
    await saidSince(z.app, from, "name: Ann Lee", typed);
  });

  t("set_value Notes holds several lines", async (z) => {
    const from = mark(z.app);
    const set = await act(z.client, z.window, named("Notes", TEXT), "set_value", "one\ntwo");
    assert.equal(set.ok, true, JSON.stringify(set));
    await saidSince(z.app, from, "notes: one\\ntwo", set);
  });

  t("set_value Password answers ok, unverified, and the field holds its length", async (z) => {
    const from = mark(z.app);
    const set = await act(z.client, z.window, named("Password"), "set_value", "s3cret");
    assert.equal(set.ok, true, JSON.stringify(set));
    assert.equal((set as Record<string, unknown>).verified, false, JSON.stringify(set));
    await saidSince(z.app, from, "password: 6", set);
  });

  t("set_value Phone holds the digits", async (z) => {
    const from = mark(z.app);
    const set = await act(z.client, z.window, named("Phone", TEXT), "set_value", "5551234");
    assert.equal(set.ok, true, JSON.stringify(set));
    await saidSince(z.app, from, "phone: 5551234", set);
  });

  t("set_value Count commits the number despite its suffix", async (z) => {
    const from = mark(z.app);
    const set = await act(z.client, z.window, named("Count"), "set_value", "4");
    assert.equal(set.ok, true, JSON.stringify(set));
    await saidSince(z.app, from, "count: 4", set);
  });

  t("set_value City holds a city not in its list", async (z) => {
    const from = mark(z.app);
    const set = await act(z.client, z.window, named("City", TEXT), "set_value", "Lima");
    assert.equal(set.ok, true, JSON.stringify(set));
    await saidSince(z.app, from, "city: Lima", set);
  });

  t("set_value Volume moves the slider", async (z) => {
    const from = mark(z.app);
    const set = await act(z.client, z.window, named("Volume"), "set_value", "30");
    assert.equal(set.ok, true, JSON.stringify(set));
    await saidSince(z.app, from, "volume: 30", set);
  });

  t("select Fruit option Banana makes it the combo's choice", async (z) => {
    const from = mark(z.app);
    try {
      const chosen = await selectOption(z, "Fruit", "Banana");
      assert.equal(chosen.ok, true, JSON.stringify(chosen));
      await saidSince(z.app, from, "fruit: Banana", chosen);
      await menuClosed(z, from, "fruit menu");
      await selectOption(z, "Fruit", "Apple");
      await saidSince(z.app, from, "fruit: Apple");
    } finally {
      await menuClosed(z, from, "fruit menu");
    }
  });

  t("show_menu Fruit shows its options", async (z) => {
    const from = mark(z.app);
    try {
      const combo = named("Fruit", /^AX(ComboBox|PopUpButton)$/);
      const shown = await act(z.client, z.window, combo, "show_menu");
      // The app's word first: whether the list showed, whatever the answer says.
      const saw = await saidSince(z.app, from, "fruit menu: shown", shown).catch((e) => e);
      assert.equal(shown.ok, true, `the app said ${JSON.stringify(saw)}; ${JSON.stringify(shown)}`);
      if (saw instanceof Error) throw saw;
    } finally {
      await menuClosed(z, from, "fruit menu");
    }
  });

  t("select Colors row replaces the selection and does not activate", async (z) => {
    await act(z.client, z.window, row("Green", "Colors"), "select");
    const from = mark(z.app);
    const chosen = await act(z.client, z.window, row("Blue", "Colors"), "select");
    assert.equal(chosen.ok, true, JSON.stringify(chosen));
    await saidSince(z.app, from, "colors: Blue", chosen);
    notSaid(z.app, from, (l) => l.startsWith("colors activated"));
  });

  t("show_menu Colors opens its context menu, whose item clears the colors", async (z) => {
    await act(z.client, z.window, row("Red", "Colors"), "select");
    const from = mark(z.app);
    try {
      const shown = await act(z.client, z.window, named("Colors"), "show_menu");
      assert.equal(shown.ok, true, JSON.stringify(shown));
      await saidSince(z.app, from, "colors menu: shown", shown);
      // The menu is a window of its own (the answer's `opened`), else part of the list's.
      const windows = [...(shown.opened ?? []).map((w) => w.window), z.window];
      for (const window of windows) {
        const found = await z.client.call("find", {
          window,
          query: { role: "AXMenuItem", name: "Clear colors" },
          scope: "all",
        });
        const item = found.elements[0];
        if (!item) continue;
        const version = found.version;
        await z.client.call("act", { window, version, id: item.id, action: "press" });
        break;
      }
      await saidSince(z.app, from, "menu: Clear colors", shown);
    } finally {
      await menuClosed(z, from, "colors menu");
    }
  });

  t("select Tags rows with extend adds to the selection", async (z) => {
    await act(z.client, z.window, row("alpha", "Tags"), "select");
    const from = mark(z.app);
    const added = await act(z.client, z.window, row("gamma", "Tags"), "select", undefined, {
      extend: true,
    });
    assert.equal(added.ok, true, JSON.stringify(added));
    await saidSince(z.app, from, "tags: alpha,gamma", added);
    const replaced = await act(z.client, z.window, row("beta", "Tags"), "select");
    assert.equal(replaced.ok, true, JSON.stringify(replaced));
    await saidSince(z.app, from, "tags: beta", replaced);
  });

  t("select People row selects that person", async (z) => {
    const from = mark(z.app);
    const chosen = await act(z.client, z.window, row("Bob", "People"), "select");
    assert.equal(chosen.ok, true, JSON.stringify(chosen));
    await saidSince(z.app, from, "people selected: Bob", chosen);
  });

  t("select Places row selects that place", async (z) => {
    const from = mark(z.app);
    const chosen = await act(z.client, z.window, row("Asia", "Places"), "select");
    assert.equal(chosen.ok, true, JSON.stringify(chosen));
    await saidSince(z.app, from, "places selected: Asia", chosen);
  });

  t("expand and collapse Places row Europe", async (z) => {
    // The row, or the part of it that expands (GTK 4's tree expander inside the row).
    const europe: Pick = (e, all) =>
      (e.actions.includes("expand") || e.actions.includes("collapse")) &&
      (row("Europe", "Places")(e, all) || e.name.trim() === "Europe");
    const from = mark(z.app);
    const opened = await act(z.client, z.window, europe, "expand");
    assert.equal(opened.ok, true, JSON.stringify(opened));
    await saidSince(z.app, from, "places expanded: Europe", opened);
    const shut = await act(z.client, z.window, europe, "collapse");
    assert.equal(shut.ok, true, JSON.stringify(shut));
    await saidSince(z.app, from, "places collapsed: Europe", shut);
  });

  t("press icon-only Refresh", async (z) => {
    const from = mark(z.app);
    const pressed = await act(z.client, z.window, refreshButton, "press");
    assert.equal(pressed.ok, true, JSON.stringify(pressed));
    await saidSince(z.app, from, "refresh: clicked", pressed);
  });

  t("check and uncheck Agree", async (z) => {
    const from = mark(z.app);
    const on = await act(z.client, z.window, named("Agree"), "check");
    assert.equal(on.ok, true, JSON.stringify(on));
    await saidSince(z.app, from, "agree: on", on);
    const off = await act(z.client, z.window, named("Agree"), "uncheck");
    assert.equal(off.ok, true, JSON.stringify(off));
    await saidSince(z.app, from, "agree: off", off);
  });

  t("check and uncheck toggle button Bold", async (z) => {
    const from = mark(z.app);
    const on = await act(z.client, z.window, named("Bold"), "check");
    assert.equal(on.ok, true, JSON.stringify(on));
    await saidSince(z.app, from, "bold: on", on);
    const off = await act(z.client, z.window, named("Bold"), "uncheck");
    assert.equal(off.ok, true, JSON.stringify(off));
    await saidSince(z.app, from, "bold: off", off);
  });

  t("check radio Large", async (z) => {
    const from = mark(z.app);
    const large = await act(z.client, z.window, named("Large"), "check");
    assert.equal(large.ok, true, JSON.stringify(large));
    await saidSince(z.app, from, "size: Large", large);
    await act(z.client, z.window, named("Small"), "check");
    await saidSince(z.app, from, "size: Small");
  });

  t("select tab Advanced", async (z) => {
    const from = mark(z.app);
    const tab = await act(z.client, z.window, row("Advanced"), "select");
    assert.equal(tab.ok, true, JSON.stringify(tab));
    await saidSince(z.app, from, "tab: Advanced", tab);
    await act(z.client, z.window, row("General"), "select");
    await saidSince(z.app, from, "tab: General");
  });

  t("menu File → Say hello", async (z) => {
    const from = mark(z.app);
    const pressed = await pressMenuItem(z.client, z.window, "File", "Say hello");
    assert.equal(pressed.ok, true, JSON.stringify(pressed));
    await saidSince(z.app, from, "menu: Say hello", pressed);
  });

  t("press Open modal: the dialog opens, takes its Answer, and OK closes it", async (z) => {
    const from = mark(z.app);
    const dialog = openedDialog(
      await act(z.client, z.window, named("Open modal"), "press"),
      /^Zoo dialog$/,
    );
    await saidSince(z.app, from, "dialog: shown");
    const list = await z.client.call("list_apps");
    const listed = list.apps.find((a) => a.pid === z.app.pid)?.windows.find((w) =>
      w.window === dialog
    );
    assert.equal(
      (listed as Record<string, unknown> | undefined)?.parent,
      z.window,
      JSON.stringify(listed),
    );
    const set = await act(z.client, dialog, named("Answer", TEXT), "set_value", "42");
    assert.equal(set.ok, true, JSON.stringify(set));
    const ok = await act(
      z.client,
      dialog,
      (e) => e.role === "AXButton" && e.name.split(" ")[0] === "OK",
      "press",
    );
    assert.equal(ok.closed, true, JSON.stringify(ok));
    await saidSince(z.app, from, "dialog: ok 42", ok);
  });

  t("menu File → Open dialog…: the dialog opens and Cancel closes it", async (z) => {
    const from = mark(z.app);
    const dialog = openedDialog(
      await pressMenuItem(z.client, z.window, "File", "Open dialog"),
      /^Zoo dialog$/,
    );
    await saidSince(z.app, from, "dialog: shown");
    const cancel = await act(
      z.client,
      dialog,
      (e) => e.role === "AXButton" && e.name.split(" ")[0] === "Cancel",
      "press",
    );
    assert.equal(cancel.closed, true, JSON.stringify(cancel));
    await saidSince(z.app, from, "dialog: cancel", cancel);
  });

  t("press Open palette: the palette opens and Close palette closes it", async (z) => {
    const from = mark(z.app);
    const opened = await act(z.client, z.window, named("Open palette"), "press");
    assert.equal(opened.ok, true, JSON.stringify(opened));
    await saidSince(z.app, from, "palette: shown", opened);
    const palette = opened.opened?.find((w) => w.title === "Zoo palette");
    assert.ok(palette, `opened: ${JSON.stringify(opened.opened)}`);
    const closed = await act(z.client, palette.window, named("Close palette"), "press");
    assert.equal(closed.closed, true, JSON.stringify(closed));
    await saidSince(z.app, from, "palette: closed", closed);
  });

  t("ids: Colors row Blue keeps its id across selections", async (z) => {
    const before = (await element(z.client, z.window, row("Blue", "Colors"))).element.id;
    await act(z.client, z.window, row("Cyan", "Colors"), "select");
    await act(z.client, z.window, row("Blue", "Colors"), "select");
    const after = (await element(z.client, z.window, row("Blue", "Colors"))).element.id;
    assert.equal(after, before);
  });

  t("ids: People row Bob keeps its id when Add person inserts a row before it", async (z) => {
    const before = (await element(z.client, z.window, row("Bob", "People"))).element.id;
    const from = mark(z.app);
    const added = await act(z.client, z.window, named("Add person"), "press");
    assert.equal(added.ok, true, JSON.stringify(added));
    await saidSince(z.app, from, "people: Dee,Ann,Bob,Cid", added);
    const after = (await element(z.client, z.window, row("Bob", "People"))).element.id;
    await act(z.client, z.window, named("Remove person"), "press");
    await saidSince(z.app, from, "people: Ann,Bob,Cid");
    assert.equal(after, before);
  });

  for (const [name, fn] of Object.entries(own)) cell(`${toolkit}: ${name}`, fn);

  t("the app still answers pyatspi after the cells", async (z) => {
    const windows = await oracleNodes(z.app.pid, 20, 0);
    assert.ok(windows.length > 0, "pyatspi lists the app's windows");
  });

  done(`${toolkit}: the zoo app and the driver stop`);
}

/**
 * Selects option `name` of combo `combo`, found as an agent finds a closed combo's option:
 * by name in the window's whole tree (its list is not showing), then acted on by that id.
 */
async function selectOption(z: Zoo, combo: string, name: string) {
  const search = () => z.client.call("find", { window: z.window, query: { name }, scope: "all" });
  let found = await search();
  if (!found.elements.some((e) => e.role !== "AXStaticText")) {
    // GTK 4's drop-down builds its list only when shown: an agent opens it first.
    await act(z.client, z.window, named(combo, /^AX(ComboBox|PopUpButton)$/), "show_menu");
    found = await search();
  }
  // An option the map shows (the open list's row) is taken from the map; else from `find`.
  const read = await z.client.call("read_ui", { window: z.window });
  const shown = read.elements!.find((e) =>
    e.role !== "AXStaticText" && row(name)(e, read.elements!)
  );
  const option = shown ?? found.elements.find((e) => e.role !== "AXStaticText");
  assert.ok(option, `${combo}'s option ${name} is found: ${JSON.stringify(found.elements)}`);
  return await z.client.call("act", {
    window: z.window,
    version: shown ? read.version : found.version,
    id: option.id,
    action: "select",
  });
}

/** Leaves no menu `key` open: when the app last said it showed, Escape closes it. */
async function menuClosed(z: Zoo, from: number, key: string): Promise<void> {
  if (lastSaid(z.app, from, key) !== `${key}: shown`) return;
  await z.client.call("pixel_key", { keys: "Escape" });
  const hidden = () => Promise.resolve(lastSaid(z.app, from, key) === `${key}: hidden`);
  assert.ok(await eventually(hidden), `Escape closed the ${key}`);
}

/** The icon-only button that says Refresh by name or description. */
function refreshButton(e: { role: string; name: string }): boolean {
  return e.role === "AXButton" &&
    (/Refresh/.test(e.name) ||
      /Refresh/.test(String((e as Record<string, unknown>).description ?? "")));
}
