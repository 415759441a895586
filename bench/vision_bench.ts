// deno-lint-ignore-file no-console -- a benchmark prints its figures.
/**
 * Vision engine figures on xcalc (run inside the headless session): the first read with
 * Tesseract's start-up, cold reads (OCR every time), cached reads (pixels unchanged),
 * and the OCR route: libtesseract's C API (one model load, one SetRectangle + Recognize
 * per line) against the `tesseract` command (a process per line, or one for the window).
 *
 * @module
 */
import { encode } from "fast-png";
import {
  analyse,
  type LineReader,
  OCR_SCALE,
  TesseractReader,
  VisionEngine,
} from "../engines/vision/mod.ts";
import { parseTsv } from "../engines/vision/tsv.ts";
import type { GreyImage } from "../engines/vision/scale.ts";
import type { PixelRect } from "../engines/vision/segment.ts";
import type { Proposal } from "../engines/vision/regions.ts";
import type { Capture } from "../model/engine.ts";
import { buildSnapshot } from "../map/mod.ts";
import {
  FALLBACK_FONT_PATH,
  scoreKeys,
  startXvfb,
  XCALC_DIGITS_AND_OPERATORS,
  XCALC_KEYS,
} from "../tests/support/xcalc.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
const r2 = (x: number) => Math.round(x * 100) / 100;
const emit = (row: Record<string, unknown>) => console.log(JSON.stringify(row));
const budget = () => ({ maxElements: 5_000, signal: AbortSignal.timeout(60_000) });

/** Key labels (of 55) named exactly right, key by key in reading order. */
function labelsRead(proposals: readonly Proposal[]): number {
  try {
    return scoreKeys(proposals).right.length;
  } catch {
    return 0; // Not one button per key: the read is no use.
  }
}

/** Keypad keys (of 14) named right among the proposals. */
function keysRead(proposals: readonly Proposal[]): number {
  const names = new Set(proposals.filter((p) => p.role === "AXButton").map((p) => p.name));
  return XCALC_DIGITS_AND_OPERATORS.filter((k) => names.has(k)).length;
}

/** The `tesseract` command, one process per line (it has no rectangle option: crops). */
class CliReader implements LineReader {
  async readLines(image: GreyImage, lines: readonly PixelRect[], scale: number) {
    const out = [];
    for (const r of lines) {
      const data = new Uint8Array(r.w * r.h);
      for (let y = 0; y < r.h; y++) {
        const from = (r.y + y) * image.width + r.x;
        data.set(image.data.subarray(from, from + r.w), y * r.w);
      }
      const words = parseTsv(await cli(data, r.w, r.h, "7"), scale);
      out.push(
        words.map((w) => ({
          ...w,
          rect: { ...w.rect, x: w.rect.x + r.x / scale, y: w.rect.y + r.y / scale },
        })),
      );
    }
    return out;
  }
}

/**
 * The `tesseract` command once over the whole window with its own page layout, words then
 * given to the lines whose rectangle holds their centre.
 */
class CliPageReader implements LineReader {
  async readLines(image: GreyImage, lines: readonly PixelRect[], scale: number) {
    const words = parseTsv(await cli(image.data, image.width, image.height, "6"), scale);
    return lines.map((r) =>
      words.filter((w) => {
        const cx = (w.rect.x + w.rect.w / 2) * scale, cy = (w.rect.y + w.rect.h / 2) * scale;
        return cx >= r.x && cx < r.x + r.w && cy >= r.y && cy < r.y + r.h;
      })
    );
  }
}

async function cli(data: Uint8Array, width: number, height: number, psm: string) {
  const file = await Deno.makeTempFile({ suffix: ".png" });
  try {
    await Deno.writeFile(file, encode({ width, height, data, depth: 8, channels: 1 }));
    const res = await new Deno.Command("tesseract", {
      args: [file, "-", "--psm", psm, "--dpi", String(96 * OCR_SCALE), "tsv"],
      env: { OMP_THREAD_LIMIT: "1" },
      stdout: "piped",
      stderr: "null",
    }).output();
    return new TextDecoder().decode(res.stdout);
  } finally {
    await Deno.remove(file);
  }
}

const time = async <T>(f: () => Promise<T>): Promise<[number, T]> => {
  const t0 = performance.now();
  const v = await f();
  return [performance.now() - t0, v];
};

const child = new Deno.Command("xcalc", {
  args: ["-geometry", "+40+40"],
  stdout: "null",
  stderr: "null",
})
  .spawn();
