/**
 * Every action family on every toolkit that has the widget (issue 20): check and uncheck
 * (check boxes, radio buttons, switches, toggle buttons), select (list rows, tabs),
 * expand and collapse (disclosures, tree rows), show_menu, focus, and press through a menu
 * into a modal dialog. Each effect is read by pyatspi in its own process, never taken
 * from the driver's answer; a repeated `check` must be answered `already` and change
 * nothing.
 */
import assert from "node:assert/strict";
import type { ActionName, Element } from "../protocol/element.ts";
import type { ActResult } from "../protocol/results.ts";
import type { z } from "zod";
import * as apps from "./support/apps.ts";
import { type App, requireDesktop } from "./support/apps.ts";
import { withApp } from "./support/client.ts";
import {
  onDatabase,
  onDocument,
  onWidgetPage,
  textDocument,
  WIDGETS_TITLE,
} from "./support/documents.ts";
import { oraclePopup, oracleState } from "./support/oracle.ts";
import type { DriverClient } from "../rpc/client.ts";
import { DriverError } from "../protocol/errors.ts";

requireDesktop();

/** An element of the map: its role, its name, and which of that pair (document order). */
interface Target {
  role: string;
  name: string;
  nth?: number;
}

/**
 * The same node as pyatspi names it: its role names (`a|b`), name, and which; `deep` to
 * look inside lists that manage their descendants.
 */
interface Seen {
  role: string;
  name: string;
  nth?: number;
  deep?: boolean;
}

/** The element `t` names in `elements`. */
function pick(elements: readonly Element[], t: Target): Element {
  const el = elements.filter((e) => e.role === t.role && e.name === t.name)[t.nth ?? 0];
  if (el) return el;
  const near = elements.filter((e) => e.name === t.name).map((e) => e.role);
  throw new Error(`No ${t.role} "${t.name}" #${t.nth ?? 0} (by that name: ${near})`);
}

/** Is `e` below the element `ancestor` (an id) in `elements`? */
function within(elements: readonly Element[], e: Element, ancestor: string): boolean {
  for (let up = e.parent; up !== undefined; up = elements.find((p) => p.id === up)?.parent) {
    if (up === ancestor) return true;
  }
  return false;
}

/** A driver session on one app's window. */
class Driving {
  constructor(readonly client: DriverClient, readonly app: App, public window: string) {}

  async element(t: Target): Promise<{ el: Element; version: number }> {
    const r = await this.client.call("read_ui", { window: this.window });
    return { el: pick(r.elements!, t), version: r.version };
  }

  async act(t: Target, action: ActionName): Promise<z.infer<typeof ActResult>> {
    const { el, version } = await this.element(t);
    assert.ok(el.actions.includes(action), `${t.name} offers ${action}: ${el.actions}`);
    const act = (id: string, version: number) =>
      this.client.call("act", { window: this.window, version, id, action });
    return await act(el.id, version).catch((err) => {
      // The page changed between the read and the act: plan again on the map the refusal
      // carries, as an agent does.
      if (!(err instanceof DriverError && err.code === "stale_version")) throw err;
      const { map } = err.data as { map: { version: number; elements: Element[] } };
      return act(pick(map.elements, t).id, map.version);
    });
  }

  /**
   * Finds `name` beyond the map (`scope: "all"`: a closed combo's options), takes the match
   * `which` picks, and selects it.
   */
  async selectFound(
    name: string,
    which: (e: Element) => boolean,
  ): Promise<z.infer<typeof ActResult>> {
    const found = await this.client.call("find", {
      window: this.window,
      query: { name },
      scope: "all",
    });
    const option = found.elements.find(which);
    assert.ok(option, `the combo's option "${name}" is found`);
    assert.ok(option.actions.includes("select"), `"${name}" offers ${option.actions}`);
    return await this.client.call("act", {
      window: this.window,
      version: found.version,
      id: option.id,
      action: "select",
    });
  }
}

async function driving(
  start: (files: string[]) => Promise<App>,
  fn: (d: Driving) => Promise<void>,
): Promise<void> {
  await withApp(start, (client, app, window) => fn(new Driving(client, app, window)));
}

