/**
 * The widget zoo on Qt 5 and Qt 6 (tests/support/zoo/qt_zoo.py, one script for both): one
 * test per (action × widget) cell, each acting as an agent would (read, pick by name, act)
 * and checking the effect by the line the app printed from its own signal handler, never
 * by the driver's answer alone. One app and one driver per Qt version, started by the first
 * cell that needs them and stopped by the last test; each cell leaves what it touched as it
 * found it (or in a state the next cell does not depend on).
 */
import assert from "node:assert/strict";
import type { ActionName, Element } from "../protocol/element.ts";
import type { ResultOf } from "../protocol/ops.ts";
import { requireDesktop } from "./support/apps.ts";
import { type Session, session } from "./support/client.ts";
import { oracleNodes } from "./support/oracle.ts";
import { type Act, pressMenuItem, replanned } from "./support/desktop_steps.ts";
import { type ZooApp, zooApp } from "./support/zoo.ts";

requireDesktop();
const MODE = Deno.env.get("ALLTERNIT_SESSION_WM") ?? "none";

/** One Qt version's zoo app, its driver, and the zoo window's id. */
interface Lab {
  app: ZooApp;
  s: Session;
  window: string;
}

type Pick = (e: Element, all: readonly Element[]) => boolean;
type Action = Exclude<ActionName, "click" | "focus" | "scroll_into_view">;

/** The window's map as the driver reads it now. */
async function read(lab: Lab): Promise<ResultOf<"read_ui">> {
  return await lab.s.client.call("read_ui", { window: lab.window });
}

/** The first element `pick` accepts, or a failure listing what the map holds. */
function pickOne(elements: readonly Element[], pick: Pick): Element {
  const e = elements.find((x) => pick(x, elements));
  assert.ok(e, `no such element in ${JSON.stringify(elements.map((x) => [x.role, x.name]))}`);
  return e;
}

/**
 * The widget labelled `label`: named so, or else the element following the label in the
 * map (Qt names a combo box by the option it shows, not by its label).
 */
const labelled = (label: string): Pick => (e, all) => {
  if (e.name === label && e.role !== "AXStaticText") return true;
  if (all.some((x) => x.name === label && x.role !== "AXStaticText")) return false;
  const at = all.findIndex((x) => x.role === "AXStaticText" && x.name === label);
  return at >= 0 && all[at + 1] === e;
};

/** Row (or cell, or tree item) `name` of the view labelled `view`. */
const rowOf = (view: string, name: string): Pick => (e, all) => {
  const parent = all.find((x) => labelled(view)(x, all));
  return e.name === name && parent !== undefined && e.parent === parent.id;
};

/** Reads, picks and acts; planned again on a stale version, as an agent does. */
function act(
  lab: Lab,
  pick: Pick,
  action: Action,
  more: { value?: string; extend?: boolean; window?: string } = {},
): Promise<Act> {
  return replanned(async () => {
    const window = more.window ?? lab.window;
    const r = await lab.s.client.call("read_ui", { window });
    const e = pickOne(r.elements!, pick);
    return await lab.s.client.call("act", actParams(window, r.version, e.id, action, more));
  });
}

/** `act`'s params, with the optional fields only when given. */
function actParams(
  window: string,
  version: number,
  id: string,
  action: Action,
  more: { value?: string; extend?: boolean },
) {
  return {
    window,
    version,
    id,
    action,
    ...(more.value === undefined ? {} : { value: more.value }),
    ...(more.extend === undefined ? {} : { extend: more.extend }),
  };
}

