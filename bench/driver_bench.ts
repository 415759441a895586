// deno-lint-ignore-file no-console -- a benchmark prints its figures.
/**
 * Driver-level figures over the real socket against gnome-calculator (run inside the
 * headless session): first read, cached re-read vs re-walking, stale refusal,
 * action-to-settled, and the 7 + 8 = batch against the peer way (xdotool click + fixed
 * 1.5 s sleep + full re-read per step).
 *
 * @module
 */
import { DriverClient } from "../rpc/client.ts";
import { calculator } from "../tests/support/apps.ts";
import { startDriver } from "../tests/support/driver_process.ts";
import type { Element } from "../protocol/element.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
const r2 = (x: number) => Math.round(x * 100) / 100;
const emit = (row: Record<string, unknown>) => console.log(JSON.stringify(row));
const time = async <T>(f: () => Promise<T>): Promise<[number, T]> => {
  const t0 = performance.now();
  const v = await f();
  return [performance.now() - t0, v];
};
const label = (els: readonly Element[], l: string) =>
  els.find((e) => e.role === "AXButton" && e.name.split(" ")[0] === l)!;

const app = await calculator();
const proc = await startDriver(["serve"]);
const c = await DriverClient.connect({ socket: proc.ready.socket! });
try {
  const [first, ui] = await time(() => c.call("read_ui", { app: "gnome-calculator" }));
  emit({
    bench: "driver: first read_ui of gnome-calculator incl. setup (socket round trip)",
    figure: r2(first),
    unit: "ms",
    note: `${ui.elements!.length} elements`,
  });
  await c.call("read_ui", { window: ui.window }); // absorbs the event the first walk causes

  const cached: number[] = [];
  let hits = 0;
  for (let i = 0; i < 200; i++) {
    const [ms, r] = await time(() => c.call("read_ui", { window: ui.window }));
    cached.push(ms);
    if (r.cached) hits++;
  }
  const walked: number[] = [];
  for (let i = 0; i < 30; i++) {
    walked.push((await time(() => c.call("read_ui", { window: ui.window, fresh: true })))[0]);
  }
  emit({
    bench: "driver: cached re-read round trip p50 (95 elements)",
    figure: r2(median(cached)),
    unit: "ms",
    peer: "re-walk every read (fresh: true)",
    peer_figure: r2(median(walked)),
    ratio: r2(median(walked) / median(cached)),
    note: `p95 ${r2(p95(cached))} ms; ${hits}/200 answered from the map`,
  });
  const since: number[] = [];
  for (let i = 0; i < 50; i++) {
    since.push((await time(() => c.call("read_ui", { window: ui.window, since: ui.version })))[0]);
  }
  emit({ bench: "driver: read_ui since (no change) p50", figure: r2(median(since)), unit: "ms" });

  // The four-step batch, ours vs the peer way.
  const plan = await c.call("read_ui", { window: ui.window });
  const steps = ["7", "+", "8", "="].map((d) => label(plan.elements!, d));
  const [batchMs, batch] = await time(() =>
    c.call("run_batch", {
      window: ui.window,
      version: plan.version,
      steps: steps.map((e) => ({ id: e.id, action: "press" as const })),
    })
  );
  const ours = [...batch.changed, ...batch.added].find((e) => e.role === "AXTextArea")?.value;
  const [peerMs, peerValue] = await time(async () => {
    let value: string | undefined;
    for (const e of steps) {
      const x = Math.round(e.bounds.x + e.bounds.w / 2),
        y = Math.round(e.bounds.y + e.bounds.h / 2);
      await new Deno.Command("xdotool", { args: ["mousemove", `${x}`, `${y}`, "click", "1"] })
        .output();
      await new Promise((r) => setTimeout(r, 1500));
      const r = await c.call("read_ui", { window: ui.window, fresh: true });
      value = r.elements!.find((el) => el.role === "AXTextArea")?.value;
    }
    return value;
  });
  emit({
    bench: "driver: calculator batch 7 + 8 = end to end",
    figure: r2(batchMs),
    unit: "ms",
    peer: "xdotool click + fixed 1.5 s sleep + full re-read per step",
    peer_figure: r2(peerMs),
    ratio: r2(peerMs / batchMs),
    note: `display ours=${JSON.stringify(ours)}, peer=${JSON.stringify(peerValue)}`,
  });
  // Stale refusal: move the map on, then act on the old version.
  const base = await c.call("read_ui", { window: ui.window });
  const one = label(base.elements!, "1");
  const [actMs, acted] = await time(() =>
    c.call("act", { window: ui.window, version: base.version, id: one.id, action: "press" })
  );
  emit({
    bench: "driver: act press to settled (GTK 4 button, AT-SPI action)",
    figure: r2(actMs),
    unit: "ms",
    note: `settled=${acted.settled} after ${acted.settle_ms} ms of waiting; GtkButton's ` +
      `activate animation delays clicked by 250 ms, so ~80-100 ms is the driver's own share`,
  });
  const stale: number[] = [];
  for (let i = 0; i < 30; i++) {
    const [ms] = await time(() =>
      c.call("act", { window: ui.window, version: base.version, id: one.id, action: "press" })
        .catch((e) => e)
    );
    stale.push(ms);
  }
  emit({
    bench: "driver: stale_version refusal with the current map p50",
    figure: r2(median(stale)),
    unit: "ms",
  });
} finally {
  await c.close();
  await proc.stop();
  await app.stop();
}
