/**
 * Modal dialogs on the native toolkits besides GTK 3 (issue 43): GTK 4, Qt 5, Qt 6 and Java
 * (Swing). A button or menu item that opens a modal dialog answers with the dialog in
 * `opened`; the dialog is read and answered by element (its field set by `set_value` or by
 * keys aimed at its window); its button closes it (`closed: true`); and the app still
 * answers pyatspi afterwards. Each family runs on widget-zoo apps of our own (GTK 4's
 * modal windows answered by signal, Qt's `QDialog.exec()` whose nested loop holds the
 * DoAction reply) and on a real app. The test command runs this file with and without a
 * window manager. Every effect is checked by the app (its stdout, the disk) or by pyatspi
 * in its own process, never by the driver's answer.
 */
import assert from "node:assert/strict";
import type { DriverClient } from "../rpc/client.ts";
import { DriverError } from "../protocol/errors.ts";
import { session } from "./support/client.ts";
import {
  featherpad,
  javaFileChooserDemo,
  linguist6,
  requireDesktop,
  startApp,
} from "./support/apps.ts";
import { oracleNodes } from "./support/oracle.ts";
import { zooApp } from "./support/zoo.ts";
import {
  actOn,
  answersPyatspi,
  openedDialog,
  pressMenuItem,
  replanned,
} from "./support/desktop_steps.ts";

requireDesktop();
const MODE = Deno.env.get("ALLTERNIT_SESSION_WM") ?? "none";
const name = (what: string) => `${what} (window manager: ${MODE})`;

/** Polls `check` until it answers true, for at most `ms`; false when it never did. */
async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return await check();
}

/** Does pyatspi read a text field of process `pid` holding `text`? */
async function fieldHolds(pid: number, text: string): Promise<boolean> {
  const fields = new Set(["text", "entry", "password text"]);
  return (await oracleNodes(pid, 3_000)).some((n) => fields.has(n.role) && n.text === text);
}

/** Within 5 s, a fresh read of `window` answers `window_not_found`: it closed. */
async function goneForFreshReads(client: DriverClient, window: string): Promise<void> {
  let last = "";
  const gone = await eventually(() =>
    client.call("read_ui", { window, fresh: true }).then(
      (r) => (last = `${r.elements!.length} elements`, false),
      (
        err,
      ) => (last = err instanceof DriverError ? err.code : String(err),
        last === "window_not_found"),
    )
  );
  assert.ok(gone, `a fresh read of ${window} answers window_not_found, not ${last}`);
}

/** Text fields of `window` in the driver's map, in reading order. */
async function textFields(client: DriverClient, window: string) {
  const r = await client.call("read_ui", { window });
  return r.elements!.filter((e) => e.role === "AXTextField");
}

/** The widget zoo's modal apps: each prints the dialog's answer on stdout. */
const ZOO = [
  { family: "GTK 4", script: "gtk4_modal.py", args: [] },
  { family: "Qt 5", script: "qt_modal.py", args: ["5"] },
  { family: "Qt 6", script: "qt_modal.py", args: ["6"] },
] as const;

for (const zoo of ZOO) {
  for (const opener of ["button", "menu item"] as const) {
    Deno.test(
      name(`${zoo.family}: a ${opener} that opens a modal dialog leaves the app answering`),
      async () => {
        const app = await zooApp(zoo.script, "Modal app", [...zoo.args]);
        const s = await session();
        try {
          const main = (await s.client.call("read_ui", { app: app.pid })).window;
          const acted = opener === "button"
            ? await actOn(s.client, main, (e) => e.name === "Rename with a dialog", "press")
            : await pressMenuItem(s.client, main, "Item", "Rename");
          const dialog = openedDialog(acted, /^Rename item$/);
          await app.said((l) => l === "dialog: shown");
          await answersPyatspi(app.pid, /^Rename item$/);
          // The button's dialog gets its field by set_value and is confirmed; the menu's
          // by keys aimed at the dialog's window, and is cancelled.
          const [button, text, answer] = opener === "button"
            ? ["Rename", "Q3", "ok"]
            : ["Cancel", "draft", "cancel"];
          if (opener === "button") {
            const set = await actOn(
              s.client,
              dialog,
              (e) => e.name === "New name",
              "set_value",
              text,
            );
            assert.equal(set.ok, true, JSON.stringify(set));
          } else {
            const [field] = await textFields(s.client, dialog);
            assert.equal(field?.name, "New name", "the dialog's field, read by element");
            await s.client.call("pixel_type_text", { window: dialog, text });
          }
          assert.ok(await eventually(() => fieldHolds(app.pid, text)), `pyatspi reads "${text}"`);
          // GTK 4 names a dialog's button by its label and its tooltip ("Rename Rename").
          const done = await actOn(
            s.client,
            dialog,
            (e) => e.role === "AXButton" && e.name.split(" ")[0] === button,
            "press",
          );
          assert.equal(done.closed, true, JSON.stringify(done));
          await app.said((l) => l === `dialog: ${answer} ${text}`);
          // The app takes keys again, by its own word, and still answers pyatspi.
          await actOn(s.client, main, (e) => e.name === "Notes", "type_text", "after");
          await app.said((l) => l === "notes: after");
          await answersPyatspi(app.pid, /^Modal app$/);
        } finally {
          await s.close();
          await app.stop();
        }
      },
    );
  }
}

