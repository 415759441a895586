/**
 * Reads on every toolkit family (issue 19): two apps of each, all from Debian's packages,
 * read by the driver and walked by pyatspi in its own process. Every showing node with a
 * name or text in pyatspi's walk is in the map with that text and a consistent role (at
 * least 98 %), and the read costs the app under 1 CPU-second and 50 MB.
 */
import assert from "node:assert/strict";
import type { ActionName, Element } from "../protocol/element.ts";
import { type App, requireDesktop } from "./support/apps.ts";
import * as apps from "./support/apps.ts";
import { session } from "./support/client.ts";
import {
  FORM_TITLE,
  onDocument,
  onFormPage,
  presentation,
  sheet,
  sheetValue,
  textDocument,
} from "./support/documents.ts";
import { oracleNodes, oracleShown, oracleState } from "./support/oracle.ts";
import { parity } from "./support/parity.ts";
import { costOf, quiet } from "./support/proc_cost.ts";
import type { DriverClient } from "../rpc/client.ts";

requireDesktop();

/** One app of the matrix. */
interface MatrixApp {
  family: string;
  label: string;
  /** Starts it; `files` collects temporary files to remove afterwards. */
  start(files: string[]): Promise<App>;
  /** Part of its window title, for the oracle. */
  title: string;
  /** GTK 4 marks its widgets VISIBLE, never SHOWING. */
  state?: "visible";
  /** Checks of the family's own content. */
  check?(elements: Element[], client: DriverClient, window: string, pid: number): Promise<void>;
}

const WRITER_LINES = ["First paragraph of the letter.", "Second paragraph, with the total."];
const SLIDES = [["Quarterly review", "Sales revenue up 12 %"], ["Next steps"]];

/**
 * The screen rectangle of process `pid`'s window titled `title`, as xwininfo reads it
 * (xdotool finds the window). Not `xdotool getwindowgeometry`: under a reparenting window
 * manager it adds the frame's offset once more (192,177 where xwininfo and the window's
 * own XTranslateCoordinates say 191,157).
 */
async function xGeometry(pid: number, title: string) {
  const run = async (cmd: string, args: string[]) =>
    new TextDecoder().decode((await new Deno.Command(cmd, { args }).output()).stdout);
  const [xid] = (await run("xdotool", ["search", "--all", "--pid", String(pid), "--name", title]))
    .split("\n");
  const info = await run("xwininfo", ["-id", xid!]);
  const v = (k: string) => Number(new RegExp(`${k}:\\s+(-?\\d+)`).exec(info)?.[1]);
  return {
    x: v("Absolute upper-left X"),
    y: v("Absolute upper-left Y"),
    w: v("Width"),
    h: v("Height"),
  };
}

/**
 * Reads `window` anew, acts on the element `pick` chooses (`what` names it in failures)
 * and asserts the driver's `ok`; the effect is for the caller to read back by pyatspi.
 */
async function actOn(
  client: DriverClient,
  window: string,
  what: string,
  pick: (e: Element) => boolean,
  action: ActionName,
  value?: string,
): Promise<void> {
  const now = await client.call("read_ui", { window });
  const e = now.elements!.find(pick);
  assert.ok(e, what);
  const r = await client.call("act", {
    window,
    version: now.version,
    id: e.id,
    action,
    ...(value === undefined ? {} : { value }),
  });
  assert.equal(r.ok, true, `${action} ${what}: ${JSON.stringify(r)}`);
}

/** The page's message is in the map, and `find` finds it by its text. */
async function pageMessageFindable(els: Element[], client: DriverClient, window: string) {
  assert.ok(
    els.some((e) => e.name === "Not signed in" || e.value === "Not signed in"),
    "the paragraph carries its text",
  );
  const found = await client.call("find", { window, query: { text_contains: "not signed" } });
  // Chromium lists the paragraph and its text leaf; Gecko the paragraph alone.
  assert.ok(found.elements.length >= 1, "find sees the page's message");
  for (const e of found.elements) assert.match(`${e.name} ${e.value}`, /Not signed in/);
}

