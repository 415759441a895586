// deno-lint-ignore-file no-console -- a benchmark prints its figures.
/**
 * What an agent reads (issue 47): the driver's MCP server against Playwright MCP, side by
 * side in one run, on six pages (bench/observe/pages.ts): per page the bytes of each
 * side's default read (Playwright's `browser_snapshot`, our `read_ui`), tokens (chars / 4),
 * the interactive elements it gives a handle for, and the share of the page's visible
 * words it holds; then three scripted jobs on each side (sign in, press row 37's button,
 * switch a tab and read its panel), with their calls and bytes.
 *
 * Playwright MCP (`@playwright/mcp`, pinned in bench/observe/clients.ts) is installed into
 * a cache folder with npm on first use and runs headless on /usr/bin/chromium with a
 * viewport the size of the driver's Chromium page area. Ours: `serve`, Chromium on the
 * same page in the headless desktop, and `main.ts mcp --socket …`, both through the
 * official SDK client over stdio. `OBSERVE_DUMP=<dir>` writes every answer to files.
 *
 * `deno task bench observe`.
 *
 * @module
 */
import * as apps from "../tests/support/apps.ts";
import { startDriver } from "../tests/support/driver_process.ts";
import { type McpSide, ourMcp, PLAYWRIGHT_MCP_VERSION, playwrightMcp } from "./observe/clients.ts";
import { type Page, servePages, writePages } from "./observe/pages.ts";
import {
  ourHandles,
  playwrightHandles,
  tokens,
  webArea,
  words,
  wordShare,
} from "./observe/parse.ts";
import { miniwobDir } from "./web/server.ts";
import { emit, round } from "./stats.ts";

if (!Deno.env.get("DISPLAY")) {
  console.error("observe_bench: run it inside the headless desktop (deno task bench observe)");
  Deno.exit(2);
}

const DUMP = Deno.env.get("OBSERVE_DUMP");
const PEER = "playwright-mcp";
const enc = new TextEncoder();

async function dump(name: string, text: string): Promise<void> {
  if (!DUMP) return;
  await Deno.mkdir(DUMP, { recursive: true });
  await Deno.writeTextFile(`${DUMP}/${name.replace(/[^\w.-]+/g, "_")}.txt`, text);
}

/** `key=value` from an answer's header line. */
function field(text: string, key: string): string {
  const head = text.split("\n")[0]!;
  const m = new RegExp(`(?:^| )${key}=(\\S+)`).exec(head);
  if (!m) throw new Error(`No "${key}" in "${head}"`);
  return m[1]!;
}

/**
 * What the page shows, from its layout in Playwright's Chromium (the same viewport as
 * ours): the words drawn in the first screen and on the whole page, and the interactive
 * elements. Run through `browser_evaluate`, not counted in any figure.
 */
const TRUTH = `() => {
  const vw = innerWidth, vh = innerHeight;
  const seen = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const inView = (b) => b.bottom > 0 && b.top < vh && b.right > 0 && b.left < vw;
  const all = [], view = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walker.nextNode());) {
    const p = n.parentElement;
    if (!p || ["SCRIPT", "STYLE", "OPTION"].includes(p.tagName) || !seen(p)) continue;
    const re = /[\\p{L}\\p{N}]+/gu;
    for (let m; (m = re.exec(n.data));) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      const b = r.getBoundingClientRect();
      if (b.width === 0 && b.height === 0) continue;
      const w = m[0].toLowerCase();
      all.push(w);
      if (inView(b)) view.push(w);
    }
  }
  for (const s of document.querySelectorAll("select")) {
    if (!seen(s)) continue;
    const ws = (s.selectedOptions[0]?.textContent ?? "").toLowerCase().match(/[\\p{L}\\p{N}]+/gu) ?? [];
    all.push(...ws);
    if (inView(s.getBoundingClientRect())) view.push(...ws);
  }
  const controls = [...document.querySelectorAll("a[href], button, input, select, textarea, [role=tab]")]
    .filter((e) => seen(e));
  return {
    all, view,
    controls: controls.length,
    controlsInView: controls.filter((e) => inView(e.getBoundingClientRect())).length,
    query: document.querySelector("#query")?.textContent ?? "",
  };
}`;

interface Truth {
  all: string[];
  view: string[];
  controls: number;
  controlsInView: number;
  query: string;
}

/** The value a `browser_evaluate` answer carries under `### Result`. */
function evaluated<T>(text: string): T {
  const m = /### Result\n([\s\S]*?)(?:\n### |$)/.exec(text);
  if (!m) throw new Error(`No result in: ${text.slice(0, 300)}`);
  return JSON.parse(m[1]!) as T;
}

/**
 * Our whole-page read: `read_ui` with `scope: "all"`, then every page its cursor gives,
 * as an agent reads a page longer than one answer. Bytes are every answer's together.
 */
