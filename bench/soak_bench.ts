// deno-lint-ignore-file no-console -- benchmarks print their figures.
/**
 * `deno task bench soak` (issue 48): one served driver under churn for `SOAK_MINUTES`
 * (10): three clients keep about eight real apps coming and going (each started, read,
 * searched, its digit buttons pressed where it has some, re-read now and then, and killed
 * after 20-40 s), a fourth sends bad requests on connections of their own. The driver's
 * resident set and the windows it watches are sampled every 30 s, through the load and two
 * idle minutes after it (every app closed); beside them a pyatspi client doing the same
 * reads of the same apps (`soak/pyatspi_peer.py`), its resident set sampled the same way.
 *
 * @module
 */
import { DriverClient } from "../rpc/client.ts";
import { DriverError } from "../protocol/errors.ts";
import type { App } from "../tests/support/apps.ts";
import { startDriver } from "../tests/support/driver_process.ts";
import { rssMb } from "../tests/support/proc_cost.ts";
import { emit, median, round } from "./stats.ts";
import { abuse, type AbuseCounts, describeAbuse } from "./soak/abuse.ts";
import { KINDS } from "./soak/apps.ts";
import { startPeer } from "./soak/peer.ts";
import { residentMb, type Sample, seriesOf, slope } from "./soak/series.ts";

const MINUTES = Number(Deno.env.get("SOAK_MINUTES") ?? 10);
const SAMPLE_MS = 30_000;
const IDLE_MS = 120_000;
/** Apps kept running at once, over the three app clients. */
const SLOTS = 8;
const APP_CLIENTS = 3;
/** Samples before this many minutes are left out of the drift (start-up, first reads). */
const WARM_MIN = Math.min(2, MINUTES / 2);
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
const between = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

/** Counts of what the clients did, by name. */
const counts: Record<string, number> = {};
const count = (what: string) => counts[what] = (counts[what] ?? 0) + 1;
const codeOf = (e: unknown) => e instanceof DriverError ? e.code : "thrown";