const MATRIX: MatrixApp[] = [
  { family: "GTK 3", label: "mousepad", start: () => apps.mousepad(), title: "Mousepad" },
  {
    family: "GTK 3",
    label: "Thunar",
    start: () => apps.thunar("/usr/share"),
    title: "Thunar",
  },
  {
    family: "GTK 4",
    label: "gnome-calculator",
    start: () => apps.calculator(),
    title: "Calculator",
    state: "visible",
  },
  {
    family: "GTK 4",
    label: "gtk4-demo",
    start: () => apps.gtk4Demo(),
    title: "GTK Demo",
    state: "visible",
  },
  { family: "Qt 5", label: "FeatherPad", start: () => apps.featherpad(), title: "Untitled" },
  { family: "Qt 5", label: "SpeedCrunch", start: () => apps.speedcrunch(), title: "SpeedCrunch" },
  { family: "Qt 6", label: "Designer", start: () => apps.designer6(), title: "New Form" },
  { family: "Qt 6", label: "Linguist", start: () => apps.linguist6(), title: "Qt Linguist" },
  {
    family: "Gecko",
    label: "Firefox ESR on a form page",
    start: (files) => onFormPage(files, (page) => apps.firefox(page, FORM_TITLE)),
    title: FORM_TITLE,
    check: pageMessageFindable,
  },
  { family: "Gecko", label: "Thunderbird", start: () => apps.thunderbird(), title: "Thunderbird" },
  {
    family: "Chromium",
    label: "Chromium on a form page",
    start: (files) =>
      onFormPage(files, (page) => apps.chromium(page, FORM_TITLE, "Last paragraph")),
    title: FORM_TITLE,
    check: pageMessageFindable,
  },
  {
    family: "Chromium",
    label: "Chromium app window (as Electron)",
    start: (files) =>
      onFormPage(files, (page) => apps.chromium(page, FORM_TITLE, "Last paragraph", true)),
    title: FORM_TITLE,
    check: pageMessageFindable,
  },
  {
    family: "Java",
    label: "jconsole (Swing)",
    start: () => apps.jconsole(),
    title: "Java Monitoring",
    async check(els, client, window, pid) {
      const named = (role: string, name: string) => {
        const e = els.find((e) => e.role === role && e.name === name);
        assert.ok(e, `the dialog's ${role} "${name}"`);
        return e;
      };
      named("AXButton", "Connect");
      // The ATK wrapper gives its frame no extents: the window's bounds are X's, as xdotool
      // reads them, and the window can be captured.
      const frame = els.find((e) => e.role === "AXWindow");
      assert.deepEqual(frame?.bounds, await xGeometry(pid, "Java Monitoring"));
      const shot = await client.call("screenshot", { window });
      assert.deepEqual([shot.width, shot.height], [frame!.bounds.w, frame!.bounds.h]);
      // Text entry and a radio button, each effect read back by pyatspi.
      const field = named("AXTextField", "Remote Process");
      await actOn(
        client,
        window,
        "the address field",
        (e) => e.id === field.id,
        "set_value",
        "localhost:9010",
      );
      const texts = await oracleNodes(pid);
      const typed = texts.find((n) => n.role === "text" && n.name === "Remote Process");
      assert.equal(typed?.text, "localhost:9010", "pyatspi reads the typed address");
      const remote = (e: Element) => e.role === "AXRadioButton" && e.name === "Remote Process:";
      await actOn(client, window, "the Remote Process radio button", remote, "check");
      const seen = await oracleState(pid, "radio button", "Remote Process:");
      assert.ok(seen?.states.includes("checked"), `pyatspi: checked (${seen?.states})`);
    },
  },
  {
    family: "Java",
    label: "FileChooserDemo (Swing demo)",
    start: () => apps.javaFileChooserDemo(),
    title: "FileChooserDemo",
    async check(_els, client, window, pid) {
      const act = (role: string, name: string, action: ActionName) =>
        actOn(
          client,
          window,
          `the ${role} "${name}"`,
          (e) => e.role === role && e.name === name,
          action,
        );
      const states = async (role: string, name: string) =>
        (await oracleState(pid, role, name))?.states ?? [];
      // A check box both ways, each read back by pyatspi.
      assert.ok(!(await states("check box", "Show Hidden Files")).includes("checked"));
      await act("AXCheckBox", "Show Hidden Files", "check");
      assert.ok((await states("check box", "Show Hidden Files")).includes("checked"));
      await act("AXCheckBox", "Show Hidden Files", "uncheck");
      assert.ok(!(await states("check box", "Show Hidden Files")).includes("checked"));
      // The Custom radio button enables the field beside it, which then takes text.
      await act("AXRadioButton", "Custom", "check");
      assert.ok((await states("radio button", "Custom")).includes("checked"));
      const field = (e: Element) => e.role === "AXTextField";
      await actOn(client, window, "the custom button's text field", field, "set_value", "Pick");
      const texts = await oracleNodes(pid);
      assert.ok(texts.some((n) => n.role === "text" && n.text === "Pick"), "pyatspi reads Pick");
    },
  },
  {
    family: "LibreOffice",
    label: "Calc, a sheet of 40 rows",
    start: (files) =>
      onDocument(files, sheet(40), ".fods", (doc) => apps.libreoffice(doc, "LibreOffice Calc")),
    title: "LibreOffice Calc",
    async check(els, client, window) {
      const table = els.find((e) => e.table !== undefined);
      assert.ok(table, "the sheet is a table read by its visible range");
      assert.equal(table.table!.rows, 1_048_576);
      assert.equal(table.table!.first_row, 0);
      assert.ok(table.table!.last_row >= 20, `rows shown: ${JSON.stringify(table.table)}`);
      // Every cell read holds the document's value at its address.
      const cells = els.filter((e) => e.parent === table.id);
      assert.ok(cells.length >= 60, `${cells.length} cells`);
      for (const c of cells) {
        const [, col, row] = /^([A-Z]+)(\d+)$/.exec(c.name) ?? [];
        assert.ok(col && row, `cell named by its address: ${c.name}`);
        const r = Number(row) - 1;
        const k = col.charCodeAt(0) - 65;
        const want = r <= 40 && k < 3 ? sheetValue(r, k) : undefined;
        assert.equal(c.value, want, `cell ${c.name}`);
      }
      const found = await client.call("find", { window, query: { text_contains: "Row 7" } });
      assert.deepEqual(found.elements.map((e) => e.name), ["A8"]);
    },
  },
  {
    family: "LibreOffice",
    label: "Writer, a two-paragraph document",
    start: (files) =>
      onDocument(
        files,
        textDocument(WRITER_LINES),
        ".fodt",
        (doc) => apps.libreoffice(doc, "LibreOffice Writer"),
      ),
    title: "LibreOffice Writer",
    async check(els, client, window) {
      for (const line of WRITER_LINES) {
        assert.ok(els.some((e) => e.value === line), `the document's "${line}"`);
      }
      const found = await client.call("find", { window, query: { text_contains: "the total" } });
      assert.equal(found.elements.length, 1);
    },
  },
  {
    family: "LibreOffice",
    label: "Impress, a two-slide presentation",
    start: (files) =>
      onDocument(
        files,
        presentation(SLIDES),
        ".fodp",
        (doc) => apps.libreoffice(doc, "LibreOffice Impress"),
      ),
    title: "LibreOffice Impress",
    async check(els, client, window) {
      // The slide in the edit view shows its text box with its lines.
      for (const line of SLIDES[0]!) {
        assert.ok(els.some((e) => e.value === line || e.name === line), `the slide's "${line}"`);
      }
      const found = await client.call("find", { window, query: { text_contains: "revenue up" } });
      assert.ok(found.elements.length >= 1, "the slide's text is findable");
    },
  },
];