/**
 * Waits (up to 5 s: the app may change the state after answering) until pyatspi reads
 * `state` on the node as `present` says; fails naming what it read.
 */
async function expectState(
  pid: number,
  node: Seen,
  state: string,
  present = true,
): Promise<void> {
  const until = Date.now() + 5_000;
  const read = () => oracleState(pid, node.role, node.name, node.nth, node.deep);
  let seen = await read();
  while (seen?.states.includes(state) !== present && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    seen = await read();
  }
  assert.equal(
    seen?.states.includes(state),
    present,
    `pyatspi: ${node.role} "${node.name}" ${present ? "has" : "lacks"} ${state}: ${
      JSON.stringify(seen?.states)
    }`,
  );
}

/** Acts and expects a done action: ok, and `already` only when nothing was to be done. */
async function done(d: Driving, t: Target, action: ActionName, already = false): Promise<void> {
  const r = await d.act(t, action);
  assert.equal(r.ok, true, `${action} "${t.name}": ${JSON.stringify(r.value)}`);
  assert.equal(r.already === true, already, `${action} "${t.name}" already: ${r.already}`);
  if (already) assert.equal(r.effect, "none");
}

/**
 * A collapsed tree row `t` (pyatspi's `seen`) expanded, expanded again (`already`) and
 * collapsed, each checked by pyatspi.
 */
async function expandThenCollapse(d: Driving, t: Target, seen: Seen): Promise<void> {
  await expectState(d.app.pid, seen, "expanded", false);
  await done(d, t, "expand");
  await expectState(d.app.pid, seen, "expanded");
  await done(d, t, "expand", true);
  await done(d, t, "collapse");
  await expectState(d.app.pid, seen, "expanded", false);
}

interface Browser {
  name: string;
  start(files: string[]): Promise<App>;
  /** pyatspi's role for a `<summary>`: Gecko a push button, Chromium a toggle button. */
  summary: string;
  /**
   * Whether pyatspi sees the "Color" drop-down open. Chromium's combo says it is expanded;
   * Firefox opens the list in its own process, as a menu named after the option shown,
   * and the page's combo never says so (the driver does not read it back there).
   */
  dropdownOpen(pid: number): Promise<boolean>;
}

const showing = (seen: { states: string[] } | null) => seen?.states.includes("showing") ?? false;

const BROWSERS: Browser[] = [
  {
    name: "Firefox",
    start: (files) => onWidgetPage(files, (page) => apps.firefox(page, WIDGETS_TITLE)),
    summary: "push button",
    dropdownOpen: async (pid) => showing(await oracleState(pid, "menu", "Red")),
  },
  {
    name: "Chromium",
    start: (files) => onWidgetPage(files, (page) => apps.chromium(page, WIDGETS_TITLE, "Notes")),
    summary: "toggle button",
    dropdownOpen: async (pid) =>
      (await oracleState(pid, "combo box", "Color"))?.states.includes("expanded") ?? false,
  },
];

