/**
 * Tasks on GTK 3 apps: mousepad (a text editor), zenity (forms, lists, file selections).
 *
 * @module
 */
import { expect, type Task } from "./task.ts";
import type { Acted, Agent } from "./agent.ts";
import { launch } from "./launch.ts";

/** Reads a file, or undefined when it is not there. */
const read = (path: string) => Deno.readTextFile(path).catch(() => undefined);

/** Mousepad on `file`. */
const mousepad = (dir: string, file: string) =>
  launch({ cmd: "mousepad", args: ["--disable-server", file], window: "Mousepad", dir });

/** Zenity with `args`, its window titled `title`; it answers on stdout. */
const zenity = (dir: string, title: string, args: string[]) =>
  launch({ cmd: "zenity", args: [`--title=${title}`, ...args], window: title, dir, output: true });

/**
 * Why the program did not print `want` (undefined when it did): the task's answer. A
 * `secret` in either is masked: the reason lands in bench/RESULTS.md.
 */
async function printed(app: { output(): Promise<string> }, want: string, secret?: string) {
  const out = await app.output();
  if (out === want) return undefined;
  const say = (t: string) => JSON.stringify(secret ? t.replaceAll(secret, "****") : t);
  return `printed ${say(out)}, not ${say(want)}`;
}

/** The window `opened` lists titled `title`, else the app's window so titled once it shows. */
async function dialogOf(
  agent: Agent,
  pid: number,
  opened: Acted,
  title: RegExp,
): Promise<string> {
  return opened.opened?.find((w) => title.test(w.title))?.window ??
    await agent.window(pid, title);
}

/** Edit a file and save it under a new name through the file chooser. */
const saveAs: Task = {
  id: "mousepad-save-as",
  title: "Mousepad: add a line to a file and save it under a new name (file chooser)",
  family: "GTK 3",
  async prepare(dir) {
    await Deno.writeTextFile(`${dir}/notes.txt`, "first draft\n");
    return { dir, values: { file: `${dir}/notes.txt`, saved: `${dir}/final.txt` } };
  },
  launch: (f) => mousepad(f.dir, f.values.file!),
  async ours(agent, app) {
    const main = await agent.window(app.pid, /notes\.txt/);
    await agent.act(main, { role: "AXTextArea" }, "type_text", { value: "approved\n" });
    const opened = await agent.menu(main, "File", "Save As...");
    const dialog = opened.opened?.find((w) => /Save As/.test(w.title))?.window;
    expect(dialog, `Save As opened no dialog: ${JSON.stringify(opened.opened)}`);
    await agent.set(dialog, { role: "AXTextField", name: "Name" }, "final.txt");
    await agent.press(dialog, "Save", "AXButton");
    // The chooser checks the file before it answers: it may close after the press settled.
    await agent.waitGone(app.pid, /^Save As$/);
  },
  async check(f) {
    const text = await read(f.values.saved!);
    return text === "first draft\napproved\n"
      ? undefined
      : `final.txt holds ${JSON.stringify(text)}`;
  },
};

/** The report the overwrite task writes over report.txt. */
const REPORT = "Q3 report\nRevenue: 1.2M\nStatus: final\n";

/** Replace a file's text and save it over another existing file, confirming the overwrite. */
const overwrite: Task = {
  id: "mousepad-overwrite",
  title: "Mousepad: rewrite a draft and save it over an existing file, confirming the replace",
  family: "GTK 3",
  async prepare(dir) {
    await Deno.writeTextFile(`${dir}/draft.txt`, "Q3 draft, numbers pending\n");
    await Deno.writeTextFile(`${dir}/report.txt`, "Q2 report (outdated)\n");
    return {
      dir,
      values: { file: `${dir}/draft.txt`, target: `${dir}/report.txt`, text: REPORT },
    };
  },
  launch: (f) => mousepad(f.dir, f.values.file!),
  async ours(agent, app, f) {
    const main = await agent.window(app.pid, /draft\.txt/);
    await agent.set(main, { role: "AXTextArea" }, f.values.text!);
    const opened = await agent.menu(main, "File", "Save As...");
    const dialog = await dialogOf(agent, app.pid, opened, /^Save As$/);
    await agent.set(dialog, { role: "AXTextField", name: "Name" }, "report.txt");
    const saved = await agent.press(dialog, "Save", "AXButton");
    const question = await dialogOf(agent, app.pid, saved, /^Question$/);
    await agent.find(question, { role: "AXStaticText", text_contains: "already exists" });
    await agent.press(question, "Replace", "AXButton");
    await agent.waitGone(app.pid, /^Save As$/);
  },
  async check(f) {
    const text = await read(f.values.target!);
    if (text !== f.values.text) return `report.txt holds ${JSON.stringify(text)}`;
    const draft = await read(f.values.file!);
    return draft === "Q3 draft, numbers pending\n"
      ? undefined
      : `draft.txt was changed: ${JSON.stringify(draft)}`;
  },
};

