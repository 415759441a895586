// deno-lint-ignore-file no-console -- a benchmark helper prints its figures.
/**
 * What each part of `serve` adds to start-up time and resident memory: imports the
 * driver's layers one after another in a fresh process and prints, per step, the time
 * the import took and the growth of the resident set. Run by bench/footprint_bench.ts.
 *
 * @module
 */
const STEPS: [string, () => Promise<unknown>][] = [
  ["the CLI (main's own modules)", () => import("../cli/args.ts")],
  ["zod and the protocol's schemas", () => import("../protocol/ops.ts")],
  ["the driver: live map, router, locks, ops", () => import("../driver/driver.ts")],
  ["serve: dispatcher, server, listeners", () => import("../cli/serve.ts")],
  ["the AT-SPI engine (D-Bus, X11 input)", () => import("../engines/atspi/engine.ts")],
  ["the vision engine (segmentation, OCR glue)", () => import("../engines/vision/engine.ts")],
  ["Tesseract loaded (not at start: on first OCR)", async () => {
    const { TesseractReader } = await import("../engines/vision/ocr.ts");
    TesseractReader.open().close();
  }],
  [
    "the Cua engine with the MCP SDK (only with cua-driver)",
    () => import("../engines/cua/engine.ts"),
  ],
];

const rss = () => Deno.memoryUsage().rss / 1e6;
const out: { step: string; ms: number; mb: number }[] = [];
for (const [step, run] of STEPS) {
  const [t0, m0] = [performance.now(), rss()];
  await run();
  out.push({ step, ms: Math.round(performance.now() - t0), mb: Math.round(rss() - m0) });
}
console.log(
  JSON.stringify({ base_mb: Math.round(rss() - out.reduce((a, s) => a + s.mb, 0)), out }),
);