Deno.test(
  name("GTK 4: gtk4-demo's Interactive Dialog fills the window's entries, typed by element"),
  async () => {
    const app = await startApp("gtk4-demo", ["--run=dialog"], "Dialogs");
    const s = await session();
    try {
      const main = (await s.client.call("read_ui", { app: app.pid })).window;
      const acted = await actOn(s.client, main, (e) => /Interactive Dialog/.test(e.name), "press");
      const dialog = openedDialog(acted, /Interactive Dialog/);
      await answersPyatspi(app.pid, /Interactive Dialog/);
      const fields = await textFields(s.client, dialog);
      assert.equal(fields.length, 2, JSON.stringify(fields));
      await replanned(async () => {
        const r = await s.client.call("read_ui", { window: dialog });
        const set = await s.client.call("act", {
          window: dialog,
          version: r.version,
          id: fields[0]!.id,
          action: "set_value",
          value: "Lisbon",
        });
        assert.equal(set.ok, true, JSON.stringify(set));
      });
      const ok = await actOn(
        s.client,
        dialog,
        (e) => e.role === "AXButton" && /OK/.test(e.name),
        "press",
      );
      assert.equal(ok.closed, true, JSON.stringify(ok));
      // The demo copies the dialog's entries into its window's: the app's own effect.
      assert.ok(await eventually(() => fieldHolds(app.pid, "Lisbon")), "the window holds Lisbon");
      await answersPyatspi(app.pid, /Dialogs/);
    } finally {
      await s.close();
      await app.stop();
    }
  },
);

Deno.test(
  name("Qt 5: FeatherPad's Save As saves where its field says, typed by element"),
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "allternit-featherpad-" });
    const app = await featherpad();
    const s = await session();
    try {
      const main = (await s.client.call("read_ui", { app: app.pid })).window;
      const dialog = openedDialog(
        await pressMenuItem(s.client, main, "File", "Save As"),
        /Save/,
      );
      await answersPyatspi(app.pid, /Save/);
      const path = `${dir}/notes.txt`;
      const set = await actOn(s.client, dialog, (e) => e.role === "AXTextField", "set_value", path);
      assert.equal(set.ok, true, JSON.stringify(set));
      const saved = await actOn(
        s.client,
        dialog,
        (e) => e.role === "AXButton" && e.name === "Save",
        "press",
      );
      assert.equal(saved.closed, true, JSON.stringify(saved));
      assert.ok(
        await eventually(() => Deno.stat(path).then(() => true, () => false)),
        "the file is on disk",
      );
      await answersPyatspi(app.pid, /notes\.txt/);
    } finally {
      await s.close();
      await app.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  name("Qt 6: Linguist's Open dialog is read, typed into by keys and cancelled"),
  async () => {
    const app = await linguist6();
    const s = await session();
    try {
      const main = (await s.client.call("read_ui", { app: app.pid })).window;
      const dialog = openedDialog(await pressMenuItem(s.client, main, "File", "Open"), /Open/);
      await answersPyatspi(app.pid, /Open/);
      assert.ok((await textFields(s.client, dialog)).length > 0, "the dialog has its name field");
      // Keys aimed at the dialog's window: its name field has the focus.
      await s.client.call("pixel_type_text", { window: dialog, text: "draft.ts" });
      assert.ok(await eventually(() => fieldHolds(app.pid, "draft.ts")), "pyatspi reads the name");
      const cancel = await actOn(s.client, dialog, (e) => e.name === "Cancel", "press");
      assert.equal(cancel.closed, true, JSON.stringify(cancel));
      await answersPyatspi(app.pid, /Qt Linguist/);
      const windows = await oracleNodes(app.pid, 20, 0);
      assert.ok(!windows.some((w) => /Open/.test(w.name)), "the dialog is gone for pyatspi too");
    } finally {
      await s.close();
      await app.stop();
    }
  },
);

Deno.test(
  name("Java: FileChooserDemo's chooser is answered by element, then its message"),
  async () => {
    const app = await javaFileChooserDemo();
    const s = await session();
    try {
      const main = (await s.client.call("read_ui", { app: app.pid })).window;
      const acted = await actOn(s.client, main, (e) => /Show FileChooser/.test(e.name), "press");
      const dialog = openedDialog(acted, /Open/);
      await answersPyatspi(app.pid, /Open/);
      const set = await actOn(
        s.client,
        dialog,
        (e) => e.role === "AXTextField",
        "set_value",
        "chosen.txt",
      );
      assert.equal(set.ok, true, JSON.stringify(set));
      assert.ok(await eventually(() => fieldHolds(app.pid, "chosen.txt")), "pyatspi reads it");
      const cancel = await actOn(s.client, dialog, (e) => e.name === "Cancel", "press");
      assert.equal(cancel.ok, true, JSON.stringify(cancel));
      // Swing keeps the disposed chooser's object answering, with nothing showing: the
      // answer lacks `closed` and a read from memory still answers its emptied map (open:
      // see the README); a fresh read lists the app again and finds the window gone.
      await goneForFreshReads(s.client, dialog);
      // The demo answers the cancel with a message dialog of its own: the app's effect.
      assert.ok(
        await eventually(async () =>
          (await oracleNodes(app.pid, 400)).some((n) => /User cancelled operation/.test(n.name))
        ),
        "the demo says the operation was cancelled",
      );
      const message = (await s.client.call("list_apps")).apps.find((a) => a.pid === app.pid)!
        .windows.find((w) => w.modal === true)!.window;
      const ok = await actOn(s.client, message, (e) => e.name === "OK", "press");
      assert.equal(ok.ok, true, JSON.stringify(ok));
      await goneForFreshReads(s.client, message);
      await answersPyatspi(app.pid, /FileChooserDemo/);
    } finally {
      await s.close();
      await app.stop();
    }
  },
);