/** A shopping list whose word "milk" is replaced, as a whole word only. */
const SHOPPING = "milk\nbread\nmilk chocolate\nmilkshake\nbuttermilk\n";

/** Find and Replace All (whole words), then save. */
const findReplace: Task = {
  id: "mousepad-find-replace",
  title: "Mousepad: replace a whole word everywhere (Find and Replace) and save",
  family: "GTK 3",
  async prepare(dir) {
    await Deno.writeTextFile(`${dir}/shopping.txt`, SHOPPING);
    return { dir, values: { file: `${dir}/shopping.txt`, search: "milk", replace: "oat milk" } };
  },
  launch: (f) => mousepad(f.dir, f.values.file!),
  async ours(agent, app, f) {
    const main = await agent.window(app.pid, /shopping\.txt/);
    const opened = await agent.menu(main, "Search", "Find and Replace...");
    const dialog = await dialogOf(agent, app.pid, opened, /^Find and Replace$/);
    // Each field is the entry of a combo holding its history, named by the combo's label.
    await agent.set(dialog, { role: "AXTextField", name: "Search for" }, f.values.search!);
    await agent.set(dialog, { role: "AXTextField", name: "Replace with" }, f.values.replace!);
    await agent.act(dialog, { role: "AXCheckBox", name: "Match whole word" }, "check");
    await agent.act(dialog, { role: "AXCheckBox", name: "Replace all in:" }, "check");
    await agent.press(dialog, "Replace All", "AXButton");
    await agent.press(dialog, "Close", "AXButton");
    await agent.menu(main, "File", "Save");
    // Saved when the title drops its "modified" star.
    await agent.window(app.pid, /^[^*].*shopping\.txt/);
  },
  async check(f) {
    const want = "oat milk\nbread\noat milk chocolate\nmilkshake\nbuttermilk\n";
    const text = await read(f.values.file!);
    return text === want ? undefined : `shopping.txt holds ${JSON.stringify(text)}`;
  },
};

/** Settings the preferences task changes, as mousepad's GSettings keyfile says them. */
const PREFS: Record<string, string> = {
  "show-line-numbers": "true",
  "show-right-margin": "true",
  "right-margin-position": "72",
  "tab-width": "4",
  "insert-spaces": "true",
};

/** The keys of `section` in a GLib keyfile. */
function keyfileSection(text: string, section: string): Record<string, string> {
  const out: Record<string, string> = {};
  let inside = false;
  for (const line of text.split("\n")) {
    const head = /^\[(.*)\]$/.exec(line.trim());
    if (head) inside = head[1] === section;
    else if (inside && line.includes("=")) {
      const i = line.indexOf("=");
      out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
    }
  }
  return out;
}

