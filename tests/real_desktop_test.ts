/**
 * A real desktop (issue 43): several apps at once, modal dialogs over their parents, keys
 * that must land in their target only. The test command runs this file twice: in the bare
 * session (containers) and with a window manager (`desktop-session.sh --wm openbox`, guest
 * desktops). Every effect is checked by the app itself (its stdout, the disk) or by pyatspi
 * in its own process, never by the driver's answer.
 */
import assert from "node:assert/strict";
import { session } from "./support/client.ts";
import { chromium, cover, mousepad, requireDesktop, startApp, thunar } from "./support/apps.ts";
import { oracleNodes } from "./support/oracle.ts";
import { zooApp } from "./support/zoo.ts";
import { actOn, answersPyatspi, openedDialog, pressMenuItem } from "./support/desktop_steps.ts";

requireDesktop();
const MODE = Deno.env.get("ALLTERNIT_SESSION_WM") ?? "none";
const name = (what: string) => `${what} (window manager: ${MODE})`;

/** The texts of process `pid`'s text fields and areas, as pyatspi reads them. */
async function textsOf(pid: number): Promise<string[]> {
  const fields = new Set(["text", "entry", "password text"]);
  return (await oracleNodes(pid, 2_000)).filter((n) => fields.has(n.role)).map((n) => n.text ?? "");
}

Deno.test(
  name("GTK 3: mousepad's Save As opens in opened, is answered by element, the app still answers"),
  async () => {
    const pad = await mousepad();
    const s = await session();
    try {
      const main = (await s.client.call("read_ui", { app: pad.pid })).window;
      const acted = await pressMenuItem(s.client, main, "File", "Save As");
      const dialog = openedDialog(acted, /^Save As$/);
      // The dialog is read at once, by the driver and by pyatspi.
      const read = await s.client.call("read_ui", { window: dialog });
      assert.ok(read.elements!.length > 10, `${read.elements!.length} elements`);
      await answersPyatspi(pad.pid, /^Save As$/);
      // Keys to the dialog (they deadlocked the app when its bridge was stuck).
      await s.client.call("pixel_type_text", { window: dialog, text: "x" });
      const cancel = await actOn(s.client, dialog, (e) => e.name === "Cancel", "press");
      assert.equal(cancel.ok, true);
      assert.equal(cancel.closed, true, "the button closed its dialog");
      await answersPyatspi(pad.pid, /Mousepad/);
      const windows = await oracleNodes(pad.pid, 20, 0);
      assert.ok(!windows.some((w) => w.name === "Save As"), "the dialog is gone for pyatspi too");
    } finally {
      await s.close();
      await pad.stop();
    }
  },
);

