// deno-lint-ignore-file no-console -- a benchmark prints its figures.
/**
 * Live-map figures (design document, E4) over the real socket, inside the headless
 * session: how soon a change made outside the driver shows in `read_ui since`, and the
 * driver's idle CPU while it watches six windows.
 *
 * @module
 */
import { DriverClient } from "../rpc/client.ts";
import { calculator, chromium, mousepad, widgetFactory } from "../tests/support/apps.ts";
import { startDriver } from "../tests/support/driver_process.ts";
import type { App } from "../tests/support/apps.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const r2 = (x: number) => Math.round(x * 100) / 100;
const emit = (row: Record<string, unknown>) => console.log(JSON.stringify(row));

/** utime + stime of a process, in seconds (Linux /proc). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100; // fields 14 and 15, in clock ticks
}

const apps: App[] = [];
const proc = await startDriver(["serve"]);
const c = await DriverClient.connect({ socket: proc.ready.socket! });
try {
  apps.push(await calculator());
  const ui = await c.call("read_ui", { app: "gnome-calculator" });
  await c.call("read_ui", { window: ui.window });
  const digits = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];
  const lags: number[] = [];
  for (const d of digits) {
    const el = ui.elements!.find((e) => e.role === "AXButton" && e.name.split(" ")[0] === d)!;
    const base = await c.call("read_ui", { window: ui.window });
    const x = Math.round(el.bounds.x + el.bounds.w / 2),
      y = Math.round(el.bounds.y + el.bounds.h / 2);
    await new Deno.Command("xdotool", { args: ["mousemove", `${x}`, `${y}`, "click", "1"] })
      .output();
    const t0 = performance.now();
    for (let i = 0; i < 2000; i++) {
      const r = await c.call("read_ui", { window: ui.window, since: base.version });
      if (r.version > base.version) break;
    }
    lags.push(performance.now() - t0);
  }
  emit({
    bench: "live: since diff ready after an xdotool click returns (gnome-calculator)",
    figure: r2(median(lags)),
    unit: "ms",
    note: `median of ${lags.length}; max ${r2(Math.max(...lags))} ms; includes GTK's own reaction`,
  });

  const page = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(page, "<!doctype html><title>Idle page</title><p>idle</p>");
  apps.push(await mousepad(), await mousepad(), await widgetFactory());
  apps.push(await chromium(page, "Idle page", "idle"));
  const listed = await c.call("list_apps");
  const windows: string[] = [];
  for (const a of listed.apps) {
    for (const w of a.windows) {
      if (windows.length >= 6) break;
      await c.call("read_ui", { window: w.window }).then(() => windows.push(w.window))
        .catch(() => {});
    }
  }
  const watched = windows.length;
  const cpu0 = await cpuSeconds(proc.ready.pid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, 30_000));
  const cpu = (await cpuSeconds(proc.ready.pid)) - cpu0;
  const wall = (performance.now() - t0) / 1000;
  // Read after the measurement: which windows stayed live, and why the others did not.
  const states = await Promise.all(windows.map(async (window) => {
    const r = await c.call("read_ui", { window }).catch(() => undefined);
    return r?.live?.state === "degraded" ? `${r.app}: ${r.live.reason?.split(":")[0]}` : "live";
  }));
  const degraded = states.filter((s) => s !== "live");
  emit({
    bench: `live: idle CPU of the driver over 30 s watching ${watched} windows`,
    figure: r2((cpu / wall) * 100),
    unit: "%",
    note: `probe every 2 s per window read in the last minute; /proc utime+stime; ` +
      `${watched - degraded.length} live` +
      (degraded.length ? `, degraded: ${degraded.join(", ")}` : ""),
  });
} finally {
  await c.close();
  await proc.stop();
  for (const a of apps) await a.stop();
}