for (const m of MATRIX) {
  Deno.test(`${m.family}: ${m.label} reads like pyatspi's walk, and the read costs it little`, async () => {
    const files: string[] = [];
    const app = await m.start(files);
    const s = await session();
    try {
      await quiet(app.pid);
      const { result: r, cpuMs, rssGrowthMb } = await costOf(
        app.pid,
        () => s.client.call("read_ui", { app: app.pid }),
      );
      assert.equal(r.engine, "atspi", `${m.label} is read from its tree`);
      const els = r.elements!;
      // The app answers the oracle right after the read: the read did not hurt it.
      const nodes = await oracleShown(app.pid, m.title, m.state);
      const p = parity(els, nodes);
      const share = p.found / p.total;
      assert.ok(p.total >= 5, `the oracle saw ${p.total} named nodes`);
      assert.ok(
        share >= 0.98,
        `parity ${(share * 100).toFixed(1)} % (${p.found}/${p.total}); missing: ${
          p.missing.slice(0, 10).join("; ")
        }; other role: ${p.wrongRole.slice(0, 10).join("; ")}`,
      );
      assert.ok(cpuMs < 1_000, `the read cost the app ${cpuMs} ms of CPU`);
      assert.ok(rssGrowthMb < 50, `the app grew by ${rssGrowthMb.toFixed(1)} MB`);
      await m.check?.(els, s.client, r.window, app.pid);
    } finally {
      await s.close();
      await app.stop();
      for (const f of files) await Deno.remove(f).catch(() => {});
    }
  });
}