for (const b of BROWSERS) {
  Deno.test(`${b.name}: check, select, expand, show_menu and focus, each read back by pyatspi`, async () => {
    await driving(b.start, async (d) => {
      const pid = d.app.pid;
      const agree = { role: "AXCheckBox", name: "Agree" };
      await done(d, agree, "check");
      await expectState(pid, { role: "check box", name: "Agree" }, "checked");
      await done(d, agree, "check", true);
      await expectState(pid, { role: "check box", name: "Agree" }, "checked");
      await done(d, agree, "uncheck");
      await expectState(pid, { role: "check box", name: "Agree" }, "checked", false);

      await done(d, { role: "AXRadioButton", name: "Small" }, "check");
      await expectState(pid, { role: "radio button", name: "Small" }, "checked");
      await expectState(pid, { role: "radio button", name: "Large" }, "checked", false);

      await done(d, { role: "AXRow", name: "Banana" }, "select");
      await expectState(pid, { role: "list item", name: "Banana" }, "selected");

      const more = { role: await roleOf(d, "More options", "expand"), name: "More options" };
      const summary = { role: b.summary, name: "More options" };
      await done(d, more, "expand");
      await expectState(pid, summary, "expanded");
      await done(d, more, "collapse");
      await expectState(pid, summary, "expanded", false);

      // ARIA tabs: the page keeps aria-selected; the tab list's Selection alone is not enough.
      await done(d, { role: "AXRadioButton", name: "Second tab" }, "select");
      await expectState(pid, { role: "page tab", name: "Second tab" }, "selected");
      await expectState(pid, { role: "page tab", name: "First tab" }, "selected", false);

      // A toggle button (aria-pressed) is checked and unchecked like a box.
      await done(d, { role: "AXCheckBox", name: "Bold" }, "check");
      await expectState(pid, { role: "toggle button", name: "Bold" }, "pressed");

      const menu = await d.act({ role: "AXButton", name: "Menu here" }, "show_menu");
      assert.equal(menu.ok, true);
      await eventuallyText(pid, "Menu asked");

      await done(d, { role: "AXTextField", name: "Notes" }, "focus");
      await expectState(pid, { role: "entry", name: "Notes" }, "focused");

      // Words the page made clickable without an element of their own: clicked by words.
      const found = await d.client.call("find", {
        window: d.window,
        query: { text_contains: "Jade" },
      });
      const holder = found.elements.at(-1);
      assert.ok(holder, "the stones paragraph is found by its text");
      const missing = await d.client.call("act", {
        window: d.window,
        version: found.version,
        id: holder.id,
        action: "click",
        value: "Ruby",
      });
      assert.equal(missing.ok, false, "words the element lacks are not clicked");
      assert.ok(missing.value?.includes("Jade"), `answers the text: ${missing.value}`);
      const clicked = await d.client.call("act", {
        window: d.window,
        version: missing.version, // The map as the last answer left it.
        id: holder.id,
        action: "click",
        value: "Jade",
      });
      assert.equal(
        clicked.ok,
        true,
        `click "Jade": ${clicked.value} (${holder.role} ${JSON.stringify(holder.bounds)})`,
      );
      assert.equal(clicked.via, "pixel");
      await eventuallyText(pid, "Picked Jade");

      // A drop-down's menu is its list of options.
      assert.equal(await b.dropdownOpen(pid), false, "the drop-down is closed at first");
      await done(d, { role: "AXPopUpButton", name: "Color" }, "show_menu");
      await eventually(() => b.dropdownOpen(pid), true);
      await d.client.call("pixel_key", { keys: "Escape" });
      await eventually(() => b.dropdownOpen(pid), false);
    });
  });
}

/** The role the map gives the element named `name` that offers `action`. */
async function roleOf(d: Driving, name: string, action: ActionName): Promise<string> {
  const r = await d.client.call("read_ui", { window: d.window });
  const el = r.elements!.find((e) => e.name === name && e.actions.includes(action));
  if (!el) throw new Error(`No element "${name}" offers ${action}`);
  return el.role;
}

/** Waits (up to 5 s) until `read` answers `want`; fails with what it last answered. */
async function eventually<T>(read: () => Promise<T>, want: T): Promise<void> {
  const until = Date.now() + 5_000;
  let seen = await read();
  while (JSON.stringify(seen) !== JSON.stringify(want) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    seen = await read();
  }
  assert.deepEqual(seen, want);
}

/** Waits until pyatspi reads `text` in the page's "said" paragraph. */
async function eventuallyText(pid: number, text: string): Promise<void> {
  const until = Date.now() + 5_000;
  let seen = await oracleState(pid, "paragraph", "");
  while (seen?.text !== text && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    seen = await oracleState(pid, "paragraph", "");
  }
  assert.equal(seen?.text, text);
}

