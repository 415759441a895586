/**
 * Tasks on LibreOffice Calc, Writer and Impress (7.4, its GTK 3 front end): cells filled
 * and a formula added, a range sorted through Data ▸ Sort, a heading styled and the
 * document exported to PDF, paragraphs saved as ODF, a slide added and titled; every
 * document saved through the GTK file chooser LibreOffice shows, and the CSV filter's
 * two questions answered.
 *
 * Each run starts LibreOffice with a user profile and a home of its own under the task's
 * directory (a fresh profile asks the same first-run questions every time: Impress's
 * template chooser), and each checker reads the saved file itself: a CSV's bytes, the
 * text `soffice --headless --convert-to` takes out of an ODF file or a PDF (in a profile
 * of its own again), or a presentation's content.xml read by Python's zipfile.
 *
 * @module
 */
import { expect, type Fixture, type Running, type Task } from "./task.ts";
import type { Acted, Agent } from "./agent.ts";
import { homeIn } from "./launch.ts";
import { childNamed, waitForAccessible } from "../../tests/support/apps.ts";

const SOFFICE = "/usr/lib/libreoffice/program/soffice";

/** How long LibreOffice may take to come up on a loaded machine (a new profile is built). */
const START_MS = 90_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Is process `pid` there and not a zombie? */
async function alive(pid: number): Promise<boolean> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
  return stat !== "" && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

/** SIGTERM to `pid`, SIGKILL when it is still there 3 s later. */
async function stopPid(pid: number): Promise<void> {
  try {
    Deno.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline && await alive(pid)) await sleep(50);
  try {
    if (await alive(pid)) Deno.kill(pid, "SIGKILL");
  } catch { /* gone */ }
}

/**
 * LibreOffice on `args` (a file, or `--writer`/`--impress` for a new document), with a
 * profile and a home of its own under `dir`, once its window is on the bus. The `soffice`
 * launcher runs soffice.bin as its child and, on a new profile, starts it a second time
 * once the profile is made: the app is the child that reaches the bus with a window.
 */
async function office(dir: string, args: string[]): Promise<Running> {
  try {
    return await startOffice(dir, args);
  } catch (first) {
    // On a loaded machine a start once never brought the launcher's child up in 90 s. A
    // start is not part of a policy's time: a second one, on a new profile, is fair.
    try {
      return await startOffice(dir, args);
    } catch (second) {
      throw new Error(`${(first as Error).message}; again: ${(second as Error).message}`);
    }
  }
}