/** Change settings on two pages of the Preferences dialog and close it. */
const preferences: Task = {
  id: "mousepad-preferences",
  title: "Mousepad: turn on line numbers and a margin at 72, tab width 4 with spaces (Preferences)",
  family: "GTK 3",
  async prepare(dir) {
    await Deno.writeTextFile(`${dir}/notes.txt`, "settings\n");
    return {
      dir,
      values: {
        file: `${dir}/notes.txt`,
        // launch.ts keeps GSettings in a keyfile under the app's own home.
        keyfile: `${dir}/home/.config/glib-2.0/settings/keyfile`,
      },
    };
  },
  launch: (f) => mousepad(f.dir, f.values.file!),
  async ours(agent, app) {
    const main = await agent.window(app.pid, /notes\.txt/);
    const opened = await agent.menu(main, "Edit", "Preferences...");
    const dialog = await dialogOf(agent, app.pid, opened, /Preferences/);
    await agent.act(dialog, { role: "AXCheckBox", name: "Show line numbers" }, "check");
    const margin = { role: "AXCheckBox", name: "Long line margin at column:" };
    await agent.act(dialog, margin, "check");
    await agent.set(dialog, { role: "AXIncrementor", name: "Long line margin at column" }, "72");
    await agent.act(dialog, { role: "AXRadioButton", name: "Editor" }, "select");
    await agent.set(dialog, { role: "AXIncrementor", name: "Tab width" }, "4");
    await agent.act(dialog, { role: "AXPopUpButton", name: "Tab mode" }, "show_menu");
    await agent.act(dialog, { role: "AXMenuItem", name: "Insert Spaces" }, "press", {
      scope: "all",
    });
    // The dialog has no button to close it: Escape does, as for a person.
    await agent.key(dialog, "Escape");
    await agent.waitGone(app.pid, /Preferences/);
  },
  async check(f) {
    // GSettings writes its keyfile from the app's main loop, just after the change.
    const deadline = Date.now() + 3_000;
    while (true) {
      const keys = keyfileSection(
        await read(f.values.keyfile!) ?? "",
        "org/xfce/mousepad/preferences/view",
      );
      const wrong = Object.entries(PREFS).filter(([k, v]) => keys[k] !== v);
      if (wrong.length === 0) return undefined;
      if (Date.now() > deadline) {
        return `settings keyfile: ${
          wrong.map(([k, v]) => `${k}=${keys[k] ?? "(unset)"}, not ${v}`).join("; ")
        }`;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  },
};

/** Fill a form of text fields, a password and a combo, and press OK. */
const forms: Task = {
  id: "zenity-forms",
  title: "zenity --forms: fill two entries, a password and a combo, OK",
  family: "GTK 3",
  prepare(dir) {
    return Promise.resolve({
      dir,
      values: { name: "Ada Lovelace", email: "ada@example.org", pin: "4711", team: "Support" },
    });
  },
  launch: (f) =>
    zenity(f.dir, "New contact", [
      "--forms",
      "--text=Add a contact",
      "--add-entry=Name",
      "--add-entry=Email",
      "--add-password=PIN",
      "--add-combo=Team",
      "--combo-values=Sales|Support|Research",
    ]),
  async ours(agent, app, { values: v }) {
    const w = await agent.window(app.pid, /^New contact$/);
    await agent.set(w, { role: "AXTextField", name: "Name" }, v.name!);
    await agent.set(w, { role: "AXTextField", name: "Email" }, v.email!);
    await agent.set(w, { role: "AXSecureTextField", name: "PIN" }, v.pin!);
    await agent.act(w, { role: "AXPopUpButton", name: "Team" }, "show_menu");
    await agent.act(w, { role: "AXMenuItem", name: v.team! }, "press", { scope: "all" });
    await agent.press(w, "OK", "AXButton");
  },
  check: (f, app) => {
    const v = f.values;
    return printed(app, `${v.name}|${v.email}|${v.pin}|${v.team}\n`, v.pin);
  },
};

/** A checklist's rows: checked first, then package, size; more than its window shows. */
const PACKAGES = [
  ["FALSE", "curl", "400 kB"],
  ["FALSE", "git", "9 MB"],
  ["TRUE", "vim", "3 MB"],
  ["FALSE", "htop", "300 kB"],
  ["FALSE", "tmux", "1 MB"],
  ["FALSE", "jq", "100 kB"],
];

/** Tick and untick rows of a checklist (one scrolled out of view), OK. */
const list: Task = {
  id: "zenity-list",
  title: "zenity --list --checklist: tick two rows (one scrolled out), untick one, OK",
  family: "GTK 3",
  prepare: (dir) => Promise.resolve({ dir, values: { tick: "git,jq", untick: "vim" } }),
  launch: (f) =>
    zenity(f.dir, "Packages", [
      "--list",
      "--checklist",
      "--text=Pick the packages to install",
      "--column=Install",
      "--column=Package",
      "--column=Size",
      ...PACKAGES.flat(),
    ]),
  async ours(agent, app, f) {
    const w = await agent.window(app.pid, /^Packages$/);
    const ticks = [
      ...f.values.tick!.split(",").map((name) => [name, "check"] as const),
      [f.values.untick!, "uncheck"] as const,
    ];
    for (const [name, action] of ticks) {
      const row = { role: "AXCell", name };
      // A row below the list's fold is brought into view first, as a person scrolls.
      await agent.act(w, row, "scroll_into_view", { scope: "all" });
      // Its tick box, first in the row, is named by the row's words.
      await agent.act(w, row, action);
    }
    await agent.press(w, "OK", "AXButton");
  },
  check: (_f, app) => printed(app, "git|jq\n"),
};

/** Open a folder in a file selection and choose a file there, OK. */
const fileSelection: Task = {
  id: "zenity-file-selection",
  title: "zenity --file-selection: open a folder, choose a file in it, OK",
  family: "GTK 3",
  async prepare(dir) {
    await Deno.mkdir(`${dir}/invoices`);
    await Deno.mkdir(`${dir}/drafts`);
    for (const name of ["2024-01.pdf", "2024-02.pdf", "2024-03.pdf", "summary.txt"]) {
      await Deno.writeTextFile(`${dir}/invoices/${name}`, `${name}\n`);
    }
    await Deno.writeTextFile(`${dir}/drafts/2024-04.pdf`, "draft\n");
    return { dir, values: { folder: "invoices", file: "2024-02.pdf" } };
  },
  launch: (f) => zenity(f.dir, "Pick an invoice", ["--file-selection", `--filename=${f.dir}/`]),
  async ours(agent, app, f) {
    const w = await agent.window(app.pid, /^Pick an invoice$/);
    await agent.act(w, { role: "AXCell", name: f.values.folder! }, "select");
    // OK on a folder opens it, as Enter does.
    await agent.press(w, "OK", "AXButton");
    await agent.act(w, { role: "AXCell", name: f.values.file! }, "select");
    await agent.press(w, "OK", "AXButton");
  },
  check: (f, app) => printed(app, `${f.dir}/${f.values.folder}/${f.values.file}\n`),
};

/** The GTK 3 tasks. */
export const GTK3_TASKS: readonly Task[] = [
  saveAs,
  overwrite,
  findReplace,
  preferences,
  forms,
  list,
  fileSelection,
];