Deno.test("GTK 3: check boxes, notebook tabs, a stack switcher and an expander", async () => {
  await driving(() => apps.widgetFactory(), async (d) => {
    const pid = d.app.pid;
    // Page 1 has three disabled check boxes (mixed, unchecked, checked), then the same enabled.
    const box = { role: "AXCheckBox", name: "checkbutton", nth: 4 };
    const seen = { role: "check box", name: "checkbutton", nth: 4 };
    await done(d, box, "check");
    await expectState(pid, seen, "checked");
    await done(d, box, "check", true);
    await done(d, box, "uncheck");
    await expectState(pid, seen, "checked", false);
    // A mixed box is neither checked nor unchecked. The widget factory keeps this one
    // mixed when clicked: the answer must say what pyatspi then reads.
    const mixed = await d.act({ ...box, nth: 3 }, "check");
    const after = (await oracleState(pid, seen.role, seen.name, 3))!.states;
    const shows = after.includes("indeterminate")
      ? "mixed"
      : after.includes("checked")
      ? "checked"
      : "unchecked";
    assert.equal(mixed.ok, shows === "checked", `answered ${mixed.value}, pyatspi reads ${shows}`);
    if (!mixed.ok) assert.equal(mixed.value, shows);
    // A disabled box offers nothing but to be scrolled to; asked anyway, it is refused,
    // nothing is sent to it, and the refusal says why.
    const { el: off, version } = await d.element({ ...box, nth: 1 });
    assert.deepEqual(off.actions.filter((a) => a !== "scroll_into_view"), []);
    await assert.rejects(
      () => d.client.call("act", { window: d.window, version, id: off.id, action: "check" }),
      (err: unknown) =>
        err instanceof DriverError && err.code === "action_not_supported" &&
        /it is disabled/.test(err.message),
    );
    await expectState(pid, { ...seen, nth: 1 }, "checked", false);

    await done(d, { role: "AXRadioButton", name: "page 2" }, "select");
    await expectState(pid, { role: "page tab", name: "page 2" }, "selected");
    await expectState(pid, { role: "page tab", name: "page 1" }, "selected", false);

    // The stack switcher's buttons are radio buttons: checking one shows its page.
    await done(d, { role: "AXRadioButton", name: "Page 2" }, "check");
    await expectState(pid, { role: "radio button", name: "Page 2" }, "checked");
    const expander = { role: "AXCheckBox", name: "Expander" };
    await done(d, expander, "collapse");
    await expectState(pid, { role: "toggle button", name: "Expander" }, "expanded", false);
    await done(d, expander, "collapse", true);
    await done(d, expander, "expand");
    await expectState(pid, { role: "toggle button", name: "Expander" }, "expanded");
  });
});

Deno.test("GTK 3: a tree view's rows are selected without the pointer; a button takes the focus", async () => {
  await driving(() => apps.widgetFactory(), async (d) => {
    const pid = d.app.pid;
    // A tree view of several columns refuses SelectChild; its Table selects the row.
    const cell = (name: string) => ({ role: "table cell", name, deep: true });
    for (const name of ["Andrea", "Otto"]) {
      const r = await d.act({ role: "AXCell", name }, "select");
      assert.equal(r.ok, true, `select "${name}": ${JSON.stringify(r.value)}`);
      assert.equal(r.via, "action", `"${name}" selected through the tree view, not a click`);
      await expectState(pid, cell(name), "selected");
    }
    await expectState(pid, cell("Andrea"), "selected", false);
    await done(d, { role: "AXButton", name: "link button" }, "focus");
    await expectState(pid, { role: "push button", name: "link button" }, "focused");
  });
});

Deno.test("GTK 3: a combo box's menu shows, and its option is selected", async () => {
  await driving(() => apps.widgetFactory(), async (d) => {
    const pid = d.app.pid;
    // Three combos named by the option each shows: "Left", "Middle" and "Right".
    const combo = { role: "AXPopUpButton", name: "Left" };
    assert.deepEqual(await oraclePopup(pid, "Left"), [], "the menu is closed at first");
    await done(d, combo, "show_menu");
    await eventually(() => oraclePopup(pid, "Left"), ["Left", "Middle", "Right"]);
    await done(d, combo, "show_menu", true);
    // The combo's own option, beyond the map while the menu was closed; GTK 3's menu
    // takes a selection as a highlight, so the combo must show the option.
    const picked = await d.selectFound("Right", (e) => e.role === "AXMenuItem");
    assert.equal(picked.ok, true, `select "Right": ${picked.value}`);
    assert.equal(await oracleState(pid, "combo box", "Left"), null, "pyatspi: no combo shows Left");
    assert.ok(await oracleState(pid, "combo box", "Right", 1), "pyatspi: two combos show Right");
  });
});