async function wholePage(side: McpSide, window: string) {
  let r = await side.call("read_ui", { window, scope: "all" });
  const answers = [r];
  for (let i = 0; i < 100 && !r.isError; i++) {
    const cursor = /^… \d+ more lines: read_ui cursor=(\S+)$/m.exec(r.text)?.[1];
    if (!cursor) break;
    r = await side.call("read_ui", { cursor });
    answers.push(r);
  }
  const text = answers.map((a) => a.text).join("\n");
  return {
    text,
    isError: answers.some((a) => a.isError),
    bytes: answers.reduce((n, a) => n + a.bytes, 0),
    calls: answers.length,
    lines: answers.flatMap((a) => a.text.split("\n").slice(1).filter((l) => !l.startsWith("… "))),
  };
}

/** The first web area's size in a read_ui outline: the page area of our Chromium. */
function pageArea(text: string): { w: number; h: number } | undefined {
  for (const line of text.split("\n")) {
    const m = /^\s*\S+ (AXWebArea|AXDocument\w*) "[^"]*".* @-?\d+,-?\d+,(\d+),(\d+)/.exec(line);
    if (m && Number(m[2]) > 100) return { w: Number(m[2]), h: Number(m[3]) };
  }
  return undefined;
}

const pct = (x: number) => round(100 * x, 1);

/** What one side's job did: calls, bytes, and whether the page reported it done. */
interface JobRun {
  calls: number;
  bytes: number;
  ok: boolean;
  why: string;
}

