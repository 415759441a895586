/**
 * X11 capture benchmark: a full-screen `XGetImage` + RGBA conversion, and the same plus
 * PNG encoding, against `scrot` writing a PNG of the same screen (a fresh process per
 * shot, so its figure includes process start-up). Prints one JSON line per figure; each
 * figure is the median of several runs after a warm-up. `ratio` is peer / figure: above
 * 1 means this module is faster.
 *
 * The screen gets a fine plaid root (`xsetroot -mod`) when `xsetroot` exists, so PNG
 * compression works on a busier image than one flat colour.
 *
 * Run inside a desktop:
 * `bash install/linux/desktop-session.sh run -- deno run -A bench/x11_capture_bench.ts`
 *
 * @module
 */
import { captureScreen } from "../platform/x11/capture.ts";
import { X11Display } from "../platform/x11/display.ts";
import { encodePng } from "../model/png.ts";

const RUNS = 15;
const PEER_RUNS = 7;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

async function time(runs: number, fn: () => unknown): Promise<number> {
  await fn(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

async function exec(cmd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${cmd}: ${new TextDecoder().decode(out.stderr)}`);
}

function print(line: Record<string, unknown>): void {
  Deno.stdout.writeSync(new TextEncoder().encode(`${JSON.stringify(line)}\n`));
}

const round = (n: number) => Math.round(n * 100) / 100;

using display = X11Display.open();
const { width, height } = display.screenSize();
await exec("xsetroot", "-mod", "3", "5", "-fg", "#2050a0", "-bg", "#f0e0c0").catch(() => {});

const dir = await Deno.makeTempDir({ prefix: "x11_bench_" });
try {
  const shot = `${dir}/scrot.png`;
  const peer = await time(PEER_RUNS, () => exec("scrot", "--overwrite", shot));
  const capture = await time(RUNS, () => captureScreen(display));
  let pngBytes = 0;
  const withPng = await time(RUNS, () => (pngBytes = encodePng(captureScreen(display)).length));
  const scrotBytes = (await Deno.stat(shot)).size;
  for (
    const [bench, figure, note] of [
      [`x11: full-screen capture ${width}x${height}`, capture, "XGetImage + BGRX->RGBA"],
      [
        `x11: full-screen capture+PNG ${width}x${height}`,
        withPng,
        `PNG ${pngBytes} bytes vs scrot ${scrotBytes} bytes`,
      ],
    ] as const
  ) {
    print({
      bench,
      figure: round(figure),
      unit: "ms",
      peer: "scrot",
      peer_figure: round(peer),
      ratio: round(peer / figure),
      note,
    });
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
