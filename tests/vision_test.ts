/**
 * The vision engine (issue 8) on real plain-X apps with no accessibility tree: xcalc's
 * keys read from pixels and pressed by their vision elements, an xterm's echoed text,
 * and a recorded batch replayed after the window moved and on a new window.
 */
import assert from "node:assert/strict";
import { AtspiEngine } from "../engines/atspi/engine.ts";
import { recordBatch, replayBatch, VisionEngine, type VisionRead } from "../engines/vision/mod.ts";
import { addCrops, buildSnapshot } from "../map/mod.ts";
import type { Element } from "../protocol/element.ts";
import { DriverError } from "../protocol/errors.ts";
import { requireDesktop } from "./support/apps.ts";
import {
  FALLBACK_FONT_PATH,
  scoreKeys,
  startXvfb,
  XCALC_DIGITS_AND_OPERATORS,
} from "./support/xcalc.ts";

requireDesktop();

const budget = () => ({ maxElements: 5_000, signal: AbortSignal.timeout(30_000) });

/** Polls `probe` until it answers something, or fails with `what` at the deadline. */
async function poll<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (let pause = 20; Date.now() < deadline; pause = Math.min(pause * 2, 250)) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, pause));
  }
  throw new Error(`Timed out waiting for ${what}`, { cause: last });
}

