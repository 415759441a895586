/**
 * Tasks on Qt 5 apps: FeatherPad (a text editor), SpeedCrunch (a calculator), DB Browser
 * for SQLite.
 *
 * Qt's menu bar puts its menus on the bus as menu items (not menus, as GTK 3's are), so
 * these policies open a menu by pressing the menu bar's item of that name, as the map
 * shows it, and then the item inside.
 *
 * @module
 */
import { expect, settled, type Task } from "./task.ts";
import { launch } from "./launch.ts";
import type { Acted, Agent, Query } from "./agent.ts";
import { oracleNodes } from "../../tests/support/oracle.ts";

/** Reads a file, or undefined when it is not there. */
const read = (path: string) => Deno.readTextFile(path).catch(() => undefined);

/**
 * What `path` holds once it holds `want`, or what it holds 3 s on: an app may write a file
 * after the control that asked for it has answered.
 */
async function written(path: string, want: string): Promise<string | undefined> {
  const deadline = Date.now() + 3_000;
  while (true) {
    const text = await read(path);
    if (text === want || Date.now() > deadline) return text;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Opens the menu bar's menu `menu` of `window` and presses `item` inside it. */
async function menuItem(agent: Agent, window: string, menu: string, item: string): Promise<Acted> {
  await agent.press(window, menu, "AXMenuItem");
  return await agent.act(window, { name: item, role: "AXMenuItem" }, "press", { scope: "all" });
}

/**
 * Sets the first element `query` finds that takes a value: a window with a read-only text
 * view beside its input shows two alike (SpeedCrunch's result display and its editor).
 */
async function setEditable(
  agent: Agent,
  window: string,
  query: Query,
  value: string,
  commit?: "enter",
): Promise<Acted> {
  const found = await agent.call("find", { window, query });
  const el = found.elements.find((e) => e.actions.includes("set_value"));
  expect(el, `nothing that takes a value among ${JSON.stringify(query)}`);
  const out = await agent.call("act", {
    window,
    version: found.version,
    id: el.id,
    action: "set_value",
    value,
    guard: "element",
    ...(commit ? { commit } : {}),
  });
  expect(out.ok, `set_value ${JSON.stringify(value)}: ${JSON.stringify(out)}`);
  return out;
}

/** FeatherPad on `args` (a file, or none for an untitled document). */
const featherpad = (dir: string, args: string[], window: string) =>
  launch({ cmd: "featherpad", args, window, dir });

/** A new document typed and saved through Qt's own file dialog. */
const featherpadSaveAs: Task = {
  id: "featherpad-save-as",
  title: "FeatherPad: type a new document and save it through Qt's Save As dialog",
  family: "Qt",
  prepare(dir) {
    return Promise.resolve({
      dir,
      values: {
        text: "Shopping list\n- flour\n- eggs\n",
        saved: `${dir}/shopping.txt`,
      },
    });
  },
  launch: (f) => featherpad(f.dir, [], "Untitled"),
  async ours(agent, app, f) {
    const main = await agent.window(app.pid, /Untitled/);
    await agent.act(main, { role: "AXTextArea" }, "type_text", { value: f.values.text! });
    const opened = await menuItem(agent, main, "File", "Save As");
    const dialog = opened.opened?.find((w) => /Save/.test(w.title))?.window;
    expect(dialog, `Save As opened no dialog: ${JSON.stringify(opened.opened)}`);
    await agent.set(dialog, { role: "AXTextField", name: "File name:" }, f.values.saved!);
    await agent.press(dialog, "Save", "AXButton");
    await agent.waitGone(app.pid, /^Save as/);
  },
  async check(f) {
    const text = await written(f.values.saved!, f.values.text!);
    return text === f.values.text ? undefined : `shopping.txt holds ${JSON.stringify(text)}`;
  },
};

/** The letter the replace task starts from, and what it should end as. */
const LETTER = {
  before: "Dear team,\nthe new colour scheme is ready.\n" +
    "Each colour has a name; pick one colour for the header.\nThanks\n",
  after: "Dear team,\nthe new color scheme is ready.\n" +
    "Each color has a name; pick one color for the header.\nThanks\n",
};

/** Search > Replace in FeatherPad's replace dock, Replace All, save. */
const featherpadReplace: Task = {
  id: "featherpad-replace",
  title: "FeatherPad: replace a word everywhere with its Replace dock and save the file",
  family: "Qt",
  async prepare(dir) {
    await Deno.writeTextFile(`${dir}/letter.txt`, LETTER.before);
    return { dir, values: { file: `${dir}/letter.txt`, find: "colour", replace: "color" } };
  },
  launch: (f) => featherpad(f.dir, [f.values.file!], "letter.txt"),
  async ours(agent, app, f) {
    const main = await agent.window(app.pid, /letter\.txt/);
    await menuItem(agent, main, "Search", "Replace");
    await agent.set(main, { role: "AXTextField", name: "To be replaced" }, f.values.find!);
    await agent.set(main, { role: "AXTextField", name: "Replacing text" }, f.values.replace!);
    await agent.press(main, "Replace all (F10)", "AXButton");
    await menuItem(agent, main, "File", "Save");
    // Saved: the window's title loses the mark of unsaved changes ("*…/letter.txt").
    await agent.window(app.pid, /^[^*].*letter\.txt$/);
  },
  async check(f) {
    const text = await written(f.values.file!, LETTER.after);
    return text === LETTER.after ? undefined : `letter.txt holds ${JSON.stringify(text)}`;
  },
};

/** The expressions SpeedCrunch evaluates, in order, and what its display then shows. */
const SUMS = ["rate = 0.2", "1250*(1+rate)", "ans/4"];

/** SpeedCrunch: a variable, an expression using it, then one using `ans`. */
const speedcrunchCompute: Task = {
  id: "speedcrunch-compute",
  title: "SpeedCrunch: define a variable, evaluate an expression with it, then one with ans",
  family: "Qt",
  prepare(dir) {
    return Promise.resolve({ dir, values: { sums: JSON.stringify(SUMS) } });
  },
  launch: (f) => launch({ cmd: "speedcrunch", args: [], window: "SpeedCrunch", dir: f.dir }),
  async ours(agent, app) {
    const main = await agent.window(app.pid, /SpeedCrunch/);
    for (const sum of SUMS) await setEditable(agent, main, { role: "AXTextArea" }, sum, "enter");
  },
  check: (_f, app) =>
    settled(async () => {
      // The result display, as pyatspi reads it: each expression, then "= result".
      const shown = (await oracleNodes(app.pid)).filter((n) => n.role === "text").map((n) =>
        n.text ?? ""
      );
      const want = ["rate = 0.2\n= 0.2", "1250*(1+rate)\n= 1500", "ans/4\n= 375"];
      const display = shown.find((t) => t.includes(want[0]!));
      const missing = want.filter((w) => !display?.includes(w));
      return missing.length === 0
        ? undefined
        : `the display lacks ${JSON.stringify(missing)}: ${JSON.stringify(shown)}`;
    }),
};

/** The rows the SQLite task's table starts with. */
const PARTS: [string, number][] = [["bolts", 120], ["nuts", 80], ["washers", 45]];

/** Runs a Python program (the checker's and prepare()'s own sqlite3) and answers its stdout. */
async function python(code: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", code, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr).trim());
  return new TextDecoder().decode(out.stdout);
}

/** DB Browser for SQLite: a cell of a table edited in Browse Data and written. */
const sqlitebrowserEdit: Task = {
  id: "sqlitebrowser-edit",
  title: "DB Browser for SQLite: edit a cell in Browse Data and write the change",
  family: "Qt",
  async prepare(dir) {
    const db = `${dir}/stock.db`;
    await python(
      `import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("create table parts (id integer primary key, name text, qty integer)")
c.executemany("insert into parts (name, qty) values (?, ?)", json.loads(sys.argv[2]))
c.commit()`,
      db,
      JSON.stringify(PARTS),
    );
    return { dir, values: { db, old: "80", qty: "95" } };
  },
  launch: (f) =>
    launch({
      cmd: "sqlitebrowser",
      args: [f.values.db!],
      window: "DB Browser for SQLite",
      dir: f.dir,
    }),
  async ours(agent, app, f) {
    const main = await agent.window(app.pid, /DB Browser for SQLite/);
    await agent.press(main, "Browse Data", "AXRadioButton");
    await agent.set(main, { role: "AXCell", name: f.values.old! }, f.values.qty!);
    await agent.press(main, "Write Changes", "AXButton");
  },
  async check(f) {
    const rows = JSON.parse(
      await python(
        `import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(json.dumps(c.execute("select name, qty from parts order by id").fetchall()))`,
        f.values.db!,
      ),
    ) as [string, number][];
    const want = [["bolts", 120], ["nuts", 95], ["washers", 45]];
    return JSON.stringify(rows) === JSON.stringify(want)
      ? undefined
      : `the table holds ${JSON.stringify(rows)}`;
  },
};

/** The Qt tasks. */
export const QT_TASKS: readonly Task[] = [
  featherpadSaveAs,
  featherpadReplace,
  speedcrunchCompute,
  sqlitebrowserEdit,
];