/** Waits until the app printed `line` at or after line number `mark`. */
async function saidSince(lab: Lab, mark: number, line: string, ms = 8_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!lab.app.lines.slice(mark).includes(line)) {
    if (Date.now() > deadline) {
      assert.fail(`the app never said "${line}"; since the action: ${since(lab, mark)}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The first line starting with `prefix` the app printed at or after line `mark`. */
async function nextLine(lab: Lab, mark: number, prefix: string, ms = 8_000): Promise<string> {
  const deadline = Date.now() + ms;
  while (true) {
    const line = lab.app.lines.slice(mark).find((x) => x.startsWith(prefix));
    if (line !== undefined) return line;
    if (Date.now() > deadline) assert.fail(`no "${prefix}" line; since: ${since(lab, mark)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** What the app printed since line `mark`, for failure messages. */
const since = (lab: Lab, mark: number) => JSON.stringify(lab.app.lines.slice(mark));

/** Runs `action`, then waits for each of `lines` the app must print because of it. */
async function expectLines(lab: Lab, lines: string[], action: () => Promise<Act>): Promise<Act> {
  const mark = lab.app.lines.length;
  const acted = await action();
  for (const line of lines) await saidSince(lab, mark, line);
  return acted;
}

for (const [family, arg] of [["Qt 5", "5"], ["Qt 6", "6"]] as const) {
  let started: Promise<Lab> | undefined;
  const lab = () =>
    started ??= (async () => {
      const app = await zooApp("qt_zoo.py", `${family} zoo`, [arg]);
      const s = await session();
      // A filtered run skips the last test: the app and driver end with the test process.
      globalThis.addEventListener("unload", () => {
        for (const pid of [app.pid, s.proc.ready.pid]) {
          try {
            Deno.kill(pid, "SIGTERM");
          } catch { /* gone */ }
        }
      });
      const window = (await s.client.call("read_ui", { app: app.pid })).window;
      return { app, s, window };
    })();
  const cell = (name: string, fn: (l: Lab) => Promise<void>) =>
    Deno.test({
      name: `${family}: ${name} (window manager: ${MODE})`,
      // The app and driver outlive each test: they are shared by the version's cells.
      sanitizeOps: false,
      sanitizeResources: false,
      fn: async () => await fn(await lab()),
    });

  cell("read has trimmed names and no bounds of -2147483648", async (l) => {
    const r = await read(l);
    const untrimmed = r.elements!.filter((e) => e.name !== e.name.trim());
    assert.deepEqual(untrimmed.map((e) => e.name), [], "names are trimmed");
    const far = r.elements!.filter((e) =>
      Object.values(e.bounds).some((v) => v <= -2147483648 || v >= 2147483647)
    );
    assert.deepEqual(far.map((e) => [e.role, e.name]), [], "no unset bounds");
  });

  cell("read names the icon-only Refresh button by its description", async (l) => {
    const r = await read(l);
    const buttons = r.elements!.filter((e) => e.role === "AXButton");
    assert.ok(
      buttons.some((e) => e.name === "Refresh"),
      `a button carries "Refresh": ${JSON.stringify(buttons.map((e) => e.name))}`,
    );
  });

  cell("read gives the Password field role AXSecureTextField", async (l) => {
    const field = pickOne((await read(l)).elements!, labelled("Password"));
    const oracle = (await oracleNodes(l.app.pid)).find((n) => n.name === "Password");
    assert.equal(field.role, "AXSecureTextField", `pyatspi's role: ${oracle?.role}`);
  });

  cell("set_value Name enters the text once and keeps its id", async (l) => {
    const before = pickOne((await read(l)).elements!, labelled("Name")).id;
    const mark = l.app.lines.length;
    const set = await expectLines(
      l,
      ["name: Hello zoo"],
      () => act(l, labelled("Name"), "set_value", { value: "Hello zoo" }),
    );
    assert.equal(set.ok, true, JSON.stringify(set));
    assert.ok(!since(l, mark).includes("Hello zooHello"), `typed twice: ${since(l, mark)}`);
    const after = pickOne((await read(l)).elements!, labelled("Name")).id;
    assert.equal(after, before, "Name's id is unchanged after set_value");
  });

  cell("type_text Name appends to what it holds", async (l) => {
    await expectLines(
      l,
      ["name: Ada"],
      () => act(l, labelled("Name"), "set_value", { value: "Ada" }),
    );
    const typed = await expectLines(
      l,
      ["name: Ada Lovelace"],
      () => act(l, labelled("Name"), "type_text", { value: " Lovelace" }),
    );
    assert.equal(typed.ok, true, JSON.stringify(typed));
  });

  cell("set_value Notes enters several lines", async (l) => {
    const set = await expectLines(
      l,
      ["notes: first line\\nsecond line"],
      () => act(l, labelled("Notes"), "set_value", { value: "first line\nsecond line" }),
    );
    assert.equal(set.ok, true, JSON.stringify(set));
  });

  cell("set_value Password answers ok, unverified, typed once", async (l) => {
    const mark = l.app.lines.length;
    const set = await expectLines(
      l,
      ["password: 6"],
      () => act(l, labelled("Password"), "set_value", { value: "s3cret" }),
    );
    const lengths = l.app.lines.slice(mark).filter((x) => x.startsWith("password: "));
    assert.equal(lengths.at(-1), "password: 6", `the field ends 6 long: ${since(l, mark)}`);
    assert.ok(!lengths.includes("password: 12"), `typed twice: ${since(l, mark)}`);
    assert.equal(set.ok, true, JSON.stringify(set));
    assert.equal(set.verified, false, JSON.stringify(set));
  });

  cell("set_value Phone fills its input mask", async (l) => {
    const set = await expectLines(
      l,
      ["phone: 555-1234"],
      () => act(l, labelled("Phone"), "set_value", { value: "555-1234" }),
    );
    assert.equal(set.ok, true, JSON.stringify(set));
  });

  cell("set_value Count commits with Enter and reads back past the suffix", async (l) => {
    const mark = l.app.lines.length;
    const set = await expectLines(
      l,
      ["count: 4"],
      () => act(l, labelled("Count"), "set_value", { value: "4" }),
    );
    const counts = l.app.lines.slice(mark).filter((x) => x.startsWith("count: "));
    assert.deepEqual(counts, ["count: 4"], "one commit of 4, never typed twice");
    assert.equal(set.ok, true, JSON.stringify(set));
    // Qt's Value interface sets the number itself; keys need Enter to commit it.
    if (set.via === "keys") assert.equal(set.commit, "enter", JSON.stringify(set));
    await expectLines(
      l,
      ["count: 0"],
      () => act(l, labelled("Count"), "set_value", { value: "0" }),
    );
  });

  cell("set_value City types into the editable combo", async (l) => {
    // The combo's line edit has no name of its own: the label left of it names it.
    const inCity: Pick = (e) => e.role === "AXTextField" && e.name === "City";
    const set = await expectLines(
      l,
      ["city: Lisbon"],
      () => act(l, inCity, "set_value", { value: "Lisbon" }),
    );
    assert.equal(set.ok, true, JSON.stringify(set));
  });

  cell("select Fruit option commits it and keeps the combo's id", async (l) => {
    const before = pickOne((await read(l)).elements!, labelled("Fruit")).id;
    const option = async (name: string) =>
      await replanned(async () => {
        const found = await l.s.client.call("find", {
          window: l.window,
          query: { name },
          scope: "all",
        });
        const target = pickOne(found.elements, (e) => e.name === name && e.role !== "AXStaticText");
        return await l.s.client.call("act", {
          window: l.window,
          version: found.version,
          id: target.id,
          action: "select",
        });
      });
    const picked = await expectLines(l, ["fruit: Banana"], () => option("Banana"));
    assert.equal(picked.ok, true, JSON.stringify(picked));
    const after = pickOne((await read(l)).elements!, labelled("Fruit"));
    assert.equal(after.id, before, "the combo's id is unchanged after its option changed");
    await expectLines(l, ["fruit: Apple"], () => option("Apple"));
  });

  cell("show_menu Fruit shows its list", async (l) => {
    const shown = await expectLines(
      l,
      ["fruit popup: shown"],
      () => act(l, labelled("Fruit"), "show_menu"),
    );
    assert.equal(shown.ok, true, JSON.stringify(shown));
    const mark = l.app.lines.length;
    await l.s.client.call("pixel_key", { keys: "Escape" });
    await saidSince(l, mark, "fruit popup: hidden");
  });

  cell("select Colors row replaces the selection and does not activate", async (l) => {
    const mark = l.app.lines.length;
    await expectLines(l, ["colors: Blue"], () => act(l, rowOf("Colors", "Blue"), "select"));
    const green = await expectLines(
      l,
      ["colors: Green"],
      () => act(l, rowOf("Colors", "Green"), "select"),
    );
    assert.equal(green.ok, true, JSON.stringify(green));
    const activated = l.app.lines.slice(mark).filter((x) => x.startsWith("colors activated"));
    assert.deepEqual(activated, [], "select never activates a row");
  });

  cell("show_menu Colors opens its context menu; Clear colors clears it", async (l) => {
    const shown = await act(l, labelled("Colors"), "show_menu");
    assert.equal(shown.ok, true, JSON.stringify(shown));
    const menu = shown.opened?.[0]?.window ?? l.window;
    const pressed = await expectLines(l, ["menu: Clear colors", "colors: "], async () => {
      const found = await l.s.client.call("find", {
        window: menu,
        query: { name: "Clear colors" },
        scope: "all",
      });
      const item = pickOne(found.elements, (e) => e.name === "Clear colors");
      return await l.s.client.call("act", {
        window: menu,
        version: found.version,
        id: item.id,
        action: "press",
      });
    });
    assert.equal(pressed.ok, true, JSON.stringify(pressed));
  });

  cell("select Tags row replaces the selection", async (l) => {
    await expectLines(l, ["tags: alpha"], () => act(l, rowOf("Tags", "alpha"), "select"));
    const mark = l.app.lines.length;
    await act(l, rowOf("Tags", "gamma"), "select");
    await nextLine(l, mark, "tags: ");
    // The answer came once the app settled: its last word is the selection now.
    const last = l.app.lines.filter((x) => x.startsWith("tags: ")).at(-1);
    assert.equal(last, "tags: gamma", `select replaces: ${since(l, mark)}`);
  });

  cell("select Tags rows with extend adds to the selection", async (l) => {
    await expectLines(l, [], () => act(l, rowOf("Tags", "beta"), "select"));
    const mark = l.app.lines.length;
    const added = await act(l, rowOf("Tags", "delta"), "select", { extend: true });
    assert.equal(added.ok, true, JSON.stringify(added));
    await nextLine(l, mark, "tags: ");
    // Whatever else an earlier cell left selected, both rows are now.
    const last = l.app.lines.filter((x) => x.startsWith("tags: ")).at(-1) ?? "";
    const tags = last.slice("tags: ".length).split(",");
    assert.ok(tags.includes("beta") && tags.includes("delta"), `extend adds: ${last}`);
  });

  cell("select People row", async (l) => {
    const picked = await expectLines(
      l,
      ["people selected: Bob"],
      () => act(l, rowOf("People", "Bob"), "select"),
    );
    assert.equal(picked.ok, true, JSON.stringify(picked));
  });

  cell("read People's visible range and find its on-screen cells on screen", async (l) => {
    const table = pickOne((await read(l)).elements!, labelled("People"));
    assert.deepEqual(
      table.table,
      { rows: 3, columns: 2, first_row: 0, first_column: 0, last_row: 2, last_column: 1 },
      "the visible range is all three rows of both columns",
    );
    const found = await l.s.client.call("find", {
      window: l.window,
      query: { role: "AXCell" },
      scope: "all",
    });
    const b = table.bounds;
    const inside = (e: Element) =>
      e.bounds.w > 0 && e.bounds.x >= b.x && e.bounds.y >= b.y &&
      e.bounds.x + e.bounds.w <= b.x + b.w && e.bounds.y + e.bounds.h <= b.y + b.h;
    const wrong = found.elements.filter((e) => inside(e) && e.offscreen);
    assert.deepEqual(
      wrong.map((e) => [e.name, e.bounds]),
      [],
      "cells showing inside the table are not offscreen",
    );
  });

  cell("select Places row", async (l) => {
    const picked = await expectLines(
      l,
      ["places selected: Asia"],
      () => act(l, rowOf("Places", "Asia"), "select"),
    );
    assert.equal(picked.ok, true, JSON.stringify(picked));
  });

  cell("expand and collapse Places row Europe", async (l) => {
    const opened = await expectLines(
      l,
      ["places expanded: Europe"],
      () => act(l, rowOf("Places", "Europe"), "expand"),
    );
    assert.equal(opened.ok, true, JSON.stringify(opened));
    const names = (await read(l)).elements!.map((e) => e.name);
    assert.ok(names.includes("Rome"), "Europe's cities show in the map");
    const closed = await expectLines(
      l,
      ["places collapsed: Europe"],
      () => act(l, rowOf("Places", "Europe"), "collapse"),
    );
    assert.equal(closed.ok, true, JSON.stringify(closed));
  });

  cell("press icon-only Refresh", async (l) => {
    // By its name when the driver gives it one, else as the one nameless button.
    const refresh: Pick = (e, all) =>
      all.some((x) => x.name === "Refresh")
        ? e.name === "Refresh"
        : e.role === "AXButton" && e.name === "";
    const pressed = await expectLines(l, ["refresh: clicked"], () => act(l, refresh, "press"));
    assert.equal(pressed.ok, true, JSON.stringify(pressed));
  });

  cell("set_value People's Age cell edits it in place; a fixed Name cell refuses", async (l) => {
    // Qt says of no cell whether it is editable: the app's own signal tells what happened.
    const aged = await expectLines(
      l,
      ["people age: Bob 26"],
      () => act(l, rowOf("People", "25"), "set_value", { value: "26" }),
    );
    assert.equal(aged.ok, true, JSON.stringify(aged));
    await expectLines(
      l,
      ["people age: Bob 25"],
      () => act(l, rowOf("People", "26"), "set_value", { value: "25" }),
    );
    await assert.rejects(
      () => act(l, rowOf("People", "Cid"), "set_value", { value: "Cy" }),
      /opened no editor on F2.*nothing was typed/,
    );
    const names = (await read(l)).elements!.map((e) => e.name);
    assert.ok(names.includes("Cid") && !names.includes("Cy"), "Cid's name is unchanged");
  });

  cell("press Add person inserts a row; ids of Blue and Bob are unchanged", async (l) => {
    const ids = (elements: readonly Element[]) => [
      pickOne(elements, rowOf("Colors", "Blue")).id,
      pickOne(elements, rowOf("People", "Bob")).id,
    ];
    const before = ids((await read(l)).elements!);
    await expectLines(
      l,
      ["people: Dee,Ann,Bob,Cid"],
      () => act(l, (e) => e.name === "Add person", "press"),
    );
    const names = (await read(l)).elements!.map((e) => e.name);
    assert.ok(names.includes("Dee"), "the new row is in the map");
    assert.deepEqual(ids((await read(l)).elements!), before, "ids of Blue and Bob");
    await expectLines(
      l,
      ["people: Ann,Bob,Cid"],
      () => act(l, (e) => e.name === "Remove person", "press"),
    );
  });

  cell("press Open modal opens Zoo dialog; OK closes it with the answer", async (l) => {
    const pressed = await expectLines(
      l,
      ["dialog: shown"],
      () => act(l, (e) => e.name === "Open modal", "press"),
    );
    assert.equal(pressed.ok, true, JSON.stringify(pressed));
    const dialog = pressed.opened?.find((w) => w.title === "Zoo dialog");
    assert.ok(dialog, `opened: ${JSON.stringify(pressed.opened)}`);
    assert.equal(dialog.modal, true, JSON.stringify(dialog));
    const set = await act(l, labelled("Answer"), "set_value", {
      value: "forty-two",
      window: dialog.window,
    });
    assert.equal(set.ok, true, JSON.stringify(set));
    const ok = await expectLines(
      l,
      ["dialog: ok forty-two"],
      () => act(l, (e) => e.name === "OK", "press", { window: dialog.window }),
    );
    assert.equal(ok.closed, true, JSON.stringify(ok));
  });

  cell("menu File → Open dialog… opens Zoo dialog; Cancel closes it", async (l) => {
    const opened = await expectLines(
      l,
      ["dialog: shown"],
      () => pressMenuItem(l.s.client, l.window, "File", "Open dialog"),
    );
    const dialog = opened.opened?.find((w) => w.title === "Zoo dialog");
    assert.ok(dialog, `opened: ${JSON.stringify(opened.opened)}`);
    const cancel = await expectLines(
      l,
      ["dialog: cancel"],
      () => act(l, (e) => e.name === "Cancel", "press", { window: dialog.window }),
    );
    assert.equal(cancel.closed, true, JSON.stringify(cancel));
  });

  cell("press Open palette opens Zoo palette; Close palette closes it", async (l) => {
    const pressed = await expectLines(
      l,
      ["palette: shown"],
      () => act(l, (e) => e.name === "Open palette", "press"),
    );
    const palette = pressed.opened?.find((w) => w.title === "Zoo palette");
    assert.ok(palette, `opened: ${JSON.stringify(pressed.opened)}`);
    assert.notEqual(palette.modal, true, "the palette is not modal");
    const closed = await expectLines(
      l,
      ["palette: closed"],
      () => act(l, (e) => e.name === "Close palette", "press", { window: palette.window }),
    );
    assert.equal(closed.closed, true, JSON.stringify(closed));
  });

  for (const [box, key] of [["Agree", "agree"], ["Bold", "bold"]] as const) {
    cell(`check and uncheck ${box}`, async (l) => {
      const on = await expectLines(l, [`${key}: on`], () => act(l, labelled(box), "check"));
      assert.equal(on.ok, true, JSON.stringify(on));
      const off = await expectLines(l, [`${key}: off`], () => act(l, labelled(box), "uncheck"));
      assert.equal(off.ok, true, JSON.stringify(off));
    });
  }

  cell("check radio Large", async (l) => {
    const large = await expectLines(l, ["size: Large"], () => act(l, labelled("Large"), "check"));
    assert.equal(large.ok, true, JSON.stringify(large));
    await expectLines(l, ["size: Small"], () => act(l, labelled("Small"), "check"));
  });

  cell("select tab Advanced", async (l) => {
    const tab = (name: string): Pick => (e) => e.name === name && e.role !== "AXStaticText";
    const picked = await expectLines(l, ["tab: Advanced"], () => act(l, tab("Advanced"), "select"));
    assert.equal(picked.ok, true, JSON.stringify(picked));
    await expectLines(l, ["tab: General"], () => act(l, tab("General"), "select"));
  });

  cell("set_value Volume", async (l) => {
    const set = await expectLines(
      l,
      ["volume: 30"],
      () => act(l, labelled("Volume"), "set_value", { value: "30" }),
    );
    assert.equal(set.ok, true, JSON.stringify(set));
  });

  cell("menu File → Say hello", async (l) => {
    const said = await expectLines(
      l,
      ["menu: Say hello"],
      () => pressMenuItem(l.s.client, l.window, "File", "Say hello"),
    );
    assert.equal(said.ok, true, JSON.stringify(said));
  });

  Deno.test({
    name: `${family}: the zoo app and its driver stop (window manager: ${MODE})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      if (!started) return;
      const { app, s } = await started;
      await s.close();
      await app.stop();
    },
  });
}