/** A client connection, opened again when the driver closed it. */
class Client {
  readonly #socket: string;
  #c: DriverClient | undefined;
  constructor(socket: string) {
    this.#socket = socket;
  }
  async get(): Promise<DriverClient> {
    if (!this.#c || this.#c.closed) {
      if (this.#c) count("reconnects");
      this.#c = await DriverClient.connect({ socket: this.#socket });
    }
    return this.#c;
  }
  async close(): Promise<void> {
    await this.#c?.close().catch(() => {});
  }
}

const driver = await startDriver(["serve"], { env: { ALLTERNIT_CHECK_RESULTS: "0" } });
const socket = driver.ready.socket!;
const peer = await startPeer();
const clients = Array.from({ length: APP_CLIENTS }, () => new Client(socket));
/** Apps running, by pid: the pipelined reads and the sampler look here. */
const running = new Map<number, App>();
const singles = new Set<string>();
let started = 0;

/** One slot: start an app, use it for 20-40 s, kill it; again until `until`. */
async function slot(i: number, until: number): Promise<void> {
  await sleep(i * 2_500); // staggered, so the apps' lifetimes interleave
  const client = clients[i % APP_CLIENTS]!;
  for (let round = 0; performance.now() < until; round++) {
    const kind = KINDS.find((k, j) =>
      j >= (i + round) % KINDS.length && !(k.single && singles.has(k.name))
    ) ?? KINDS.find((k) => !k.single)!;
    if (kind.single) singles.add(kind.name);
    let app: App | undefined;
    try {
      app = await kind.start(++started);
      count(`started ${kind.name}`);
    } catch {
      count("start failures");
      if (kind.single) singles.delete(kind.name);
      await sleep(2_000);
      continue;
    }
    running.set(app.pid, app);
    const dies = Math.min(performance.now() + between(20_000, 40_000), until);
    try {
      const c = await client.get();
      const read = await c.call("read_ui", { app: app.pid });
      count("read_ui");
      if (read.source !== "tree") count(`read_ui by ${read.source}`);
      peer.read(app.pid);
      const found = await c.call("find", { window: read.window, query: kind.query });
      count("find");
      peer.read(app.pid, kind.query.name ?? kind.query.name_contains ?? kind.query.text_contains);
      let version = read.version;
      for (const name of kind.presses ?? []) {
        const button = read.elements?.find((e) =>
          e.role === "AXButton" && e.name.split(" ")[0] === name
        );
        if (!button) continue;
        const done = await c.call("act", {
          window: read.window,
          version,
          id: button.id,
          action: "press",
          guard: "element",
        });
        version = done.version;
        count("act");
      }
      if (!found.elements.length) count("find matched nothing");
      while (performance.now() + 5_000 < dies) {
        await sleep(between(3_000, 6_000));
        const again = await c.call("read_ui", { window: read.window, since: version });
        version = again.version;
        count("read_ui since");
        if (again.source !== "tree") count(`read_ui since by ${again.source}`);
        peer.read(app.pid);
      }
      await sleep(Math.max(0, dies - performance.now()));
    } catch (e) {
      count(`error ${codeOf(e)}`);
      await sleep(Math.max(0, dies - performance.now()));
    } finally {
      running.delete(app.pid);
      await app.stop();
      if (kind.single) singles.delete(kind.name);
    }
  }
}

const samples: Sample[] = [];
const t0 = performance.now();
let phase: Sample["phase"] = "load";

async function sample(): Promise<Sample> {
  let watched = -1;
  let pixelReads = -1;
  try {
    const c = await DriverClient.connect({ socket });
    const hello = await c.call("hello", { timeout_ms: 10_000 });
    watched = hello.live.watched;
    const sources = hello.router?.sources as Record<string, number> | undefined;
    pixelReads = (sources?.vision ?? 0) + (sources?.both ?? 0);
    await c.close();
  } catch {
    count("hello failures");
  }
  const s: Sample = {
    min: round((performance.now() - t0) / 60_000),
    phase,
    ...await residentMb(driver.ready.pid),
    peer: round(await rssMb(peer.pid)),
    watched,
    pixelReads,
    apps: running.size,
  };
  samples.push(s);
  console.error(
    `soak: ${s.min.toFixed(1)} min (${s.phase}): driver ${s.rss} MB (anon ${s.anon}, file ` +
      `${s.file}), ${s.watched} watched, ` +
      `${s.apps} apps; pyatspi ${s.peer} MB`,
  );
  return s;
}

const stopSampling = new AbortController();
const sampler = (async () => {
  for (let k = 0; !stopSampling.signal.aborted; k++) {
    await sample();
    const wait = Math.max(0, t0 + (k + 1) * SAMPLE_MS - performance.now());
    await new Promise<void>((ok) => {
      const timer = setTimeout(ok, wait);
      stopSampling.signal.addEventListener("abort", () => (clearTimeout(timer), ok()), {
        once: true,
      });
    });
  }
})();

// A few seconds past the last sample of the load, so that it sees the apps still running.
const until = t0 + MINUTES * 60_000 + 5_000;
let abused: AbuseCounts;
try {
  const pids = () => [...running.keys()];
  [abused] = await Promise.all([
    abuse(socket, until, () => pids()[Math.floor(Math.random() * pids().length)]),
    ...Array.from({ length: SLOTS }, (_, i) => slot(i, until)),
  ]);
  for (const c of clients) await c.close();
  phase = "idle";
  const idleFrom = performance.now();
  await sleep(IDLE_MS);
  stopSampling.abort();
  await sampler;
  const idle = await sample();
  const idleS = round((performance.now() - idleFrom) / 1_000, 0);

  const load = samples.filter((s) => s.phase === "load");
  const last = load.at(-1)!;
  const late = load.filter((s) => s.min >= WARM_MIN);
  const drift = slope(late.map((s) => [s.min, s.rss]));
  const peerDrift = slope(late.map((s) => [s.min, s.peer]));
  const peak = Math.max(...samples.map((s) => s.rss));
  const peerPeak = Math.max(...samples.map((s) => s.peer));
  const watched = load.map((s) => s.watched).filter((w) => w >= 0);
  const p = peer.counts();
  const where = `${MINUTES} min, 4 clients, ${SLOTS} apps at a time`;
  const series = `driver MB every 30 s: ${seriesOf(samples, (s) => s.rss)} (the last ` +
    `${samples.length - load.length} idle); pyatspi: ${seriesOf(samples, (s) => s.peer)}`;
  const vs = (ours: number, theirs: number) => ({
    peer_figure: round(theirs),
    ratio: round(theirs / ours),
  });
  emit({
    bench: `soak: driver peak RSS (${where})`,
    figure: round(peak),
    unit: "MB",
    peer: "pyatspi client doing the same reads (peak)",
    ...vs(peak, peerPeak),
    note: `target < 100 MB watching 8 windows; ${series}; reads from pixels (OCR) by then: ${
      samples.find((s) => s.rss === peak)!.pixelReads
    }, in all: ${Math.max(...samples.map((s) => s.pixelReads))}`,
  });
  emit({
    bench: `soak: driver RSS at the end of the load (${where})`,
    figure: last.rss,
    unit: "MB",
    peer: "pyatspi client doing the same reads",
    ...vs(last.rss, last.peer),
    note: `target < 100 MB; ${last.watched} windows watched, ${last.apps} apps running`,
  });
  emit({
    bench: "soak: driver RSS after 2 idle minutes, every app closed",
    figure: idle.rss,
    unit: "MB",
    peer: "pyatspi client, idle as long",
    ...vs(idle.rss, idle.peer),
    note: `${idle.watched} windows still watched; ${idleS} s after the last app closed; of it ` +
      `anonymous ${idle.anon} MB, file-backed ${idle.file} MB (at the peak: ${
        samples.find((s) => s.rss === peak)!.anon
      }, ${samples.find((s) => s.rss === peak)!.file})`,
  });
  emit({
    bench: `soak: driver RSS drift after the first ${WARM_MIN} min (${where})`,
    figure: round(drift, 3),
    unit: "MB/min",
    peer: "pyatspi client doing the same reads",
    peer_figure: round(peerDrift, 3),
    note: `target: no upward drift; least-squares slope over the ${late.length} load ` +
      `samples from minute ${WARM_MIN}${MINUTES < 10 ? " (a short run: too few to judge)" : ""}`,
  });
  emit({
    bench: `soak: windows watched (median of the load samples, ${where})`,
    figure: watched.length ? median(watched) : -1,
    unit: "windows",
    note:
      `min ${Math.min(...watched, Infinity)}, max ${Math.max(...watched, -1)}; series ${
        seriesOf(samples, (s) => s.watched)
      }; ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", ")}; bad requests ` +
      `answered in full/sent: ${describeAbuse(abused)}; pyatspi walks ${p.walks}, app gone ` +
      `${p.gone}, skipped while behind ${p.skipped}, ${round(p.ms / 1_000, 0)} s walking`,
  });
} finally {
  stopSampling.abort();
  for (const app of running.values()) await app.stop();
  await peer.stop();
  await driver.stop();
}
