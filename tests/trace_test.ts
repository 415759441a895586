/**
 * Traces (issue 49) end to end: a real `serve --trace` process records a gnome-calculator
 * session (a read, the batch 7 + 8 =, an act), a second connection records its own trace
 * with trace_start/trace_stop, then `show-trace --html` writes the viewer and headless
 * Chromium renders it: the DOM must hold the step rows, decoded screenshots and the diff;
 * keys pressed over the DevTools protocol (j/k, arrows, "/") move between steps and search
 * the element map. `show-trace` without --html is fetched over loopback. With ALLTERNIT_DOCS_IMAGES=1 the
 * viewer's screenshot is kept as docs/images/trace-viewer.png (the README's picture).
 */
import assert from "node:assert/strict";
import { DriverClient } from "../rpc/client.ts";
import { byLabel } from "./support/client.ts";
import { calculator, CHROMIUM_FLAGS, requireDesktop } from "./support/apps.ts";
import { startDriver } from "./support/driver_process.ts";

requireDesktop();

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const DOCS_IMAGE = new URL("../docs/images/trace-viewer.png", import.meta.url).pathname;
const PNG_MAGIC = [137, 80, 78, 71];

type Line = Record<string, unknown> & { seq: number; op: string };
type Ref = { sha: string; width: number; height: number };

async function traceLines(dir: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(`${dir}/trace.jsonl`);
  return text.trim().split("\n").map((l) => JSON.parse(l));
}