const vision = new VisionEngine();
const cold = new VisionEngine({ cacheSize: 0 });
try {
  const deadline = Date.now() + 15_000;
  let window: string | undefined;
  while (!window && Date.now() < deadline) {
    const apps = await vision.listApps(AbortSignal.timeout(5_000));
    window = apps.find((a) => a.name === "xcalc")?.windows.at(-1)?.window;
    if (!window) await new Promise((r) => setTimeout(r, 50));
  }
  if (!window) throw new Error("No xcalc window appeared");
  await vision.input({ kind: "move", x: 1279, y: 1023 }, budget().signal);
  await new Promise((r) => setTimeout(r, 300)); // a fresh xcalc paints once; not a measurement

  const [firstMs, first] = await time(() => vision.read(window, budget()));
  emit({
    bench: "vision: first xcalc read incl. Tesseract start-up",
    figure: r2(firstMs),
    unit: "ms",
    note: `${first.nodes} elements`,
  });

  const colds: number[] = [];
  for (let i = 0; i < 15; i++) colds.push((await time(() => cold.read(window, budget())))[0]);
  const capture: Capture = first.capture;
  const reader = TesseractReader.open();
  const [, analysis] = await time(() => analyse(capture, reader, budget().signal));
  emit({
    bench: "vision: xcalc read, cold (capture, segmentation, OCR of every line) p50",
    figure: r2(median(colds)),
    unit: "ms",
    note: `p95 ${r2(p95(colds))} ms; ${analysis.boxes} boxes, ${analysis.lines} lines, ` +
      `${keysRead(analysis.proposals)}/14 keypad keys named right`,
  });

  const cached: number[] = [];
  let hits = 0;
  for (let i = 0; i < 200; i++) {
    const [ms, r] = await time(() => vision.read(window, budget()));
    cached.push(ms);
    if (r.cached) hits++;
  }
  emit({
    bench: "vision: xcalc read, cached (capture + hash, no OCR) p50",
    figure: r2(median(cached)),
    unit: "ms",
    peer: "cold read",
    peer_figure: r2(median(colds)),
    ratio: r2(median(colds) / median(cached)),
    note: `target < 5 ms; p95 ${r2(p95(cached))} ms; ${hits}/200 from the cache`,
  });

  // OCR routes, on the same lines of the same capture.
  const apiMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    apiMs.push((await time(() => analyse(capture, reader, budget().signal)))[0]);
  }
  const [cliMs, cliAnalysis] = await time(() => analyse(capture, new CliReader(), budget().signal));
  emit({
    bench: "vision OCR route: C API (libtesseract via Deno.dlopen), xcalc analysis p50",
    figure: r2(median(apiMs)),
    unit: "ms",
    peer: "tesseract command, one process per line",
    peer_figure: r2(cliMs),
    ratio: r2(cliMs / median(apiMs)),
    note: `${analysis.lines} lines; key labels named right: C API ` +
      `${labelsRead(analysis.proposals)}/55, command ${labelsRead(cliAnalysis.proposals)}/55`,
  });
  const [pageMs, page] = await time(() => analyse(capture, new CliPageReader(), budget().signal));
  emit({
    bench: "vision OCR route: tesseract command, whole window in one process (--psm 6)",
    figure: r2(pageMs),
    unit: "ms",
    peer: "C API, a Recognize per line",
    peer_figure: r2(median(apiMs)),
    ratio: r2(pageMs / median(apiMs)),
    note: `key labels named right: command ${labelsRead(page.proposals)}/55, C API per line ` +
      `${labelsRead(analysis.proposals)}/55; page layout merges or drops lone symbols`,
  });
  await reader.close();
} finally {
  child.kill();
  await child.status;
  await vision.close();
  await cold.close();
}

/**
 * xcalc's keys read in each font an X server may draw them in: the bitmap fonts of
 * xfonts-base (this session), and the Type 1 font X falls back to without them (a private
 * Xvfb with only that font path). Right, wrong and unread (left unnamed with a reason).
 */
for (
  const [font, fontPath] of [["bitmap (xfonts-base)", undefined], [
    "fallback Type 1 (no xfonts-base)",
    FALLBACK_FONT_PATH,
  ]] as const
) {
  const x = fontPath ? await startXvfb(fontPath) : undefined;
  const display = x?.display ?? Deno.env.get("DISPLAY")!;
  const engine = new VisionEngine({ env: (k) => k === "DISPLAY" ? display : Deno.env.get(k) });
  const app = new Deno.Command("xcalc", {
    args: ["-geometry", "+40+40"],
    env: { DISPLAY: display },
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const deadline = Date.now() + 15_000;
    let score: ReturnType<typeof scoreKeys> | undefined;
    while (!score && Date.now() < deadline) {
      const apps = await engine.listApps(AbortSignal.timeout(5_000));
      const window = apps.find((a) => a.name === "xcalc")?.windows.at(-1)?.window;
      if (window) {
        const read = await engine.read(window, budget());
        try {
          score = scoreKeys(buildSnapshot(read.root).elements);
        } catch {
          // Not drawn yet.
        }
      }
      if (!score) await new Promise((r) => setTimeout(r, 100));
    }
    if (!score) throw new Error(`xcalc's keypad was not read in the ${font} font`);
    const calc = XCALC_DIGITS_AND_OPERATORS.filter((k) => score.right.includes(k)).length;
    emit({
      bench: `vision: xcalc keys named right, ${font} font`,
      figure: score.right.length,
      unit: `of ${XCALC_KEYS.length}`,
      note: `digits and operators ${calc}/14; wrong ${score.wrong.length} ` +
        `(${score.wrong.join(" ")}); unread ${score.unread.length} (${score.unread.join(", ")})`,
    });
  } finally {
    app.kill();
    await app.status;
    await engine.close();
    await x?.close();
  }
}