async function job(side: McpSide, run: () => Promise<string>, done: () => boolean) {
  side.reset();
  let why = "";
  try {
    why = await run();
  } catch (err) {
    why = `threw: ${String(err).slice(0, 200)}`;
  }
  // The page reports by fetch: give it a moment to arrive.
  for (let i = 0; i < 40 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  return { calls: side.calls, bytes: side.bytes, ok: done() && why === "", why };
}

const userLine = (text: string, role: RegExp, name: RegExp) =>
  ourHandles(text).find((h) => role.test(h.role) && name.test(h.name));
const pwLine = (text: string, role: string, name: RegExp) =>
  playwrightHandles(text).find((h) => h.role === role && name.test(h.name));

const dir = await Deno.makeTempDir({ prefix: "allternit-observe-" });
const pages = await writePages(dir, miniwobDir());
const server = servePages(dir);
const driver = await startDriver(["serve"]);
let ours: McpSide | undefined;
let pw: McpSide | undefined;
const urlOf = (p: Page, side: string) => `${server.base}/${p.file}?side=${side}`;
const eventFor = (side: string, job: string) =>
  server.events.find((e) => e.side === side && e.job === job);
const jobRows: { name: string; ours: JobRun; pw: JobRun }[] = [];

try {
  ours = await ourMcp(driver.ready.socket!);
  // Our Chromium's page area, for Playwright's viewport: both read the same first screen.
  const probe = await apps.chromium(urlOf(pages[0]!, "probe"), pages[0]!.title, pages[0]!.last);
  let area: { w: number; h: number } | undefined;
  try {
    area = pageArea((await ours.call("read_ui", { app: probe.pid, bounds: true })).text);
  } finally {
    await probe.stop();
  }
  const viewport = area ?? { w: 900, h: 600 };
  console.error(`observe: viewport ${viewport.w}x${viewport.h}${area ? "" : " (guessed)"}`);
  pw = await playwrightMcp(viewport.w, viewport.h);

  for (const page of pages) {
    // Playwright first: its layout gives the page's visible words (and MiniWoB's text).
    const nav = await pw.call("browser_navigate", { url: urlOf(page, "pw") });
    if (nav.isError) throw new Error(`Playwright navigate: ${nav.text}`);
    const truth = evaluated<Truth>((await pw.call("browser_evaluate", { function: TRUTH })).text);
    const pwRead = await pw.call("browser_snapshot", {});
    await dump(`${page.file}.playwright`, pwRead.text);
    const pageWords = page.text ? words(page.text) : truth.all;

    const last = page.last || truth.query;
    const app = await apps.chromium(urlOf(page, "ours"), page.title, last);
    try {
      const read = await ours.call("read_ui", { app: app.pid });
      await dump(`${page.file}.ours`, read.text);
      if (read.isError) throw new Error(`read_ui: ${read.text.slice(0, 300)}`);
      const window = field(read.text, "window");
      const all = await wholePage(ours, window);
      await dump(`${page.file}.ours-all`, all.text);

      const page_ = webArea(read.text);
      // The MCP's scope=all read is cut to the page already: every line but headers.
      const allPage = all.lines.join("\n");
      const oursAllH = ourHandles(read.text);
      const oursH = ourHandles(page_);
      const pwH = playwrightHandles(pwRead.text);
      const basis = truth.view.length > 0 ? "first screen" : "whole page";
      const visible = truth.view.length > 0 ? truth.view : pageWords;
      emit({
        bench: `observe ${page.name}: default read`,
        figure: read.bytes,
        unit: "bytes",
        peer: PEER,
        peer_figure: pwRead.bytes,
        ratio: round(pwRead.bytes / read.bytes),
        note: `~${tokens(read.text)} vs ~${tokens(pwRead.text)} tokens (chars/4); ours is ${
          enc.encode(page_).length
        } bytes of page area and ${
          read.bytes - enc.encode(page_).length
        } of header and Chromium's frame${
          read.structuredBytes + pwRead.structuredBytes > 0
            ? `; structuredContent (not counted): ours ${read.structuredBytes}, playwright ${pwRead.structuredBytes} bytes`
            : ""
        }${read.isError ? "; ours erred" : ""}${pwRead.isError ? "; playwright erred" : ""}`,
      });
      emit({
        bench: `observe ${page.name}: interactive elements with a handle`,
        figure: oursH.length,
        unit: "elements",
        peer: PEER,
        peer_figure: pwH.length,
        note: `ours in the page area (+${
          oursAllH.length - oursH.length
        } in Chromium's frame); the page has ${truth.controlsInView} controls in its first screen, ${truth.controls} in all`,
      });
      emit({
        bench: `observe ${page.name}: visible text in the default read`,
        figure: pct(wordShare(page_, visible)),
        unit: "%",
        peer: PEER,
        peer_figure: pct(wordShare(pwRead.text, visible)),
        note:
          `ours counted in its page area; of the ${visible.length} words of the ${basis}; of the whole page's ${pageWords.length}${
            page.text ? " (from its HTML)" : " (from its layout)"
          }: ours ${pct(wordShare(page_, pageWords))} %, playwright ${
            pct(wordShare(pwRead.text, pageWords))
          } %`,
      });
      emit({
        bench: `observe ${page.name}: whole-page read (ours scope=all)`,
        figure: all.bytes,
        unit: "bytes",
        peer: PEER,
        peer_figure: pwRead.bytes,
        ratio: round(pwRead.bytes / all.bytes),
        note: all.isError
          ? `erred: ${all.text.slice(0, 160)}`
          : `${ourHandles(allPage).length} interactive with an id in the page, ` +
            `playwright ${pwH.length} (the page has ${truth.controls}); ${all.lines.length} lines in ${all.calls} call${
              all.calls > 1 ? "s" : ""
            }; ${
              pct(wordShare(allPage, pageWords))
            } % of the page's ${pageWords.length} words, playwright ${
              pct(wordShare(pwRead.text, pageWords))
            } %; ~${tokens(all.text)} tokens`,
      });

      // The jobs, each from the page as loaded.
      if (page.file === "login.html") {
        await pw.call("browser_navigate", { url: urlOf(page, "pw") });
        const pwRun = await job(pw, async () => {
          const snap = (await pw!.call("browser_snapshot", {})).text;
          const user = pwLine(snap, "textbox", /^Username$/);
          const pass = pwLine(snap, "textbox", /^Password$/);
          const submit = pwLine(snap, "button", /^Sign in$/);
          if (!user || !pass || !submit) return "fields not in the snapshot";
          const fill = await pw!.call("browser_fill_form", {
            fields: [
              { name: "Username", type: "textbox", target: user.ref, value: "alice" },
              { name: "Password", type: "textbox", target: pass.ref, value: "s3cret-pw" },
            ],
          });
          if (fill.isError) return `fill: ${fill.text.slice(0, 160)}`;
          const click = await pw!.call("browser_click", { element: "Sign in", target: submit.ref });
          await dump("job-login.playwright-click", click.text);
          return click.isError ? `click: ${click.text.slice(0, 160)}` : "";
        }, () => eventFor("pw", "login")?.user === "alice");
        const ourRun = await job(ours, async () => {
          const r = await ours!.call("read_ui", { app: app.pid });
          const user = userLine(r.text, /Text/, /^Username$/);
          const pass = userLine(r.text, /Text/, /^Password$/);
          const submit = userLine(r.text, /AXButton/, /^Sign in$/);
          if (!user || !pass || !submit) return "fields not in the read";
          const b = await ours!.call("run_batch", {
            window,
            version: Number(field(r.text, "version")),
            steps: [
              { id: user.ref, action: "set_value", value: "alice" },
              { id: pass.ref, action: "set_value", value: "s3cret-pw" },
              { id: submit.ref, action: "press" },
            ],
          });
          await dump("job-login.ours-batch", b.text);
          return b.isError || !b.text.startsWith("ok=true") ? `batch: ${b.text.slice(0, 200)}` : "";
        }, () => eventFor("ours", "login")?.user === "alice");
        jobRows.push({ name: "sign in", ours: ourRun, pw: pwRun });
      }
      if (page.file === "table.html") {
        await pw.call("browser_navigate", { url: urlOf(page, "pw") });
        const pwRun = await job(pw, async () => {
          const snap = (await pw!.call("browser_snapshot", {})).text;
          const b = pwLine(snap, "button", /^Restart 037$/);
          if (!b) return "Restart 037 not in the snapshot";
          const click = await pw!.call("browser_click", { element: "Restart 037", target: b.ref });
          await dump("job-row.playwright-click", click.text);
          return click.isError ? `click: ${click.text.slice(0, 160)}` : "";
        }, () => eventFor("pw", "row")?.row === "37");
        const ourRun = await job(ours, async () => {
          // Row 37 is below the first screen: find it (in the map, else the whole tree).
          const query = { role: "AXButton", name: "Restart 037" };
          let f = await ours!.call("find", { window, query });
          let b = ourHandles(f.text)[0];
          if (!b) {
            f = await ours!.call("find", { window, query, scope: "all" });
            b = ourHandles(f.text)[0];
          }
          await dump("job-row.ours-find", f.text);
          if (!b) return `Restart 037 not found: ${f.text.slice(0, 200)}`;
          const a = await ours!.call("act", {
            window,
            version: Number(field(f.text, "version")),
            id: b.ref,
            action: "press",
          });
          await dump("job-row.ours-act", a.text);
          return a.isError || !a.text.startsWith("ok") ? `act: ${a.text.slice(0, 200)}` : "";
        }, () => eventFor("ours", "row")?.row === "37");
        jobRows.push({ name: "press row 37's button", ours: ourRun, pw: pwRun });
      }
      if (page.file === "widgets.html") {
        const panel = /invoices go out monthly/;
        await pw.call("browser_navigate", { url: urlOf(page, "pw") });
        const pwRun = await job(pw, async () => {
          const snap = (await pw!.call("browser_snapshot", {})).text;
          const tab = pwLine(snap, "tab", /^Billing$/);
          if (!tab) return "Billing tab not in the snapshot";
          const click = await pw!.call("browser_click", {
            element: "Billing tab",
            target: tab.ref,
          });
          await dump("job-tab.playwright-click", click.text);
          if (click.isError) return `click: ${click.text.slice(0, 160)}`;
          if (panel.test(click.text)) return "";
          const again = await pw!.call("browser_snapshot", {});
          return panel.test(again.text) ? "" : "panel text not read";
        }, () => eventFor("pw", "tab")?.tab === "1");
        const ourRun = await job(ours, async () => {
          const r = await ours!.call("read_ui", { app: app.pid });
          const tab = userLine(r.text, /AXTab$|AXRadioButton/, /^Billing$/);
          if (!tab) return "Billing tab not in the read";
          const a = await ours!.call("act", {
            window,
            version: Number(field(r.text, "version")),
            id: tab.ref,
            action: "press",
          });
          await dump("job-tab.ours-act", a.text);
          if (a.isError) return `act: ${a.text.slice(0, 200)}`;
          if (panel.test(a.text)) return "";
          const since = await ours!.call("read_ui", {
            window,
            since: Number(field(r.text, "version")),
          });
          await dump("job-tab.ours-since", since.text);
          return panel.test(since.text) ? "" : "panel text not read";
        }, () => eventFor("ours", "tab")?.tab === "1");
        jobRows.push({ name: "switch tab and read its panel", ours: ourRun, pw: pwRun });
      }
    } finally {
      await app.stop();
    }
  }
  for (const j of jobRows) {
    const state = (r: JobRun) => r.ok ? "done" : `NOT DONE (${r.why || "no page report"})`;
    emit({
      bench: `observe job ${j.name}: bytes returned`,
      figure: j.ours.bytes,
      unit: "bytes",
      peer: PEER,
      peer_figure: j.pw.bytes,
      ratio: round(j.pw.bytes / j.ours.bytes),
      note: `ours ${j.ours.calls} calls, ${state(j.ours)}; playwright ${j.pw.calls} calls, ${
        state(j.pw)
      }`,
    });
    emit({
      bench: `observe job ${j.name}: calls`,
      figure: j.ours.calls,
      unit: "calls",
      peer: PEER,
      peer_figure: j.pw.calls,
    });
  }
  console.error(
    `observe: @playwright/mcp ${PLAYWRIGHT_MCP_VERSION}, viewport ${viewport.w}x${viewport.h}`,
  );
} finally {
  await pw?.close();
  await ours?.close();
  await driver.stop();
  await server.close();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