/** Runs the system Chromium headless with `args`; answers its stdout. */
async function chromium(args: string[]): Promise<string> {
  const profile = await Deno.makeTempDir({ prefix: "trace-chromium-" });
  try {
    const out = await new Deno.Command("chromium", {
      args: [...CHROMIUM_FLAGS, "--headless=new", `--user-data-dir=${profile}`, ...args],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr).slice(-2_000));
    return stdout;
  } finally {
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

/** A page in headless Chromium driven over the DevTools protocol. */
interface Page {
  /** Evaluates `expression` in the page; answers its value. */
  evaluate(expression: string): Promise<unknown>;
  /** Sends a DevTools command. */
  send(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** Opens `url` in headless Chromium with its debugging port, runs `fn`, then closes it. */
async function withPage(url: string, fn: (page: Page) => Promise<void>): Promise<void> {
  const profile = await Deno.makeTempDir({ prefix: "trace-cdp-" });
  const child = new Deno.Command("chromium", {
    args: [
      ...CHROMIUM_FLAGS,
      "--headless=new",
      `--user-data-dir=${profile}`,
      "--remote-debugging-port=0",
      "--window-size=1200,900",
      url,
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let ws: WebSocket | undefined;
  try {
    // Chromium says where its DevTools endpoint is on stderr.
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let said = "";
    let port: string | undefined;
    while (port === undefined) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`Chromium ended before its DevTools line:\n${said}`);
      said += value;
      port = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(said)?.[1];
    }
    void (async () => {
      while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drain */ }
    })();
    const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json() as {
      type: string;
      webSocketDebuggerUrl: string;
    }[];
    const target = targets.find((t) => t.type === "page");
    assert.ok(target, "a page target");
    const socket = new WebSocket(target.webSocketDebuggerUrl);
    ws = socket;
    await new Promise((ok, fail) => {
      socket.onopen = ok;
      socket.onerror = fail;
    });
    let next = 0;
    const waiting = new Map<number, (m: Record<string, unknown>) => void>();
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      waiting.get(m.id)?.(m);
      waiting.delete(m.id);
    };
    const send = (method: string, params: Record<string, unknown> = {}) =>
      new Promise<Record<string, unknown>>((ok, fail) => {
        const id = ++next;
        waiting.set(
          id,
          (m) =>
            m.error
              ? fail(new Error(JSON.stringify(m.error)))
              : ok(m.result as Record<string, unknown>),
        );
        socket.send(JSON.stringify({ id, method, params }));
      });
    const evaluate = async (expression: string) => {
      const r = await send("Runtime.evaluate", { expression, returnByValue: true });
      return (r.result as { value?: unknown }).value;
    };
    const deadline = Date.now() + 15_000;
    while (await evaluate("!!document.querySelector('.step.sel')") !== true) {
      if (Date.now() > deadline) throw new Error("The viewer never selected a step");
      await new Promise((r) => setTimeout(r, 50));
    }
    await fn({ evaluate, send });
  } finally {
    ws?.close();
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    await child.status;
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

/** Presses `key` as a person would (DevTools Input events, trusted). */
async function press(page: Page, key: string): Promise<void> {
  const codes: Record<string, number> = { ArrowDown: 40, ArrowUp: 38, j: 74, k: 75, "/": 191 };
  const text = key.length === 1 ? { text: key } : {};
  const base = { key, windowsVirtualKeyCode: codes[key] ?? 0, ...text };
  await page.send("Input.dispatchKeyEvent", {
    type: key.length === 1 ? "keyDown" : "rawKeyDown",
    ...base,
  });
  await page.send("Input.dispatchKeyEvent", { type: "keyUp", ...base });
}

const selected = (page: Page) => page.evaluate("document.querySelector('.step.sel').id");

Deno.test("serve --trace records a calculator session that show-trace renders in Chromium", async () => {
  const app = await calculator();
  const work = await Deno.makeTempDir({ prefix: "trace-e2e-" });
  const traceDir = `${work}/session`;
  const ownDir = `${work}/own`;
  const driver = await startDriver(["serve", "--trace", traceDir]);
  let client: DriverClient | undefined;
  let other: DriverClient | undefined;
  let batchSeq = 0;
  try {
    client = await DriverClient.connect({ socket: driver.ready.socket! });
    other = await DriverClient.connect({ socket: driver.ready.socket! });
    // A second connection's own trace: only its own ops go there.
    const own = await other.call("trace_start", { dir: ownDir });
    assert.equal(own.path, ownDir);
    const r = await client.call("read_ui", { app: "gnome-calculator" });
    const press = (label: string) => ({
      id: byLabel(r.elements!, "AXButton", label).id,
      action: "press" as const,
    });
    const b = await client.call("run_batch", {
      window: r.window,
      version: r.version,
      steps: [press("7"), press("+"), press("8"), press("=")],
    });
    assert.equal(b.ok, true, JSON.stringify(b.results));
    const a = await client.call("act", {
      window: r.window,
      version: b.version,
      guard: "element",
      ...press("2"),
    });
    assert.equal(a.ok, true);
    await other.call("list_apps", {});
    const stopped = await other.call("trace_stop", {});
    assert.equal(stopped.ops, 1, "the other connection's trace holds its own op only");
    assert.equal(stopped.images, 0);
  } finally {
    await client?.close();
    await other?.close();
    assert.equal(await driver.stop(), 0, driver.stderr().slice(-2_000));
    await app.stop();
  }

  try {
    // The files: a header, every op of the session, an end line written at stop.
    const all = await traceLines(traceDir);
    assert.equal(all[0]!.trace, "allternit-driver-trace");
    const end = all.at(-1)!;
    assert.equal(end.end, true);
    const ops = (all.slice(1, -1) as Line[]).sort((x, y) => x.seq - y.seq);
    assert.deepEqual(ops.map((l) => l.op), ["read_ui", "run_batch", "act", "list_apps"]);
    assert.equal(end.ops, ops.length);
    const batch = ops[1]!;
    batchSeq = batch.seq;
    for (const line of [batch, ops[2]!]) {
      const images = line.images as { before: Ref; after: Ref };
      assert.ok(images?.before && images?.after, `${line.op} has before and after screenshots`);
      for (const ref of [images.before, images.after]) {
        const png = await Deno.readFile(`${traceDir}/images/${ref.sha}.png`);
        assert.deepEqual([...png.subarray(0, 4)], PNG_MAGIC);
        assert.ok(ref.width <= 800 && ref.width > 50, `scaled to ≤ 800 px: ${ref.width}`);
      }
      assert.notEqual(images.before.sha, images.after.sha, "the display changed between them");
      const targets = line.targets as { bounds?: unknown }[];
      assert.ok(targets.length > 0 && targets.every((t) => t.bounds), "targets with bounds");
      assert.ok((line.route as { reason?: string }).reason, "the route decision");
      assert.equal(line.engine ?? (line.answer as { engine: string }).engine, "atspi");
    }
    assert.equal(ops[0]!.images, undefined, "a read gets no screenshots");
    // Each batch step is framed: the window after each of its four steps.
    const stepShots = batch.step_images as (Ref | null)[];
    assert.equal(stepShots?.length, 4, JSON.stringify(stepShots));
    assert.ok(stepShots.every((r) => r !== null), "every step has its after image");
    const distinct = new Set(stepShots.map((r) => r!.sha));
    assert.ok(distinct.size >= 3, `the display moves step by step: ${distinct.size} images`);
    type Diffed = { role: string; value?: string };
    const diff = batch.answer as { changed: Diffed[]; added: Diffed[] };
    const shown = [...diff.changed, ...diff.added].filter((e) => e.role === "AXTextArea");
    assert.ok(shown.some((e) => e.value === "15"), JSON.stringify(shown));
    const ownLines = (await traceLines(ownDir)).slice(1, -1) as Line[];
    assert.deepEqual(ownLines.map((l) => l.op), ["list_apps"]);

    // The viewer as one file, opened in headless Chromium.
    const html = `${work}/viewer.html`;
    const made = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", MAIN, "show-trace", traceDir, "--html", html],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(made.code, 0, new TextDecoder().decode(made.stderr));
    const url = `file://${html}#step-${batchSeq}`;
    const dom = await chromium(["--virtual-time-budget=5000", "--dump-dom", url]);
    const rows = dom.match(/<li class="step[^"]*" id="step-\d+"/g) ?? [];
    assert.equal(rows.length, ops.length, "one timeline row per op");
    assert.match(dom, new RegExp(`<li class="step sel" id="step-${batchSeq}"`));
    const imgs = [...dom.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
    const inlined = imgs.filter((t) => /src="data:image\/png;base64,/.test(t));
    assert.ok(inlined.length >= 2, `before and after images inlined: ${imgs.length}`);
    for (const tag of inlined) {
      const w = /data-natural-width="(\d+)"/.exec(tag);
      assert.ok(w && Number(w[1]) > 0, `decoded by the browser: ${tag.slice(0, 80)}`);
      assert.ok(!tag.includes("data-failed"), "no image failed to decode");
    }
    assert.match(dom, /class="target"/, "the pressed buttons are outlined");
    assert.match(dom, /[~+] (changed|added) AXTextArea "[^"]*" = "15"/, "the diff shows 15");
    assert.match(dom, /Batch steps/);
    assert.equal((dom.match(/<figcaption>After step \d/g) ?? []).length, 4, "each step image");
    const stepImgs = imgs.filter((t) => /alt="After step/.test(t));
    assert.equal(stepImgs.length, 4);
    assert.ok(stepImgs.every((t) => /data-natural-width="[1-9]/.test(t)), "step images decode");
    assert.match(dom, /id="map-search"/, "the element map is there to search");

    // Keyboard and search in a live page: DevTools input events, as keys a person presses.
    await withPage(`file://${html}`, async (page) => {
      assert.equal(await selected(page), "step-1");
      await press(page, "j");
      assert.equal(await selected(page), "step-2");
      await press(page, "ArrowDown");
      assert.equal(await selected(page), "step-3");
      await press(page, "k");
      await press(page, "ArrowUp");
      assert.equal(await selected(page), "step-1");
      await press(page, "/");
      assert.equal(await page.evaluate("document.activeElement.id"), "map-search");
      await page.send("Input.insertText", { text: "AXTextArea" });
      const shownMatches = await page.evaluate(
        "[...document.querySelectorAll('.tree li.match')].filter((li) => !li.hidden).length",
      );
      assert.ok(Number(shownMatches) >= 1, "the search finds the display");
      const hidden = await page.evaluate("document.querySelectorAll('.tree li[hidden]').length");
      assert.ok(Number(hidden) > 10, `elements that do not match are hidden: ${hidden}`);
      // Keys typed into the search box are text, not navigation.
      await press(page, "j");
      assert.equal(await selected(page), "step-1");
    });

    const shot = `${work}/viewer.png`;
    await chromium([
      "--virtual-time-budget=5000",
      `--screenshot=${shot}`,
      "--window-size=1200,900",
      url,
    ]);
    const png = await Deno.readFile(shot);
    assert.deepEqual([...png.subarray(0, 4)], PNG_MAGIC);
    if (Deno.env.get("ALLTERNIT_DOCS_IMAGES") === "1") await Deno.copyFile(shot, DOCS_IMAGE);

    // Served on loopback: the page, an image, and nothing outside the images.
    const viewer = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", MAIN, "show-trace", traceDir],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    try {
      const reader = viewer.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let printed = "";
      while (!printed.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) break;
        printed += value;
      }
      const base = printed.trim();
      assert.match(base, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      const page = await fetch(base);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /images\/[0-9a-f]{64}\.png/);
      const sha = (batch.images as { before: Ref }).before.sha;
      const img = await fetch(`${base}images/${sha}.png`);
      assert.equal(img.headers.get("content-type"), "image/png");
      await img.body?.cancel();
      const out = await fetch(`${base}images/..%2Ftrace.jsonl`);
      assert.equal(out.status, 404);
      await out.body?.cancel();
      reader.releaseLock();
    } finally {
      viewer.kill("SIGTERM");
      await viewer.status;
      await viewer.stdout.cancel().catch(() => {});
    }
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("the demo's trace opens in the viewer: every step, with images around each action", async () => {
  const out = await Deno.makeTempDir({ prefix: "trace-demo-" });
  try {
    const demo = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", new URL("../demo/demo.ts", import.meta.url).pathname, out],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const said = new TextDecoder().decode(demo.stdout);
    assert.equal(demo.code, 0, `${said}\n${new TextDecoder().decode(demo.stderr).slice(-2_000)}`);
    assert.match(said, /6\. trace.*: \d+ ops recorded/);
    const ops = ((await traceLines(`${out}/trace`)).slice(1, -1) as Line[])
      .sort((x, y) => x.seq - y.seq);
    assert.deepEqual(ops.map((l) => l.op), [
      "hello",
      "read_ui",
      "read_ui",
      "run_batch",
      "act",
      "read_ui",
      "act",
      "screenshot",
    ]);
    // Every action that ran has its before and after; the stale one was refused first.
    const acted = ops.filter((l) => l.op === "run_batch" || (l.op === "act" && !l.error));
    for (const line of acted) {
      const images = line.images as { before?: Ref; after?: Ref } | undefined;
      assert.ok(images?.before && images.after, `${line.op} #${line.seq} has both images`);
    }
    const dom = await chromium([
      "--virtual-time-budget=5000",
      "--dump-dom",
      `file://${out}/trace.html#step-${acted[0]!.seq}`,
    ]);
    const rows = dom.match(/<li class="step[^"]*" id="step-\d+"/g) ?? [];
    assert.equal(rows.length, ops.length, "one timeline row per step");
    const imgs = [...dom.matchAll(/<img [^>]*src="data:image\/png;base64,[^>]*>/g)];
    assert.ok(imgs.length >= 2 && imgs.every((m) => /data-natural-width="[1-9]/.test(m[0])));
    assert.match(dom, /= "15"/, "the batch's diff shows the display's 15");
    assert.match(dom, /class="step[^"]*err[^"]*"|stale_version/, "the refused act is marked");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
