/**
 * Tasks on GTK 3 apps: mousepad (a text editor), zenity (forms, lists, file selections).
 *
 * @module
 */
import { expect, type Task } from "./task.ts";
import { launch } from "./launch.ts";

/** Reads a file, or undefined when it is not there. */
const read = (path: string) => Deno.readTextFile(path).catch(() => undefined);

/** Mousepad on `file`. */
const mousepad = (dir: string, file: string) =>
  launch({ cmd: "mousepad", args: ["--disable-server", file], window: "Mousepad", dir });

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

/** The GTK 3 tasks. */
export const GTK3_TASKS: readonly Task[] = [saveAs];