Deno.test("GTK 4: tree rows collapse and expand, a tab is selected, focus is neither offered nor done", async () => {
  await driving(() => apps.gtk4Demo(), async (d) => {
    const row = { role: "AXGroup", name: "Benchmark" };
    await done(d, row, "collapse");
    await expectState(d.app.pid, { role: "panel", name: "Benchmark" }, "expanded", false);
    await done(d, row, "expand");
    await expectState(d.app.pid, { role: "panel", name: "Benchmark" }, "expanded");
    // The source pane's second tab ("Info" is the first's, both are named "Tab").
    await done(d, { role: "AXRadioButton", name: "Tab", nth: 1 }, "select");
    await expectState(d.app.pid, { role: "page tab", name: "Tab", nth: 1 }, "selected");
    await expectState(d.app.pid, { role: "page tab", name: "Tab", nth: 0 }, "selected", false);
    // GTK 4 takes no focus request, and a click would press the row: focus is not offered,
    // and asked anyway, refused with a structured error.
    const { el, version } = await d.element(row);
    assert.ok(!el.actions.includes("focus"), `the row offers ${el.actions}`);
    const err = await d.client.call("act", {
      window: d.window,
      version,
      id: el.id,
      action: "focus",
    })
      .catch((e) => e);
    assert.ok(err instanceof DriverError, `focus answered ${JSON.stringify(err)}`);
    assert.equal(err.code, "action_not_supported");
  });
});

Deno.test("Qt: a menu opens a modal dialog by press, whose boxes, combo and tabs then act", async () => {
  await driving(() => apps.featherpad(), async (d) => {
    const pid = d.app.pid;
    await done(d, { role: "AXMenuItem", name: "Options" }, "press");
    // Qt answers DoAction only when the dialog it opened closes: the press must not wait.
    const pref = await d.act({ role: "AXMenuItem", name: "Preferences" }, "press");
    assert.equal(pref.ok, true);
    await apps.waitForWindow("Preferences");
    d.window = (await d.client.call("read_ui", { app: pid })).window;
    const box = { role: "AXCheckBox", name: "Start with side-pane mode" };
    const seen = { role: "check box", name: "Start with side-pane mode" };
    await done(d, box, "check");
    await expectState(pid, seen, "checked");
    await done(d, box, "check", true);
    await done(d, box, "uncheck");
    await expectState(pid, seen, "checked", false);
    await done(d, { role: "AXCheckBox", name: "Tab navigation wraps around" }, "focus");
    await expectState(pid, { role: "check box", name: "Tab navigation wraps around" }, "focused");
    // A closed combo's options are beyond the map: found with scope "all". Qt's list takes
    // a selection it never commits; the combo must show the option.
    const picked = await d.selectFound("South", (e) => e.actions.includes("select"));
    assert.equal(picked.ok, true, `select "South": ${picked.value}`);
    assert.ok(await oracleState(pid, "combo box", "South"), "pyatspi: the combo shows South");
    // Qt's combo names no popup, but its list is its menu; pyatspi sees the list open.
    assert.deepEqual(await oraclePopup(pid, "South"), [], "the list is closed after the select");
    await done(d, { role: "AXPopUpButton", name: "South" }, "show_menu");
    await eventually(() => oraclePopup(pid, "South"), ["North", "South", "West", "East"]);
    await done(d, { role: "AXPopUpButton", name: "South" }, "show_menu", true);
    // Escape closes the popup, as a user would, before the tab is pressed.
    await d.client.call("pixel_key", { keys: "Escape" });
    await eventually(() => oraclePopup(pid, "South"), []);
    // Qt 5 marks no tab selectable: a tab is pressed, and the effect is the other page.
    await done(d, { role: "AXRadioButton", name: "Text" }, "press");
    await expectState(pid, seen, "showing", false);
  });
});