/** One start of {@link office}. */
async function startOffice(dir: string, args: string[]): Promise<Running> {
  const env = await homeIn(dir);
  const launcher = new Deno.Command(SOFFICE, {
    args: [`-env:UserInstallation=file://${dir}/profile`, "--norestore", "--nologo", ...args],
    cwd: dir,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    env,
  }).spawn();
  const stop = async (pid?: number) => {
    if (pid !== undefined) await stopPid(pid);
    await stopPid(launcher.pid);
    await launcher.status;
    // A profile is some megabytes; the task's directory stays for a look at its files.
    await Deno.remove(`${dir}/profile`, { recursive: true }).catch(() => {});
  };
  const deadline = Date.now() + START_MS;
  let exited: Deno.CommandStatus | undefined;
  launcher.status.then((s) => exited = s);
  let pid: number | undefined;
  try {
    while (pid === undefined) {
      if (exited) throw new Error(`soffice ${args.join(" ")} exited with ${exited.code}`);
      const child = await childNamed(launcher.pid, "soffice.bin", 5_000).catch(() => undefined);
      // The first child may be the one that only builds the profile: it never shows, and
      // is not waited for once it is gone.
      while (child !== undefined && pid === undefined && await alive(child)) {
        if (await waitForAccessible(child, 2_000).then(() => true, () => false)) pid = child;
        else if (Date.now() > deadline) break;
      }
      if (pid === undefined && Date.now() > deadline) {
        throw new Error(`soffice ${args.join(" ")} showed no window in ${START_MS} ms`);
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const app = pid;
  return { pid: app, output: () => Promise.resolve(""), stop: () => stop(app) };
}

/**
 * `file` converted by a headless LibreOffice of its own (its own profile, beside the app's)
 * to `to` (`txt:Text`, `fodg`), read through `infilter` when given; the converted file's
 * text.
 */
async function converted(f: Fixture, file: string, to: string, infilter?: string) {
  const out = `${f.dir}/converted`;
  await Deno.mkdir(out, { recursive: true });
  const run = await new Deno.Command(SOFFICE, {
    args: [
      `-env:UserInstallation=file://${f.dir}/check-profile`,
      "--headless",
      "--norestore",
      ...(infilter ? [`--infilter=${infilter}`] : []),
      "--convert-to",
      to,
      "--outdir",
      out,
      file,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { HOME: `${f.dir}/home` },
  }).output();
  const base = file.slice(file.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "");
  const ext = to.split(":")[0]!;
  const text = await Deno.readTextFile(`${out}/${base}.${ext}`).catch(() => undefined);
  await Deno.remove(`${f.dir}/check-profile`, { recursive: true }).catch(() => {});
  if (text === undefined) {
    throw new Error(
      `soffice --convert-to ${to} made nothing: ${new TextDecoder().decode(run.stderr).trim()}`,
    );
  }
  return text;
}

/** The bytes of `path` once it exists and stopped growing (an app writes after its dialog). */
async function settledFile(path: string, ms = 10_000): Promise<Uint8Array | undefined> {
  const deadline = Date.now() + ms;
  let last = -1;
  while (Date.now() < deadline) {
    const size = await Deno.stat(path).then((s) => s.size, () => -1);
    if (size > 0 && size === last) return await Deno.readFile(path);
    last = size;
    await sleep(250);
  }
  return await Deno.readFile(path).catch(() => undefined);
}

/** Reads a file's text once it is written, or undefined when it never is. */
async function settledText(path: string): Promise<string | undefined> {
  const bytes = await settledFile(path);
  return bytes && new TextDecoder().decode(bytes);
}

/** The XML of a flat ODF spreadsheet of `rows` (strings, or numbers as floats). */
function fods(sheet: string, rows: readonly (readonly (string | number)[])[]): string {
  const cell = (v: string | number) =>
    typeof v === "number"
      ? `<table:table-cell office:value-type="float" office:value="${v}"><text:p>${v}</text:p></table:table-cell>`
      : `<table:table-cell office:value-type="string"><text:p>${v}</text:p></table:table-cell>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet><table:table table:name="${sheet}">
${rows.map((r) => `<table:table-row>${r.map(cell).join("")}</table:table-row>`).join("\n")}
</table:table></office:spreadsheet></office:body></office:document>
`;
}

/** The window among those an action `opened` whose title matches `title`. */
function openedWindow(out: Acted, title: RegExp): string {
  const w = out.opened?.find((o) => title.test(o.title))?.window;
  expect(w, `no window ${title} opened: ${JSON.stringify(out.opened ?? [])}`);
  return w;
}

/**
 * File ▸ Save As… in `main`, the file type chosen in the chooser's type menu when given,
 * the full path typed as the name, and Save pressed.
 */
async function saveAs(agent: Agent, main: string, path: string, type?: string): Promise<void> {
  const dialog = openedWindow(await agent.menu(main, "File", "Save As..."), /^Save/);
  if (type) {
    const menu = await agent.act(dialog, { role: "AXPopUpButton" }, "show_menu");
    const list = openedWindow(menu, /.*/);
    await agent.act(list, { role: "AXMenuItem", name: type }, "press", { scope: "all" });
  }
  await agent.set(dialog, { role: "AXTextField", name: "Name" }, path);
  await agent.press(dialog, "Save", "AXButton");
}

/** Fill a sheet's range, add a SUM formula, save it as CSV through the format dialogs. */
const calcSumCsv: Task = {
  id: "calc-sum-csv",
  title: "Calc: fill a range, add a =SUM formula, save as CSV (file chooser, keep format, options)",
  family: "Calc",
  async prepare(dir) {
    await Deno.writeTextFile(`${dir}/budget.fods`, fods("Budget", [["Item", "Cost"]]));
    return { dir, values: { file: `${dir}/budget.fods`, csv: `${dir}/budget.csv` } };
  },
  launch: (f) => office(f.dir, [f.values.file!]),
  async ours(agent, app, f) {
    const main = await agent.window(app.pid, /budget\.fods/);
    const cells: [string, string][] = [
      ["A2", "Rent"],
      ["B2", "1200"],
      ["A3", "Food"],
      ["B3", "350"],
      ["A4", "Travel"],
      ["B4", "80"],
      ["A5", "Total"],
      ["B5", "=SUM(B2:B4)"],
    ];
    for (const [name, value] of cells) await agent.set(main, { role: "AXCell", name }, value);
    await saveAs(agent, main, f.values.csv!, "Text CSV (.csv)");
    const keep = await agent.window(app.pid, /^Question$/);
    await agent.press(keep, "Use Text CSV Format", "AXButton");
    const options = await agent.window(app.pid, /^Export Text File$/);
    await agent.act(options, {
      role: "AXCheckBox",
      name: "Save cell formulas instead of calculated values",
    }, "check");
    await agent.press(options, "OK", "AXButton");
    // Calc retitles its window once the file is written.
    await agent.window(app.pid, /^budget\.csv - LibreOffice Calc$/);
  },
  async check(f) {
    const want = "Item,Cost\nRent,1200\nFood,350\nTravel,80\nTotal,=SUM(B2:B4)\n";
    const csv = await settledText(f.values.csv!);
    return csv === want ? undefined : `budget.csv holds ${JSON.stringify(csv)}`;
  },
};

/** The unsorted table of calc-sort-export, and the CSV it must end as. */
const SCORES: [string, number][] = [
  ["Dana", 72],
  ["Ari", 91],
  ["Lee", 65],
  ["Kim", 88],
  ["Bo", 79],
];
const SORTED_CSV = "Name,Score\n" +
  [...SCORES].sort((a, b) => a[1] - b[1]).map(([n, s]) => `${n},${s}\n`).join("");

/** Select a table, sort it by its second column through the Sort dialog, save as CSV. */
const calcSortExport: Task = {
  id: "calc-sort-export",
  title: "Calc: select a table, Data ▸ Sort ascending by Score in its dialog, save as CSV",
  family: "Calc",
  async prepare(dir) {
    await Deno.writeTextFile(`${dir}/scores.fods`, fods("Scores", [["Name", "Score"], ...SCORES]));
    return { dir, values: { file: `${dir}/scores.fods`, csv: `${dir}/scores.csv` } };
  },
  launch: (f) => office(f.dir, [f.values.file!]),
  async ours(agent, app, f) {
    const main = await agent.window(app.pid, /scores\.fods/);
    // The Name Box (the formula bar's unnamed field that shows the cell address) selects
    // a range by its address.
    await agent.set(
      main,
      { role: "AXTextField", value: "A1" },
      `A1:B${SCORES.length + 1}`,
      "enter",
    );
    const sort = openedWindow(await agent.menu(main, "Data", "Sort..."), /^Sort$/);
    // Each sort key is a group holding a drop-down of the range's columns.
    const read = await agent.call("read_ui", { window: sort });
    const els = read.elements ?? [];
    const key = els.find((e) => e.role === "AXGroup" && e.name === "Sort Key 1");
    expect(key, "no group Sort Key 1 in the Sort dialog");
    const byId = new Map(els.map((e) => [e.id, e]));
    const inKey = (id: string | undefined): boolean =>
      id === key.id || (id !== undefined && inKey(byId.get(id)?.parent));
    const dropDown = els.find((e) => e.actions.includes("show_menu") && inKey(e.parent));
    expect(dropDown, "Sort Key 1 has no drop-down");
    const shown = await agent.call("act", {
      window: sort,
      version: read.version,
      id: dropDown.id,
      action: "show_menu",
      guard: "element",
    });
    expect(shown.ok, `show_menu on Sort Key 1: ${JSON.stringify(shown.value)}`);
    const list = openedWindow(shown, /.*/);
    await agent.act(list, { role: "AXCell", name: "Score" }, "select");
    await agent.act(sort, { role: "AXRadioButton", name: "Ascending" }, "check");
    await agent.press(sort, "OK", "AXButton");
    await agent.waitGone(app.pid, /^Sort$/);
    await saveAs(agent, main, f.values.csv!, "Text CSV (.csv)");
    const keep = await agent.window(app.pid, /^Question$/);
    await agent.press(keep, "Use Text CSV Format", "AXButton");
    const options = await agent.window(app.pid, /^Export Text File$/);
    await agent.press(options, "OK", "AXButton");
    await agent.window(app.pid, /^scores\.csv - LibreOffice Calc$/);
  },
  async check(f) {
    const csv = await settledText(f.values.csv!);
    return csv === SORTED_CSV ? undefined : `scores.csv holds ${JSON.stringify(csv)}`;
  },
};

/** The words of writer-heading-pdf. */
const REPORT_TITLE = "Quarterly Report";
const REPORT_BODY = "Revenue grew by twelve percent this quarter.";

/** Type a title, style it Heading 1, add a paragraph, export as tagged PDF. */
const writerHeadingPdf: Task = {
  id: "writer-heading-pdf",
  title: "Writer: type a title, style it Heading 1, a paragraph, Export as PDF (tagged)",
  family: "Writer",
  prepare(dir) {
    return Promise.resolve({
      dir,
      values: { title: REPORT_TITLE, body: REPORT_BODY, pdf: `${dir}/report.pdf` },
    });
  },
  launch: (f) => office(f.dir, ["--writer"]),
  async ours(agent, app, f) {
    const main = await agent.window(app.pid, /LibreOffice Writer/);
    // A new document holds the keyboard's focus in its first paragraph.
    await agent.call("pixel_type_text", { window: main, text: REPORT_TITLE });
    // The Paragraph Style box: an unnamed field showing the paragraph's style.
    await agent.set(
      main,
      { role: "AXTextField", value: "Default Paragraph Style" },
      "Heading 1",
      "enter",
    );
    await agent.key(main, "Return");
    await agent.call("pixel_type_text", { window: main, text: REPORT_BODY });
    const options = openedWindow(
      await agent.menu(main, "File", "Export as PDF..."),
      /^PDF Options$/,
    );
    await agent.act(
      options,
      { role: "AXCheckBox", name: "Tagged PDF (add document structure)" },
      "check",
    );
    await agent.press(options, "Export", "AXButton");
    const chooser = await agent.window(app.pid, /^Export$/);
    await agent.set(chooser, { role: "AXTextField", name: "Name" }, f.values.pdf!);
    await agent.press(chooser, "Export", "AXButton");
    await agent.waitGone(app.pid, /^Export$/);
  },
  async check(f) {
    const pdf = await settledFile(f.values.pdf!);
    if (!pdf) return "no report.pdf";
    const raw = new TextDecoder("latin1").decode(pdf);
    if (!raw.startsWith("%PDF-")) return "report.pdf is no PDF";
    if (!raw.includes("/StructTreeRoot")) return "report.pdf is not tagged";
    // LibreOffice's own PDF import lays the text out again, a span per run with its font.
    const drawing = await converted(f, f.values.pdf!, "fodg", "draw_pdf_import");
    const styles = new Map<string, string>();
    for (
      const m of drawing.matchAll(/<style:style style:name="([^"]+)"[^>]*>(.*?)<\/style:style>/gs)
    ) {
      styles.set(m[1]!, m[2]!);
    }
    const spans = [...drawing.matchAll(/<text:span text:style-name="([^"]+)">([^<]*)</g)]
      .map((m) => ({ text: m[2]!, style: styles.get(m[1]!) ?? "" }));
    const size = (s: string) => Number(/fo:font-size="([\d.]+)pt"/.exec(s)?.[1] ?? 0);
    const bold = (s: string) => /fo:font-weight="bold"/.test(s);
    const title = spans.find((s) => s.text.trim() === REPORT_TITLE);
    const body = spans.find((s) => s.text.trim() === REPORT_BODY);
    if (!title || !body) return `the PDF reads ${JSON.stringify(spans.map((s) => s.text))}`;
    // Heading 1 is 130 % of 14 pt, bold; the body's Text Body is 12 pt, regular.
    if (!(size(title.style) >= 16 && bold(title.style))) {
      return `the title is ${size(title.style)} pt${bold(title.style) ? " bold" : ""}, no heading`;
    }
    if (size(body.style) >= 16 || bold(body.style)) return "the body is styled as a heading";
    return undefined;
  },
};

/** The paragraphs of writer-save-odt. */
const MINUTES = [
  "Minutes of the garden committee",
  "The new benches arrive on Monday.",
  "Volunteers meet at the gate at nine.",
];

/** Type paragraphs into a new document and save it as ODF through the chooser. */
const writerSaveOdt: Task = {
  id: "writer-save-odt",
  title: "Writer: type three paragraphs, save as .odt through the file chooser",
  family: "Writer",
  prepare(dir) {
    return Promise.resolve({
      dir,
      values: { text: MINUTES.join("\n"), odt: `${dir}/minutes.odt` },
    });
  },
  launch: (f) => office(f.dir, ["--writer"]),
  async ours(agent, app, f) {
    const main = await agent.window(app.pid, /LibreOffice Writer/);
    await agent.call("pixel_type_text", { window: main, text: MINUTES.join("\n") });
    await saveAs(agent, main, f.values.odt!);
    await agent.window(app.pid, /^minutes\.odt - LibreOffice Writer$/);
  },
  async check(f) {
    if (!await settledFile(f.values.odt!)) return "no minutes.odt";
    const text = await converted(f, f.values.odt!, "txt:Text");
    const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/).filter((l) => l !== "");
    return JSON.stringify(lines) === JSON.stringify(MINUTES)
      ? undefined
      : `minutes.odt reads ${JSON.stringify(lines)}`;
  },
};

/** The slides' words in impress-title-slide. */
const DECK = { title: "Project Phoenix", slide: "Milestones", point: "Launch in June" };

/** The title and texts of each slide in presentation `file`, read from its content.xml. */
async function slides(file: string): Promise<{ classes: string[]; texts: string[] }[]> {
  const script = `
import json, re, sys, zipfile
xml = zipfile.ZipFile(sys.argv[1]).read("content.xml").decode()
pages = re.findall(r"<draw:page .*?</draw:page>", xml, re.S)
def texts(page):
    return [re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<text:p[^>]*>(.*?)</text:p>", page, re.S)]
print(json.dumps([{"classes": re.findall(r'presentation:class="(\\w+)"', p), "texts": texts(p)} for p in pages]))
`;
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script, file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr).trim().split("\n").pop());
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** Title the first slide, add a second with a title and a point, save as .odp. */
const impressTitleSlide: Task = {
  id: "impress-title-slide",
  title:
    "Impress: close the template chooser, title slide 1, Slide ▸ New Slide, title it, save .odp",
  family: "Impress",
  prepare(dir) {
    return Promise.resolve({ dir, values: { ...DECK, odp: `${dir}/deck.odp` } });
  },
  launch: (f) => office(f.dir, ["--impress"]),
  async ours(agent, app, f) {
    const main = await agent.window(app.pid, /LibreOffice Impress/);
    // A new profile offers its templates first.
    const templates = await agent.window(app.pid, /^Select a Template$/);
    await agent.press(templates, "Close", "AXButton");
    await agent.set(main, { text_contains: "Click to add Title" }, DECK.title);
    await agent.menu(main, "Slide", "New Slide");
    // The new slide is the one shown: its placeholders are the ones asking for text.
    await agent.set(main, { text_contains: "Click to add Title" }, DECK.slide);
    await agent.set(main, { text_contains: "Click to add Text" }, DECK.point);
    await saveAs(agent, main, f.values.odp!);
    await agent.window(app.pid, /^deck\.odp - LibreOffice Impress$/);
  },
  async check(f) {
    if (!await settledFile(f.values.odp!)) return "no deck.odp";
    const pages = await slides(f.values.odp!);
    const title = (p: { classes: string[]; texts: string[] }) => p.texts[0];
    if (pages.length !== 2) return `deck.odp has ${pages.length} slides`;
    if (title(pages[0]!) !== DECK.title) return `slide 1 is titled ${title(pages[0]!)}`;
    if (!pages[1]!.classes.includes("title") || title(pages[1]!) !== DECK.slide) {
      return `slide 2 reads ${JSON.stringify(pages[1])}`;
    }
    if (!pages[1]!.texts.includes(DECK.point)) return `slide 2 lacks "${DECK.point}"`;
    return undefined;
  },
};

/** The tasks of this family. */
export const OFFICE_TASKS: readonly Task[] = [
  calcSumCsv,
  calcSortExport,
  writerHeadingPdf,
  writerSaveOdt,
  impressTitleSlide,
];
