/**
 * Tasks on the file manager (Thunar), the clipboard between two apps (mousepad to FeatherPad),
 * a document viewer (evince) and a spreadsheet (Gnumeric): each judged by the disk (a folder,
 * a file's bytes) or by pyatspi in its own process, never by the driver's answers.
 *
 * @module
 */
import type { Element } from "../../protocol/element.ts";
import { oracleShown } from "../../tests/support/oracle.ts";
import type { Agent } from "./agent.ts";
import { launch } from "./launch.ts";
import { expect, type Running, type Task } from "./task.ts";

/** Reads a file, or undefined when it is not there. */
const read = (path: string) => Deno.readTextFile(path).catch(() => undefined);

/** Is there anything at `path`? */
const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/**
 * `look()` until `done` holds, for at most `ms`; the last look. A checker's patience: a
 * file manager moves a file in a worker of its own, after the policy's last answer.
 */
async function settled<T>(look: () => Promise<T>, done: (v: T) => boolean, ms = 3_000) {
  const deadline = Date.now() + ms;
  while (true) {
    const v = await look();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Thunar on `folder`, with the task's home (its settings start at the defaults). */
const thunar = (dir: string, folder: string) =>
  launch({
    cmd: "thunar",
    args: [folder],
    window: `${folder.slice(folder.lastIndexOf("/") + 1)} - Thunar`,
    dir,
  });

/**
 * Shows the folder of Thunar's `main` as a list: its icon view lists no items on the bus,
 * and a person would switch too when they cannot see the files.
 */
const listView = (agent: Agent, main: string) => agent.menu(main, "View", "List View");

/** The title of Thunar's window on folder `name`. */
const thunarTitle = (name: string) => new RegExp(`^${name} - Thunar$`);

/** Make a folder through File > Create Folder… and see it listed. */
const createFolder: Task = {
  id: "thunar-create-folder",
  title: "Thunar: create a folder through File > Create Folder… and name it",
  family: "file manager",
  async prepare(dir) {
    const work = `${dir}/work`;
    await Deno.mkdir(work);
    await Deno.writeTextFile(`${work}/receipt-march.txt`, "Paper, 12.40\n");
    await Deno.writeTextFile(`${work}/receipt-april.txt`, "Toner, 38.00\n");
    return { dir, values: { work, name: "Invoices 2024" } };
  },
  launch: (f) => thunar(f.dir, f.values.work!),
  async ours(agent, app, { values }) {
    const main = await agent.window(app.pid, thunarTitle("work"));
    await listView(agent, main);
    const opened = await agent.menu(main, "File", "Create Folder...");
    const dialog = opened.opened?.find((w) => /Create New Folder/.test(w.title))?.window;
    expect(dialog, `Create Folder opened no dialog: ${JSON.stringify(opened.opened)}`);
    await agent.set(dialog, { role: "AXTextField" }, values.name!);
    await agent.press(dialog, "Create", "AXButton");
    // The new folder's row: the work is done when the folder shows in the list.
    await agent.find(main, { role: "AXCell", name: values.name! });
  },
  async check({ values }) {
    const path = `${values.work}/${values.name}`;
    const info = await Deno.stat(path).catch(() => undefined);
    return info?.isDirectory ? undefined : `no folder ${JSON.stringify(path)} on disk`;
  },
};

/** Rename a file through Edit > Rename…. */
const rename: Task = {
  id: "thunar-rename",
  title: "Thunar: select a file in the list and rename it through Edit > Rename…",
  family: "file manager",
  async prepare(dir) {
    const work = `${dir}/work`;
    await Deno.mkdir(work);
    await Deno.writeTextFile(`${work}/draft-v3.txt`, "Budget draft, third pass.\n");
    await Deno.writeTextFile(`${work}/budget-notes.txt`, "Ask about travel.\n");
    await Deno.mkdir(`${work}/old`);
    return { dir, values: { work, from: "draft-v3.txt", to: "budget-final.txt" } };
  },
  launch: (f) => thunar(f.dir, f.values.work!),
  async ours(agent, app, { values }) {
    const main = await agent.window(app.pid, thunarTitle("work"));
    await listView(agent, main);
    await agent.act(main, { role: "AXCell", name: values.from! }, "select");
    const opened = await agent.menu(main, "Edit", "Rename...");
    const dialog = opened.opened?.find((w) => /^Rename/.test(w.title))?.window;
    expect(dialog, `Rename opened no dialog: ${JSON.stringify(opened.opened)}`);
    await agent.set(dialog, { role: "AXTextField" }, values.to!);
    await agent.press(dialog, "Rename", "AXButton");
    await agent.find(main, { role: "AXCell", name: values.to! });
  },
  async check({ values }) {
    const renamed = await read(`${values.work}/${values.to}`);
    if (renamed !== "Budget draft, third pass.\n") {
      return `${values.to} holds ${JSON.stringify(renamed)}`;
    }
    if (await exists(`${values.work}/${values.from}`)) return `${values.from} is still there`;
    const left = await read(`${values.work}/budget-notes.txt`);
    return left === "Ask about travel.\n" ? undefined : "budget-notes.txt was touched";
  },
};

/** Move a file into a subfolder by Cut and Paste. */
const move: Task = {
  id: "thunar-move",
  title: "Thunar: move a file into a subfolder by Edit > Cut, opening it, Edit > Paste",
  family: "file manager",
  async prepare(dir) {
    const work = `${dir}/work`;
    await Deno.mkdir(`${work}/archive`, { recursive: true });
    await Deno.writeTextFile(`${work}/minutes-2023.txt`, "Minutes of the 2023 meeting.\n");
    await Deno.writeTextFile(`${work}/agenda.txt`, "1. Budget\n2. Travel\n");
    await Deno.writeTextFile(`${work}/archive/minutes-2022.txt`, "Minutes of 2022.\n");
    return { dir, values: { work, file: "minutes-2023.txt", folder: "archive" } };
  },
  launch: (f) => thunar(f.dir, f.values.work!),
  async ours(agent, app, { values }) {
    const main = await agent.window(app.pid, thunarTitle("work"));
    await listView(agent, main);
    await agent.act(main, { role: "AXCell", name: values.file! }, "select");
    await agent.menu(main, "Edit", "Cut");
    // A folder's row opens it, as a double click does.
    await agent.act(main, { role: "AXCell", name: values.folder! }, "press");
    const inside = await agent.window(app.pid, thunarTitle(values.folder!));
    await agent.menu(inside, "Edit", "Paste");
    // Thunar shows the opened folder in its default view again: switch to see the rows.
    await listView(agent, inside);
    await agent.find(inside, { role: "AXCell", name: values.file! });
  },
  async check({ values }) {
    const target = `${values.work}/${values.folder}/${values.file}`;
    const moved = await settled(() => read(target), (t) => t !== undefined);
    if (moved !== "Minutes of the 2023 meeting.\n") {
      return `${target} holds ${JSON.stringify(moved)}`;
    }
    const source = `${values.work}/${values.file}`;
    if (await settled(() => exists(source), (there) => !there)) return `${source} is still there`;
    return await exists(`${values.work}/agenda.txt`) ? undefined : "agenda.txt went too";
  },
};

/** Two apps run as one task's app; its pid is the source's, the app dogtail is handed. */
interface Pair extends Running {
  /** The app text is copied from. */
  source: Running;
  /** The app it is pasted into. */
  target: Running;
}

/** Starts the target app, then the source app; stops both. */
async function pair(target: () => Promise<Running>, source: () => Promise<Running>) {
  const to = await target();
  const from = await source().catch(async (err) => {
    await to.stop();
    throw err;
  });
  const both: Pair = {
    pid: from.pid,
    output: from.output,
    stop: async () => {
      await from.stop();
      await to.stop();
    },
    source: from,
    target: to,
  };
  return both;
}

/** The text the clipboard task carries across. */
const MINUTES = "Meeting moved to Thursday 10:00.\nRoom 4B, second floor.\nBring the Q3 figures.\n";

/** Copy a file's text in mousepad (GTK 3) and paste it into FeatherPad (Qt 5), then save. */
const clipboard: Task = {
  id: "clipboard-mousepad-to-featherpad",
  title: "Clipboard: copy all of a note in mousepad, paste it into FeatherPad and save",
  family: "clipboard",
  async prepare(dir) {
    await Deno.writeTextFile(`${dir}/minutes.txt`, MINUTES);
    await Deno.writeTextFile(`${dir}/forward.txt`, "");
    // Mousepad opens beside FeatherPad, not on it, as a person sets two windows up to copy
    // between them (its settings are in the home launch() gives it, read by GLib's keyfile).
    const settings = `${dir}/home/.config/glib-2.0/settings`;
    await Deno.mkdir(settings, { recursive: true });
    await Deno.writeTextFile(
      `${settings}/keyfile`,
      "[org/xfce/mousepad/preferences/window]\nremember-position=true\nremember-size=true\n\n" +
        "[org/xfce/mousepad/state/window]\nleft=720\ntop=40\nwidth=520\nheight=420\n",
    );
    return { dir, values: { source: `${dir}/minutes.txt`, target: `${dir}/forward.txt` } };
  },
  launch: (f) =>
    pair(
      () =>
        launch({ cmd: "featherpad", args: [f.values.target!], window: "forward.txt", dir: f.dir }),
      () =>
        launch({
          cmd: "mousepad",
          args: ["--disable-server", f.values.source!],
          window: "minutes.txt",
          dir: f.dir,
        }),
    ),
  async ours(agent, app) {
    const { source, target } = app as Pair;
    const from = await agent.window(source.pid, /minutes\.txt/);
    const to = await agent.window(target.pid, /forward\.txt/);
    await agent.menu(from, "Edit", "Select All");
    await agent.menu(from, "Edit", "Copy");
    // Qt's menu bar holds menu items, not menus: each opened by pressing it.
    await qtMenu(agent, to, "Edit", "Paste");
    await agent.find(to, { role: "AXTextArea", text_contains: "Bring the Q3 figures." });
    await qtMenu(agent, to, "File", "Save");
    // Saved when FeatherPad's title drops the "*" it puts before a modified file's path.
    await agent.window(target.pid, /^[^*].*forward\.txt$/);
  },
  async check({ values }) {
    const saved = await read(values.target!);
    return saved === MINUTES ? undefined : `forward.txt holds ${JSON.stringify(saved)}`;
  },
};

/** Opens Qt menu bar entry `menu` (a menu item there) and presses `item` in it. */
async function qtMenu(agent: Agent, window: string, menu: string, item: string) {
  await agent.press(window, menu, "AXMenuItem");
  await agent.act(window, { role: "AXMenuItem", name: item }, "press", { scope: "all" });
}

/** The chapters of the viewer task's handbook, from page 2 on, and where each starts. */
const CHAPTERS: readonly { title: string; page: number; body: string }[] = [
  { title: "Introduction", page: 2, body: "This handbook covers the press line." },
  { title: "Safety", page: 3, body: "Wear gloves and eye protection." },
  { title: "Operation", page: 4, body: "Start the pump before the press." },
  { title: "Maintenance", page: 6, body: "Grease the rails every 200 hours." },
  { title: "Spare parts", page: 7, body: "Order seals by their part number." },
];

/** The handbook's pages: a contents page, then chapters (Operation runs over two pages). */
function handbookPages(): { lines: string[] }[] {
  const contents = {
    lines: ["Contents", ...CHAPTERS.map((c) => `${c.title} ........ page ${c.page}`)],
  };
  const pages: { lines: string[] }[] = [contents];
  for (const c of CHAPTERS) {
    while (pages.length < c.page - 1) {
      pages.push({ lines: [`${CHAPTERS[2]!.title} (continued)`, "Stop the pump last."] });
    }
    pages.push({ lines: [`Chapter: ${c.title}`, c.body] });
  }
  return pages;
}

/**
 * A PDF of `pages`, each line set in Helvetica down the page: written by hand so the task
 * needs no converter, and its words are what evince publishes for each page.
 */
function pdf(pages: readonly { lines: readonly string[] }[]): Uint8Array {
  const objs: string[] = [];
  const add = (s: string) => objs.push(s);
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const contents = pages.map(({ lines }) => {
    const s = lines.map((l, i) =>
      `BT /F1 ${i === 0 ? 24 : 14} Tf 72 ${720 - 40 * i} Td (${esc(l)}) Tj ET`
    ).join(" ");
    return add(`<< /Length ${s.length} >>\nstream\n${s}\nendstream`);
  });
  const pagesId = objs.length + pages.length + 1;
  const kids = contents.map((c) =>
    add(
      `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] /Contents ${c} 0 R ` +
        `/Resources << /Font << /F1 ${font} 0 R >> >> >>`,
    )
  );
  add(`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`);
  const catalog = add(`<< /Type /Catalog /Pages ${pagesId} 0 R >>`);
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${
    objs.length + 1
  } /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/** The words pyatspi reads in the showing pages of evince's window on `title`. */
async function shownPages(pid: number, title: string): Promise<string> {
  const shown = await oracleShown(pid, title);
  return shown.filter((n) => n.roleName === "page").map((n) => n.text).join("\n");
}

/** Read the contents page, then go to a chapter's page through the page number field. */
const gotoPage: Task = {
  id: "evince-goto-page",
  title: "evince: read on the contents page where a chapter starts and go there by page number",
  family: "viewer",
  async prepare(dir) {
    await Deno.writeFile(`${dir}/handbook.pdf`, pdf(handbookPages()));
    return { dir, values: { file: `${dir}/handbook.pdf`, chapter: "Maintenance" } };
  },
  launch: (f) =>
    launch({ cmd: "evince", args: [f.values.file!], window: "handbook.pdf", dir: f.dir }),
  async ours(agent, app, { values }) {
    const main = await agent.window(app.pid, /handbook\.pdf/);
    // The page loads after the window shows: its words come with it.
    const { el: contents } = await agent.find(main, { text_contains: "Contents" });
    const line = new RegExp(`${values.chapter} \\.+ page (\\d+)`).exec(contents.value ?? "");
    expect(line, `the contents page says nothing of ${values.chapter}: ${contents.value}`);
    await agent.set(main, { role: "AXTextField", name: "page-label-entry" }, line[1]!, "enter");
    await agent.find(main, { text_contains: `Chapter: ${values.chapter}` });
  },
  async check({ values }, app) {
    const want = `Chapter: ${values.chapter}`;
    const shown = await settled(() => shownPages(app.pid, "handbook.pdf"), (t) => t.includes(want));
    if (!shown.includes(want)) return `evince shows ${JSON.stringify(shown)}`;
    return shown.includes("Contents") ? "the contents page still shows" : undefined;
  },
};

/** The spreadsheet task's expenses, as the CSV it opens. */
const EXPENSES = "Item,Amount\nRent,1200\nPower,85\nWater,40\n";

/**
 * Sets the first text field of `window` whose value `pick` accepts, committed by Enter:
 * Gnumeric's name box and edit line have no names, and are told apart by what they hold.
 */
async function setField(
  agent: Agent,
  window: string,
  pick: (e: Element) => boolean,
  value: string,
) {
  const { elements, version } = await agent.call("find", {
    window,
    query: { role: "AXTextField" },
  });
  const field = elements.find(pick);
  expect(field, `no such field among ${JSON.stringify(elements.map((e) => e.value))}`);
  const out = await agent.call("act", {
    window,
    version,
    id: field.id,
    action: "set_value",
    value,
    commit: "enter",
    guard: "element",
  });
  expect(out.ok, `set ${JSON.stringify(value)}: ${JSON.stringify(out.value)}`);
}

/** Gnumeric's name box: the field that holds a cell's address. */
const nameBox = (e: Element) => /^[A-Z]+[0-9]+$/.test(e.value ?? "");
/** Gnumeric's edit line on an empty cell: the field that holds nothing. */
const emptyLine = (e: Element) => (e.value ?? "") === "";

/** Add a total row with =SUM and export the sheet as CSV through the export dialog. */
const formulaSave: Task = {
  id: "gnumeric-formula-save",
  title: "Gnumeric: add a Total row with =SUM through the name box and edit line, export CSV",
  family: "spreadsheet",
  async prepare(dir) {
    await Deno.writeTextFile(`${dir}/expenses.csv`, EXPENSES);
    return { dir, values: { file: `${dir}/expenses.csv`, saved: `${dir}/expenses-total.csv` } };
  },
  launch: (f) =>
    launch({ cmd: "gnumeric", args: [f.values.file!], window: "expenses.csv", dir: f.dir }),
  async ours(agent, app) {
    const main = await agent.window(app.pid, /expenses\.csv/);
    await setField(agent, main, nameBox, "A5");
    await setField(agent, main, emptyLine, "Total");
    await setField(agent, main, nameBox, "B5");
    await setField(agent, main, emptyLine, "=SUM(B2:B4)");
    await agent.press(main, "Data", "AXMenu");
    await agent.act(main, { role: "AXMenu", name: "Export Data" }, "press", { scope: "all" });
    const opened = await agent.act(
      main,
      { role: "AXMenuItem", name: "Export as CSV File..." },
      "press",
      { scope: "all" },
    );
    const dialog = opened.opened?.find((w) => /^Export/.test(w.title))?.window;
    expect(dialog, `Export opened no dialog: ${JSON.stringify(opened.opened)}`);
    await agent.set(dialog, { role: "AXTextField", name: "Name" }, "expenses-total.csv");
    await agent.press(dialog, "Save", "AXButton");
    // Gnumeric writes the file, then closes its dialog.
    await agent.waitGone(app.pid, /^Export/);
  },
  async check({ values }) {
    const saved = await read(values.saved!);
    const want = `${EXPENSES}Total,1325\n`;
    return saved === want ? undefined : `expenses-total.csv holds ${JSON.stringify(saved)}`;
  },
};

/** The tasks of this family. */
export const FILES_TASKS: readonly Task[] = [
  createFolder,
  rename,
  move,
  clipboard,
  gotoPage,
  formulaSave,
];