Deno.test("Qt 5: a tree's rows expand, collapse and are selected", async () => {
  const schema = "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT, city TEXT);" +
    "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER, total REAL);";
  await driving((files) => onDatabase(files, schema, apps.sqlitebrowser), async (d) => {
    const pid = d.app.pid;
    // The Database Structure tab: "Tables (2)" open, each table a collapsed row of columns.
    // The DB Schema dock, hidden behind the Remote dock, has the same tree first: Qt says
    // its cells are showing, so pyatspi's reading of the tab's rows is their second.
    const customers = { role: "AXCell", name: "customers" };
    const seen = { role: "table cell", name: "customers", nth: 1, deep: true };
    await expandThenCollapse(d, customers, seen);
    await done(d, { role: "AXCell", name: "orders" }, "select");
    await expectState(pid, { role: "table cell", name: "orders", nth: 1, deep: true }, "selected");
    await expectState(pid, seen, "selected", false);
  });
});

Deno.test("Qt 6: a tree's rows expand, collapse and are selected; a combo's list shows", async () => {
  await driving(() => apps.designer6(), async (d) => {
    const pid = d.app.pid;
    // The New Form dialog: templates under "templates/forms", a collapsed "Widgets".
    const widgets = { role: "AXCell", name: "Widgets" };
    const seen = { role: "table cell", name: "Widgets", deep: true };
    // Qt names no action that expands a row (its "Toggle" selects): clicked, then Right.
    await expandThenCollapse(d, widgets, seen);
    await done(d, { role: "AXCell", name: "Main Window" }, "select");
    const cell = (name: string) => ({ role: "table cell", name, deep: true });
    await expectState(pid, cell("Main Window"), "selected");
    await expectState(pid, cell("Dialog with Buttons Bottom"), "selected", false);
    // Qt 6 says whether a combo is expanded.
    const size = { role: "AXPopUpButton", name: "Default size" };
    await done(d, size, "show_menu");
    await expectState(pid, { role: "combo box", name: "Default size" }, "expanded");
    await done(d, size, "show_menu", true);
  });
});

