// deno-lint-ignore-file no-console -- a benchmark prints its figures.
/**
 * What recording a trace costs an act (docs/traces.md, "Cost"): the same press of
 * gnome-calculator's "1" over the real socket, with no trace and with one recording on
 * the connection (`trace_start`): a screenshot of the window before and after, scaled
 * and encoded, and the op line.
 *
 * @module
 */
import { DriverClient } from "../rpc/client.ts";
import { calculator } from "../tests/support/apps.ts";
import { startDriver } from "../tests/support/driver_process.ts";

const ROUNDS = 25;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const r2 = (x: number) => Math.round(x * 100) / 100;

const app = await calculator();
const proc = await startDriver(["serve"]);
const c = await DriverClient.connect({ socket: proc.ready.socket! });
const dir = await Deno.makeTempDir({ prefix: "trace-bench-" });
try {
  const ui = await c.call("read_ui", { app: "gnome-calculator" });
  const one = ui.elements!.find((e) => e.role === "AXButton" && e.name.split(" ")[0] === "1")!;
  let version = ui.version;
  const presses = async (): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      const r = await c.call("act", {
        window: ui.window,
        version,
        id: one.id,
        action: "press",
        guard: "element",
      });
      out.push(performance.now() - t0);
      version = r.version;
    }
    return out;
  };
  const shots: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    await c.call("screenshot", { window: ui.window });
    shots.push(performance.now() - t0);
  }
  const off = await presses();
  await c.call("trace_start", { dir: `${dir}/t` });
  const on = await presses();
  const stopped = await c.call("trace_stop", {});
  const overhead = median(on) - median(off);
  console.log(JSON.stringify({
    bench: "trace: act press to settled with a trace recording (p50)",
    figure: r2(median(on)),
    unit: "ms",
    peer: "the same act with no trace",
    peer_figure: r2(median(off)),
    ratio: r2(median(off) / median(on)),
    note: `overhead ${r2(overhead)} ms per act (two window captures, scaled, encoded, ` +
      `stored once per image); ${stopped.images} images, ${stopped.image_bytes} bytes ` +
      `for ${stopped.ops} ops; a screenshot op of the window takes ${r2(median(shots))} ms`,
  }));
} finally {
  await c.close();
  await proc.stop();
  await app.stop();
  await Deno.remove(dir, { recursive: true });
}