Deno.test(
  name("GTK 3: Thunar's Create Folder dialog makes the folder, typed by keys"),
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "allternit-thunar-" });
    const app = await thunar(dir);
    const s = await session();
    try {
      const main = (await s.client.call("read_ui", { app: app.pid })).window;
      const dialog = openedDialog(
        await pressMenuItem(s.client, main, "File", "Create Folder"),
        /Create New Folder/,
      );
      const field = await s.client.call("find", {
        window: dialog,
        query: { role: "AXTextField" },
      });
      // By keys, into the dialog only: select what it proposes, then the name.
      await s.client.call("pixel_key", { window: dialog, keys: "ctrl+a" });
      await s.client.call("pixel_type_text", { window: dialog, text: "Reports" });
      assert.ok(field.elements.length > 0);
      const created = await actOn(s.client, dialog, (e) => e.name === "Create", "press");
      assert.equal(created.closed, true, JSON.stringify(created));
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline) {
        if (await Deno.stat(`${dir}/Reports`).then(() => true, () => false)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok((await Deno.stat(`${dir}/Reports`)).isDirectory, "the folder is on disk");
      await answersPyatspi(app.pid, /Thunar/);
    } finally {
      await s.close();
      await app.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
);

for (const opener of ["button", "menu item"] as const) {
  Deno.test(
    name(`GTK 3: a ${opener} whose handler runs gtk_dialog_run leaves the app answering`),
    async () => {
      const app = await zooApp("gtk3_modal.py", "Modal app");
      const s = await session();
      try {
        const main = (await s.client.call("read_ui", { app: app.pid })).window;
        const acted = opener === "button"
          ? await actOn(s.client, main, (e) => e.name === "Rename with a dialog", "press")
          : await pressMenuItem(s.client, main, "Item", "Rename");
        const dialog = openedDialog(acted, /^Rename item$/);
        await app.said((l) => l === "dialog: shown");
        await answersPyatspi(app.pid, /^Rename item$/);
        const set = await actOn(s.client, dialog, (e) => e.name === "New name", "set_value", "Q3");
        assert.equal(set.ok, true, JSON.stringify(set));
        const done = await actOn(s.client, dialog, (e) => e.name === "Rename", "press");
        assert.equal(done.closed, true, JSON.stringify(done));
        await app.said((l) => l === "dialog: ok Q3");
        // The app takes keys again, by its own word, and still answers pyatspi.
        await s.client.call("pixel_key", { window: main, keys: "Tab" });
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

Deno.test(name("keys aimed at a window land there while another app holds the focus"), async () => {
  const pad = await mousepad();
  // Started last: on top, and (with a window manager) focused.
  const other = await startApp(
    "zenity",
    ["--entry", "--title=Other app", "--text=Name"],
    "Other app",
  );
  const s = await session();
  try {
    const apps = await s.client.call("list_apps");
    const win = apps.apps.find((a) => a.pid === pad.pid)!.windows[0]!.window;
    await s.client.call("pixel_type_text", { window: win, text: "meant for mousepad" });
    assert.ok((await textsOf(pad.pid)).includes("meant for mousepad"));
    assert.deepEqual((await textsOf(other.pid)).filter((t) => t !== ""), [], "zenity got nothing");
  } finally {
    await s.close();
    await pad.stop();
    await other.stop();
  }
});

Deno.test(
  name("set_value by keys in Chromium never types into the app that holds the focus"),
  async () => {
    const page = await Deno.makeTempFile({ suffix: ".html" });
    await Deno.writeTextFile(
      page,
      `<!doctype html><title>Keys page</title><label>City <input id="c"></label><p>Keys end</p>`,
    );
    const web = await chromium(page, "Keys page", "Keys end");
    const other = await startApp(
      "zenity",
      ["--entry", "--title=Other app", "--text=Name"],
      "Other app",
    );
    const s = await session();
    try {
      const r = await s.client.call("read_ui", { app: web.pid });
      const field = r.elements!.find((e) => e.role === "AXTextField" && e.name === "City")!;
      const set = await s.client.call("act", {
        window: r.window,
        version: r.version,
        id: field.id,
        action: "set_value",
        value: "Lisbon",
      });
      // Landed, or refused because the focus could not be had: never typed elsewhere.
      if (set.ok) assert.ok((await textsOf(web.pid)).includes("Lisbon"));
      assert.deepEqual(
        (await textsOf(other.pid)).filter((t) => t !== ""),
        [],
        "zenity got nothing",
      );
      assert.equal(set.ok, true, JSON.stringify(set));
    } finally {
      await s.close();
      await other.stop();
      await web.stop();
      await Deno.remove(page);
    }
  },
);

Deno.test(
  name("five presses on a covered Chromium page each answer their own effect"),
  async () => {
    const page = await Deno.makeTempFile({ suffix: ".html" });
    await Deno.writeTextFile(
      page,
      `<!doctype html><title>Counter page</title><script>window.c = 0</script>
     <button onclick="document.getElementById('n').textContent = 'Count ' + (++window.c)">Add one</button>
     <p id="n">Count 0</p>`,
    );
    const web = await chromium(page, "Counter page", "Count 0");
    const lid = await cover();
    const s = await session();
    try {
      let r = await s.client.call("read_ui", { app: web.pid });
      for (let i = 1; i <= 5; i++) {
        const acted = await actOn(s.client, r.window, (e) => e.name === "Add one", "press");
        const names = [...acted.changed ?? [], ...acted.added ?? []].map((e) => e.name);
        assert.ok(names.includes(`Count ${i}`), `press ${i}: ${JSON.stringify(names)}`);
        const shown = (await oracleNodes(web.pid, 400)).some((n) => n.name === `Count ${i}`);
        assert.ok(shown, `pyatspi reads Count ${i}`);
        r = await s.client.call("read_ui", { window: r.window });
      }
    } finally {
      await s.close();
      await lid.stop();
      await web.stop();
      await Deno.remove(page);
    }
  },
);