/** A plain X app started for a test, with its vision window. */
interface XApp {
  window: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts `cmd` and waits for a new client window of WM_CLASS instance `instance`. */
async function startX(
  vision: VisionEngine,
  cmd: string,
  args: string[],
  instance: string,
  env: Record<string, string> = {},
) {
  const windowsOf = async () =>
    (await vision.listApps(AbortSignal.timeout(5_000)))
      .filter((a) => a.name === instance)
      .flatMap((a) => a.windows.map((w) => w.window));
  const before = new Set(await windowsOf());
  const child = new Deno.Command(cmd, { args, env, stdin: "null", stdout: "null", stderr: "null" })
    .spawn();
  const stop = async () => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.status;
  };
  try {
    const window = await poll(`a ${instance} window`, async () => {
      return (await windowsOf()).find((w) => !before.has(w));
    });
    return { window, pid: child.pid, stop } satisfies XApp;
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Reads until xcalc has drawn its keypad (a fresh window is blank for a moment). */
function readKeypad(vision: VisionEngine, window: string): Promise<VisionRead> {
  return poll("xcalc's keypad", async () => {
    const read = await vision.read(window, budget());
    return elementsOf(read).filter((e) => e.role === "AXButton").length >= 50 ? read : undefined;
  });
}

function elementsOf(read: VisionRead): Element[] {
  return addCrops(buildSnapshot(read.root).elements, read.capture);
}

function key(elements: readonly Element[], name: string): Element {
  const found = elements.filter((e) => e.role === "AXButton" && e.name === name);
  assert.equal(found.length, 1, `one key named ${JSON.stringify(name)}, got ${found.length}`);
  return found[0]!;
}

/** The numbers xcalc's display shows, by OCR of the display (the group holding "DEG"). */
function displayOf(elements: readonly Element[]): string {
  const deg = elements.find((e) => e.role === "AXStaticText" && e.name === "DEG");
  return elements
    .filter((e) => e.parent === deg?.parent && e.role === "AXStaticText" && /^[\d.]+$/.test(e.name))
    .map((e) => e.name)
    .join(" ");
}

async function press(vision: VisionEngine, window: string, read: VisionRead, ids: string[]) {
  const { handles } = buildSnapshot(read.root);
  for (const id of ids) {
    const out = await vision.act(window, handles.get(id)!, "press", undefined, budget().signal);
    assert.deepEqual(out, { via: "pixel" });
  }
}

function waitForDisplay(vision: VisionEngine, window: string, want: string): Promise<string> {
  return poll(`xcalc's display to show ${want}`, async () => {
    const shown = displayOf(elementsOf(await vision.read(window, budget())));
    return shown === want ? shown : undefined;
  });
}

Deno.test("the OCR is closed once idle and loaded again by the next read that needs it", async () => {
  // No cache: every read runs OCR, so the second read needs Tesseract again.
  const vision = new VisionEngine({ cacheSize: 0, ocrIdleMs: 500 });
  const app = await startX(vision, "xcalc", ["-geometry", "+40+40"], "xcalc");
  try {
    const keys = (r: VisionRead) =>
      elementsOf(r).filter((e) => e.role === "AXButton").map((e) => e.name).sort();
    const first = keys(await readKeypad(vision, app.window));
    assert.equal(vision.ocrLoads().loaded, true);
    const loads = vision.ocrLoads().loads;
    await poll(
      "the idle OCR to close",
      () => Promise.resolve(vision.ocrLoads().loaded ? undefined : true),
      5_000,
    );
    const again = keys(await vision.read(app.window, budget()));
    assert.deepEqual(again, first, "read the same keys with a fresh Tesseract");
    assert.deepEqual(vision.ocrLoads(), { loads: loads + 1, loaded: true });
  } finally {
    await app.stop();
    await vision.close();
  }
});

Deno.test("xcalc has no accessibility tree; vision reads its keys, cached while unchanged", async () => {
  const vision = new VisionEngine();
  const atspi = new AtspiEngine();
  const app = await startX(vision, "xcalc", ["-geometry", "+40+40"], "xcalc");
  try {
    const read = await readKeypad(vision, app.window);
    const apps = await atspi.listApps(AbortSignal.timeout(5_000));
    assert.ok(
      !apps.some((a) => a.pid === app.pid || /xcalc/i.test(a.name)),
      `AT-SPI lists no xcalc (it lists ${apps.map((a) => a.name).join(", ")})`,
    );
    const els = elementsOf(read);
    const names = new Set(els.filter((e) => e.role === "AXButton").map((e) => e.name));
    for (const k of ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", "-", "*", "="]) {
      assert.ok(names.has(k), `a key named ${JSON.stringify(k)} among ${[...names].join(" ")}`);
    }
    assert.equal(els[0]!.role, "AXWindow");
    assert.equal(els[0]!.name, "Calculator");
    // The engine's crops are the map's crops of the same capture.
    const seven = key(els, "7");
    const node = buildSnapshot(read.root).handles.get(seven.id)!;
    assert.equal(read.crops.get(node.handle), seven.crop);
    assert.equal(vision.lastCapture(app.window), read.capture);

    const walks = vision.stats().walks;
    const again = await vision.read(app.window, budget());
    assert.equal(again.cached, true);
    assert.equal(vision.stats().walks, walks, "no OCR for unchanged pixels");
    assert.deepEqual(elementsOf(again).map((e) => e.id), els.map((e) => e.id));
  } finally {
    await app.stop();
    await atspi.close();
    await vision.close();
  }
});

Deno.test("in X's fallback font (no xfonts-base) xcalc's keys are named right or said unread", async () => {
  const x = await startXvfb(FALLBACK_FONT_PATH);
  const env = (k: string) => k === "DISPLAY" ? x.display : Deno.env.get(k);
  const vision = new VisionEngine({ env });
  try {
    const app = await startX(vision, "xcalc", ["-geometry", "+40+40"], "xcalc", {
      DISPLAY: x.display,
    });
    try {
      const score = scoreKeys(elementsOf(await readKeypad(vision, app.window)));
      for (const k of XCALC_DIGITS_AND_OPERATORS) {
        const el = score.byLabel.get(k)!;
        assert.ok(
          el.name === k || (el.name === "" && el.unread),
          `key ${JSON.stringify(k)} named ${JSON.stringify(el.name)}; all wrong: ${score.wrong}`,
        );
      }
      // This font's "1" is what Tesseract reads as "]": never named so.
      const one = score.byLabel.get("1")!;
      assert.ok(one.name === "1" || one.unread?.startsWith("ocr_ambiguous"), JSON.stringify(one));
    } finally {
      await app.stop();
    }
  } finally {
    await vision.close();
    await x.close();
  }
});

Deno.test("pressing xcalc's vision keys 7 + 8 = puts 15 on its display", async () => {
  const vision = new VisionEngine();
  const app = await startX(vision, "xcalc", ["-geometry", "+40+40"], "xcalc");
  try {
    const read = await readKeypad(vision, app.window);
    const els = elementsOf(read);
    assert.equal(displayOf(els), "0");
    await press(vision, app.window, read, ["7", "+", "8", "="].map((k) => key(els, k).id));
    assert.equal(await waitForDisplay(vision, app.window, "15"), "15");
  } finally {
    await app.stop();
    await vision.close();
  }
});

Deno.test("an xterm's echoed text is a vision element", async () => {
  const vision = new VisionEngine();
  const app = await startX(vision, "xterm", [
    "-geometry",
    "60x8+420+40",
    "-e",
    "sh",
    "-c",
    "echo HELLO_VISION; sleep 60",
  ], "xterm");
  try {
    const hello = await poll("HELLO_VISION in the xterm", async () => {
      const els = elementsOf(await vision.read(app.window, budget()));
      return els.find((e) => e.role === "AXStaticText" && e.name === "HELLO_VISION");
    });
    assert.ok(hello.bounds.w > 0 && hello.bounds.h > 0);
    assert.ok(hello.crop);
    // xterm sets _NET_WM_PID, so its window is found from the pid another engine knows.
    const apps = await vision.listApps(AbortSignal.timeout(5_000));
    assert.equal(apps.find((a) => a.windows.some((w) => w.window === app.window))?.pid, app.pid);
    assert.equal(vision.windowFor({ pid: app.pid }), app.window);
  } finally {
    await app.stop();
    await vision.close();
  }
});

Deno.test("a recorded xcalc batch replays after the window moved, and on a new window by crop", async () => {
  const vision = new VisionEngine();
  const first = await startX(vision, "xcalc", ["-geometry", "+40+40"], "xcalc");
  let second: XApp | undefined;
  try {
    // Athena keys light up under the pointer; park it where no window is, so the pixels
    // (and crops) are the same before and after the move.
    await vision.input({ kind: "move", x: 1279, y: 1023 }, budget().signal);
    const read = await readKeypad(vision, first.window);
    const els = elementsOf(read);
    const batch = recordBatch(
      first.window,
      els,
      ["7", "+", "8", "="].map((k) => ({ id: key(els, k).id, action: "press" as const })),
    );

    const xid = String(parseInt(first.window.slice(1), 16));
    const mv = await new Deno.Command("xdotool", { args: ["windowmove", xid, "500", "300"] })
      .output();
    assert.ok(mv.success, "xdotool windowmove");
    // Moved and redrawn: the same pixels elsewhere, answered from the cache without OCR.
    const walks = vision.stats().walks;
    let seen = "nothing";
    const moved = await poll("the window to move and redraw", async () => {
      const r = await vision.read(first.window, budget());
      seen = `bounds ${JSON.stringify(r.root.bounds)}, key ${r.key} (was ${read.key})`;
      return r.root.bounds.x !== read.root.bounds.x && r.key === read.key ? r : undefined;
    }).catch((err) => {
      throw new Error(`${err.message}; last read: ${seen}`, { cause: err });
    });
    assert.equal(moved.cached, true);
    assert.deepEqual(moved.root.bounds, { ...read.root.bounds, x: 501, y: 301 });
    assert.ok(vision.stats().walks - walks <= 1, "at most a read caught mid-redraw ran OCR");
    const after = replayBatch(batch, first.window, elementsOf(moved));
    // Ids are relative to the window's corner, so a move keeps them; crops confirm them.
    assert.deepEqual(after.map((s) => [s.found, s.distance]), [
      ["id", 0],
      ["id", 0],
      ["id", 0],
      ["id", 0],
    ]);
    await press(vision, first.window, moved, after.map((s) => s.element!.id));
    await waitForDisplay(vision, first.window, "15");

    // The calculator again, elsewhere, as a new window: its ids mean nothing for the batch.
    second = await startX(vision, "xcalc", ["-geometry", "+800+80"], "xcalc");
    await first.stop();
    const fresh = await readKeypad(vision, second.window);
    const replayed = replayBatch(batch, second.window, elementsOf(fresh));
    assert.deepEqual(replayed.map((s) => [s.found, s.distance, s.element?.name]), [
      ["crop", 0, "7"],
      ["crop", 0, "+"],
      ["crop", 0, "8"],
      ["crop", 0, "="],
    ]);
    await press(vision, second.window, fresh, replayed.map((s) => s.element!.id));
    await waitForDisplay(vision, second.window, "15");
  } finally {
    await first.stop();
    await second?.stop();
    await vision.close();
  }
});

Deno.test("vision subscribe delivers nothing; an unknown window is window_not_found", async () => {
  const vision = new VisionEngine();
  try {
    let events = 0;
    const unsubscribe = await vision.subscribe(() => events++);
    await unsubscribe();
    assert.equal(events, 0);
    await assert.rejects(vision.read("w770671b2", budget()), (err: unknown) => {
      assert.ok(err instanceof DriverError);
      assert.equal(err.code, "window_not_found");
      return true;
    });
    await assert.rejects(vision.read("x7ffffff0", budget()), (err: unknown) => {
      assert.ok(err instanceof DriverError);
      assert.equal(err.code, "window_not_found");
      return true;
    });
  } finally {
    await vision.close();
  }
});