Deno.test("LibreOffice: toolbar toggles check and uncheck, alignment moves, a menu and focus", async () => {
  await driving(
    (files) =>
      onDocument(
        files,
        textDocument(["First paragraph"]),
        ".fodt",
        (doc) => apps.libreoffice(doc, "LibreOffice Writer"),
      ),
    async (d) => {
      const pid = d.app.pid;
      const marks = { role: "AXCheckBox", name: "Formatting Marks" };
      const seen = { role: "toggle button", name: "Formatting Marks" };
      await done(d, marks, "check");
      await expectState(pid, seen, "checked");
      await done(d, marks, "check", true);
      await done(d, marks, "uncheck");
      await expectState(pid, seen, "checked", false);
      await done(d, { role: "AXCheckBox", name: "Center" }, "check");
      await expectState(pid, { role: "toggle button", name: "Center" }, "checked");
      await expectState(pid, { role: "toggle button", name: "Left" }, "checked", false);
      // Every toolbar item has a Value (whether it is checked): no `set_value` on a button.
      const save = await d.element({ role: "AXButton", name: "Save" });
      assert.ok(!save.el.actions.includes("set_value"), `Save offers ${save.el.actions}`);
      await done(d, { role: "AXButton", name: "Save" }, "focus");
      await expectState(pid, { role: "push button", name: "Save" }, "focused");
      // LibreOffice says nothing of a menu on its drop-downs: a toolbar combo is a panel
      // around a combo box that never shows, and the unnamed toggle beside it opens its
      // list. The toggle offers show_menu; the answer names the popup, and pyatspi sees it.
      const read = await d.client.call("read_ui", { window: d.window });
      const els = read.elements!;
      const style = pick(els, { role: "AXGroup", name: "Paragraph Style" });
      const toggle = els.find((e) => e.role === "AXCheckBox" && within(els, e, style.id));
      assert.ok(toggle, "the Paragraph Style drop-down has its toggle");
      assert.ok(toggle.actions.includes("show_menu"), `the drop-down offers ${toggle.actions}`);
      const list = await d.client.call("act", {
        window: d.window,
        version: read.version,
        id: toggle.id,
        action: "show_menu",
      });
      assert.equal(list.ok, true, `the list opens: ${list.value}`);
      assert.deepEqual(list.opened?.map((w) => w.role), ["popup"]);
      const popup = () => oracleState(pid, "window", "");
      assert.ok((await popup())?.states.includes("showing"), "pyatspi: the list shows");
      const again = await d.client.call("act", {
        window: d.window,
        version: list.version,
        id: toggle.id,
        action: "show_menu",
      });
      assert.equal(again.already, true, "the list already shows");
      await d.client.call("pixel_key", { keys: "Escape" });
      await eventually(async () => (await popup())?.states.includes("showing") ?? false, false);
      await done(d, { role: "AXMenu", name: "Format" }, "select");
      await expectState(pid, { role: "menu", name: "Format" }, "selected");
      // With its menu open, LibreOffice answers yes to focusing a toolbar button and
      // focuses something else: the answer must say what pyatspi reads.
      const bold = await d.act({ role: "AXCheckBox", name: "Bold" }, "focus");
      const states = (await oracleState(pid, "toggle button", "Bold"))!.states;
      assert.equal(
        bold.ok,
        states.includes("focused"),
        `answered ${bold.value}, pyatspi: ${states}`,
      );
      if (!bold.ok) assert.equal(bold.value, "not focused");
    },
  );
});

Deno.test("LibreOffice: the Navigator's headings collapse and expand, and a heading is selected", async () => {
  await driving(
    (files) =>
      onDocument(
        files,
        textDocument(["First paragraph"], ["Intro", "Method"]),
        ".fodt",
        (doc) => apps.libreoffice(doc, "LibreOffice Writer"),
      ),
    async (d) => {
      const pid = d.app.pid;
      // The sidebar's tab bar: a toolbar of one toggle per deck, named by the deck.
      const r = await d.client.call("read_ui", { window: d.window });
      const bar = r.elements!.findIndex((e) => e.role === "AXToolbar" && e.name === "Navigator");
      const deck = r.elements!.slice(bar).find((e) => e.role === "AXCheckBox");
      assert.ok(bar >= 0 && deck, "the sidebar offers its Navigator deck");
      const opened = await d.client.call("act", {
        window: d.window,
        version: r.version,
        id: deck.id,
        action: "check",
      });
      assert.equal(opened.ok, true, `the Navigator deck opens: ${opened.value}`);
      const headings = { role: "AXCell", name: "Headings" };
      const seen = { role: "table cell", name: "Headings", deep: true };
      // The cursor is in a paragraph: LibreOffice's Navigator expands the category of a
      // heading the cursor is in again each time it is collapsed (seen with pyatspi's own
      // action too), and leaves this one collapsed.
      await expectState(pid, seen, "expanded", false);
      await done(d, headings, "expand");
      await expectState(pid, seen, "expanded");
      await expectState(pid, { role: "table cell", name: "Intro", deep: true }, "showing");
      await done(d, headings, "expand", true);
      await done(d, headings, "collapse");
      await expectState(pid, seen, "expanded", false);
      // GTK's tree view drops a collapsed row's cells: gone or not showing.
      const introShows = async () =>
        (await oracleState(pid, "table cell", "Intro", 0, true))?.states.includes("showing") ??
          false;
      await eventually(introShows, false);
      await done(d, headings, "expand");
      await expectState(pid, seen, "expanded");
      await done(d, { role: "AXCell", name: "Method" }, "select");
      await expectState(pid, { role: "table cell", name: "Method", deep: true }, "selected");
    },
  );
});
