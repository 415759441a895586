/**
 * Keys aimed at a window land in it on every toolkit family, while another app's window is
 * on top and (with a window manager) holds the keyboard focus (issue 43). The test command
 * runs this file bare and again under openbox. Where the keys landed is read by pyatspi in
 * its own process: in the target app, and never in the other one.
 */
import assert from "node:assert/strict";
import type { DriverClient } from "../rpc/client.ts";
import { session } from "./support/client.ts";
import * as apps from "./support/apps.ts";
import { type App, requireDesktop, startApp } from "./support/apps.ts";
import { FORM_TITLE, onDocument, onFormPage, textDocument } from "./support/documents.ts";
import { oracleNodes } from "./support/oracle.ts";

requireDesktop();
const MODE = Deno.env.get("ALLTERNIT_SESSION_WM") ?? "none";

/** One family's app, and where in it the keys are meant to go. */
interface Target {
  family: string;
  start(files: string[]): Promise<App>;
  /** What is typed (the calculator takes digits). */
  text: string;
  /** Puts the app's own focus on the field the keys are for, by element, when needed. */
  prepare?(client: DriverClient, window: string): Promise<void>;
}

/** Focuses the element named `name` (a text field) through the driver. */
const focusField = (name: string) => async (client: DriverClient, window: string) => {
  const r = await client.call("read_ui", { window });
  const field = r.elements!.find((e) => e.name === name && e.actions.includes("focus"));
  assert.ok(field, `a field "${name}" that takes the focus`);
  const done = await client.call("act", {
    window,
    version: r.version,
    id: field.id,
    action: "focus",
  });
  assert.equal(done.ok, true, JSON.stringify(done));
};

const TARGETS: Target[] = [
  { family: "GTK 3 (mousepad)", start: () => apps.mousepad(), text: "zq7 gtk" },
  { family: "GTK 4 (gnome-calculator)", start: () => apps.calculator(), text: "4096" },
  { family: "Qt 5 (FeatherPad)", start: () => apps.featherpad(), text: "zq7 qt" },
  {
    family: "Gecko (Firefox ESR)",
    start: (files) => onFormPage(files, (page) => apps.firefox(page, FORM_TITLE)),
    text: "zq7",
    prepare: focusField("User name"),
  },
  {
    family: "Chromium",
    start: (files) =>
      onFormPage(files, (page) => apps.chromium(page, FORM_TITLE, "Last paragraph")),
    text: "zq7",
    prepare: focusField("User name"),
  },
  {
    family: "Java (jconsole)",
    start: () => apps.jconsole(),
    text: "zq7",
    prepare: focusField("Remote Process"),
  },
  {
    family: "LibreOffice Writer",
    start: (files) =>
      onDocument(
        files,
        textDocument(["A first paragraph."]),
        ".fodt",
        (doc) => apps.libreoffice(doc, "LibreOffice Writer"),
      ),
    // Digits first: Writer's autocorrect capitalises a sentence's first letter.
    text: "42 zq7 office",
  },
];

/** Every text a person could read in process `pid`'s windows, as pyatspi reads it. */
async function textsOf(pid: number): Promise<string> {
  return (await oracleNodes(pid, 5_000)).map((n) => `${n.name}\n${n.text ?? ""}`).join("\n");
}

for (const t of TARGETS) {
  Deno.test(`${t.family}: keys aimed at its window land there, not in the app on top (window manager: ${MODE})`, async () => {
    const files: string[] = [];
    const app = await t.start(files);
    let other: App | undefined;
    const s = await session();
    try {
      const listed = await s.client.call("list_apps");
      const window = listed.apps.find((a) => a.pid === app.pid)!.windows[0]!.window;
      await t.prepare?.(s.client, window);
      // Started last: on top of the target, and with a window manager, focused.
      other = await startApp(
        "zenity",
        ["--entry", "--title=Other app", "--text=Name", "--width=900", "--height=700"],
        "Other app",
      );
      await s.client.call("pixel_type_text", { window, text: t.text });
      const deadline = Date.now() + 5_000;
      while (!(await textsOf(app.pid)).includes(t.text) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok((await textsOf(app.pid)).includes(t.text), `the keys reached ${t.family}`);
      const fields = (await oracleNodes(other.pid, 200)).filter((n) => n.role === "text");
      assert.deepEqual(fields.map((n) => n.text ?? ""), [""], "the app on top got nothing");
    } finally {
      await s.close();
      await other?.stop();
      await app.stop();
      for (const f of files) await Deno.remove(f).catch(() => {});
    }
  });
}