Deno.test("Qt 5: FeatherPad's events are followed and its actions work as on GTK", async () => {
  const app = await apps.featherpad();
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: app.pid });
    const area = r.elements!.find((e) => e.role === "AXTextArea")!;
    const typed = await s.client.call("act", {
      window: r.window,
      id: area.id,
      action: "type_text",
      value: "hello qt",
      version: r.version,
    });
    assert.equal(typed.ok, true);
    assert.equal(typed.via, "action");
    // The app's own tree holds the text (pyatspi, another process).
    const text = () =>
      oracleNodes(app.pid).then((ns) => ns.find((n) => n.role === "text" && n.text)?.text);
    assert.equal(await text(), "hello qt");
    // Keys from outside the driver reach the map through the app's notifications.
    const typist = await new Deno.Command("xdotool", { args: ["type", "--delay", "20", " more"] })
      .output();
    assert.ok(typist.success, "xdotool typed");
    const seen = await s.client.call("verify", {
      window: r.window,
      id: area.id,
      expect: { value: "hello qt more" },
      timeout_ms: 5_000,
    });
    assert.equal(seen.ok, true, `the map follows Qt's text events: ${seen.actual?.value}`);
    // A toolbar button is pressed through its own action: FeatherPad moves the focus from
    // the document to its find bar's entry.
    const focusedText = async () =>
      (await oracleNodes(app.pid)).filter((n) => n.focused).map((n) => `${n.role}:${n.text ?? ""}`);
    // Qt marks the focused widget's containers focused too.
    assert.ok((await focusedText()).includes("text:hello qt more"), "the document has the focus");
    const find = r.elements!.find((e) => e.role === "AXButton" && e.name === "Find")!;
    const pressed = await s.client.call("act", {
      window: r.window,
      id: find.id,
      action: "press",
      version: seen.version,
    });
    assert.equal(pressed.via, "action");
    assert.equal(pressed.ok, true);
    const now = await focusedText();
    assert.ok(!now.includes("text:hello qt more"), `focus left the document: ${now}`);
    assert.ok(now.some((n) => n.startsWith("text:")), `an entry has the focus: ${now}`);
  } finally {
    await s.close();
    await app.stop();
  }
});
