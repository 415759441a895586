// deno-lint-ignore-file no-console -- a benchmark prints its figures.
/**
 * Full walk of gnome-calculator (GTK 4) and gtk3-widget-factory (GTK 3), three ways in
 * one run: the engine's `readWindow` (pipelined D-Bus through the accessibility bus),
 * pyatspi (the reference client, bench/pyatspi_walk.py) and libatspi through
 * `Deno.dlopen` (bench/atspi_ffi_walk.ts, one blocking call per attribute). All three
 * prune alike and read role, name, states, children, screen extents and the text of
 * text roles; the engine also reads `Action.NActions` and `Value.CurrentValue` where
 * present, so it does a little more. Each gets a warm-up walk (for GTK 4 the first walk
 * of all also exposes the objects), then {@link RUNS} timed walks; figures are medians.
 * The node sets are compared too (name and screen box of every kept node).
 *
 * libatspi talks to atk-bridge apps (GTK 3) over a direct peer-to-peer connection, and
 * its first contact with such an app switches on atk-bridge's `Cache`, after which the
 * engine reads a different skeleton; so the engine is measured before and after the
 * libatspi clients (see {@link bench}).
 *
 * Run inside the headless desktop (it starts and stops the apps itself):
 * `bash install/linux/desktop-session.sh run -- deno run -A bench/atspi_walk_bench.ts`.
 * Prints one JSON line per figure, like the other benchmarks (bench/run.ts).
 *
 * @module
 */
import { AtspiEngine } from "../engines/atspi/engine.ts";
import { connectA11yBus } from "../engines/atspi/bus.ts";
import { AtspiClient } from "../engines/atspi/client.ts";
import { readSkeleton } from "../engines/atspi/skeleton.ts";
import { buildTree } from "../engines/atspi/tree.ts";
import { atspiRoleName } from "../engines/atspi/roles.ts";
import type { RawNode } from "../model/engine.ts";
import { type App, calculator, widgetFactory } from "../tests/support/apps.ts";
import { quiet } from "../tests/support/proc_cost.ts";
import { findWindow, type WalkNode, walkWindow } from "./atspi_ffi_walk.ts";
import { emit, median, round } from "./stats.ts";

const RUNS = 15;
const FRESH_ENGINES = 5;
const MAX_ELEMENTS = 5000;
const PYTHON = "/usr/bin/python3"; // The system Python has python3-pyatspi; pyenv's has not.
const FFI = "libatspi via Deno.dlopen";

const signal = (): AbortSignal => AbortSignal.timeout(10_000);

/** Timed walks of one method. */
interface Runs {
  ms: number[];
  nodes: number[];
}

/** Median ms, node count and ms per node of a method's runs. */
function summary(r: Runs): { ms: number; nodes: number; perNode: number; spread: string } {
  const ms = median(r.ms);
  const nodes = median(r.nodes);
  const lo = Math.min(...r.nodes), hi = Math.max(...r.nodes);
  return {
    ms,
    nodes,
    perNode: ms / nodes,
    spread: lo === hi ? "" : ` (node count varied ${lo}..${hi})`,
  };
}

/** Node identities for comparing node sets: name and screen box. */
function rawKeys(n: RawNode, out: string[] = []): string[] {
  const b = n.bounds;
  out.push(`${n.name}|${b.x},${b.y},${b.w},${b.h}`);
  for (const c of n.children) rawKeys(c, out);
  return out;
}

function walkKeys(n: WalkNode, out: Map<string, string> = new Map()): Map<string, string> {
  const b = n.bounds ?? { x: 0, y: 0, w: 0, h: 0 };
  let key = `${n.name}|${b.x},${b.y},${b.w},${b.h}`;
  while (out.has(key)) key += "'"; // Twins stay distinct.
  out.set(key, atspiRoleName(n.role));
  for (const c of n.children) walkKeys(c, out);
  return out;
}

/** Which nodes one method kept and the other did not, by AT-SPI role. */
function compareSets(ours: RawNode, ffi: WalkNode): string {
  const theirs = walkKeys(ffi);
  const mine = new Map<string, number>();
  for (const k of rawKeys(ours)) {
    let key = k;
    while (mine.has(key)) key += "'";
    mine.set(key, 1);
  }
  const onlyFfi = new Map<string, number>();
  for (const [k, role] of theirs) if (!mine.has(k)) onlyFfi.set(role, (onlyFfi.get(role) ?? 0) + 1);
  const onlyOurs = [...mine.keys()].filter((k) => !theirs.has(k)).length;
  if (onlyFfi.size === 0 && onlyOurs === 0) return "same node set as the FFI walk";
  const roles = [...onlyFfi].map(([r, n]) => `${n} ${r}`).join(", ");
  return `node sets differ: only the FFI walk has ${roles || "none"}; only ours has ${onlyOurs}`;
}

async function ourEngine(pid: number): Promise<{ runs: Runs; last: RawNode; phases: string }> {
  const engine = new AtspiEngine();
  try {
    const apps = await engine.listApps(signal());
    const window = apps.find((a) => a.pid === pid)?.windows[0]?.window;
    if (!window) throw new Error(`Process ${pid} has no window on the bus`);
    const budget = () => ({ maxElements: MAX_ELEMENTS, signal: signal() });
    let last = (await engine.readWindow(window, budget())).root; // warm-up
    const runs: Runs = { ms: [], nodes: [] };
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      const tree = await engine.readWindow(window, budget());
      runs.ms.push(performance.now() - t);
      runs.nodes.push(tree.nodes);
      last = tree.root;
    }
    return { runs, last, phases: await phases(pid) };
  } finally {
    await engine.close();
  }
}

/** Where one more read's time goes: the skeleton (structure) and the per-node attributes. */
async function phases(pid: number): Promise<string> {
  const bus = await connectA11yBus();
  try {
    const client = new AtspiClient(bus);
    const limits = { timeoutMs: 6_000, signal: signal() };
    const registry = { bus: "org.a11y.atspi.Registry", path: "/org/a11y/atspi/accessible/root" };
    for (const app of await client.children(registry, limits)) {
      if (await client.pid(app.bus, limits).catch(() => 0) !== pid) continue;
      const [ref] = await client.children(app, limits);
      if (!ref) break;
      let t = performance.now();
      const skeleton = await readSkeleton(client, ref, limits, MAX_ELEMENTS * 4);
      const skeletonMs = performance.now() - t;
      t = performance.now();
      await buildTree(client, skeleton, ref.path, MAX_ELEMENTS, limits);
      const attrMs = performance.now() - t;
      return `one more read: skeleton ${round(skeletonMs, 1)} ms (${skeleton.size} objects), ` +
        `attributes ${round(attrMs, 1)} ms`;
    }
    return "";
  } finally {
    bus.close();
  }
}

/** A fresh engine's first listApps + readWindow: connection setup included. */
async function firstRead(pid: number): Promise<number> {
  const t = performance.now();
  const engine = new AtspiEngine();
  try {
    const apps = await engine.listApps(signal());
    const window = apps.find((a) => a.pid === pid)?.windows[0]?.window;
    if (!window) throw new Error(`Process ${pid} has no window on the bus`);
    await engine.readWindow(window, { maxElements: MAX_ELEMENTS, signal: signal() });
    return performance.now() - t;
  } finally {
    await engine.close();
  }
}

/** pyatspi in its own process; only the walks it times itself count, not its start. */
async function pyatspi(name: string, pid: number): Promise<Runs> {
  const script = new URL("./pyatspi_walk.py", import.meta.url).pathname;
  const out = await new Deno.Command(PYTHON, {
    args: [script, name, String(RUNS), "--pid", String(pid)],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`pyatspi_walk.py failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  const runs: Runs = { ms: [], nodes: [] };
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    const row = JSON.parse(line) as { nodes: number; ms: number; warmup?: boolean };
    if (row.warmup) continue;
    runs.ms.push(row.ms);
    runs.nodes.push(row.nodes);
  }
  if (runs.ms.length !== RUNS) throw new Error(`pyatspi_walk.py printed ${runs.ms.length} runs`);
  return runs;
}

/** The FFI walk in this process: synchronous, one blocking round trip per attribute. */
function ffiWalk(pid: number): { runs: Runs; last: WalkNode; setupMs: number } {
  const t = performance.now();
  using window = findWindow({ pid });
  if (!window) throw new Error(`libatspi does not see a window of process ${pid}`);
  const setupMs = performance.now() - t;
  let last = walkWindow(window, MAX_ELEMENTS).root; // warm-up
  const runs: Runs = { ms: [], nodes: [] };
  for (let i = 0; i < RUNS; i++) {
    const walk = walkWindow(window, MAX_ELEMENTS);
    runs.ms.push(walk.ms);
    runs.nodes.push(walk.nodes);
    last = walk.root;
  }
  return { runs, last, setupMs };
}

/**
 * One app, in this order: the engine before any libatspi client has touched the app, a
 * few fresh engines, pyatspi, the FFI walk, and the engine again. The order matters for
 * GTK 3: libatspi's first contact (a peer-to-peer connection via
 * `GetApplicationBusAddress`) switches on atk-bridge's `Cache`, and the engine then reads
 * a different skeleton; the second engine pass shows that state.
 */
async function bench(name: string, app: App): Promise<void> {
  const ours = await ourEngine(app.pid);
  const fresh: number[] = [];
  for (let i = 0; i < FRESH_ENGINES; i++) fresh.push(await firstRead(app.pid));
  const py = await pyatspi(name, app.pid);
  const ffi = ffiWalk(app.pid);
  const after = await ourEngine(app.pid);

  const o = summary(ours.runs), p = summary(py), f = summary(ffi.runs), a = summary(after.runs);
  const counts = o.nodes === p.nodes && p.nodes === f.nodes
    ? `all three kept ${o.nodes} nodes`
    : `node counts differ: ours ${o.nodes}, pyatspi ${p.nodes}, FFI ${f.nodes}`;
  const line = (who: string, s: ReturnType<typeof summary>, extra: string) =>
    emit({
      bench: `atspi walk: ${name} (${who})`,
      figure: round(s.ms),
      unit: "ms",
      note: `${s.nodes} nodes, ${round(s.perNode, 4)} ms/node${s.spread}; median of ${RUNS} ` +
        `after a warm-up; ${extra}`,
    });
  line(
    "our engine",
    o,
    `before any libatspi client touched the app; ${compareSets(ours.last, ffi.last)}; ` +
      ours.phases,
  );
  line("pyatspi", p, "walk time as the script measured it, Python start not counted");
  line(
    FFI,
    f,
    `in-process; finding the window (and atspi_init, on first use): ${round(ffi.setupMs, 1)} ms`,
  );
  line(
    "our engine, after libatspi clients",
    a,
    `the same engine read once pyatspi and the FFI walk had connected to the app; ` +
      `${compareSets(after.last, ffi.last)}; ${after.phases}; ms/node ratio pyatspi/ours ` +
      `${round(p.perNode / a.perNode, 2)}, FFI/ours ${round(f.perNode / a.perNode, 2)}`,
  );
  for (const [peer, s] of [["pyatspi", p], [FFI, f]] as const) {
    emit({
      bench: `atspi walk: ${name} ms/element`,
      figure: round(o.perNode, 4),
      unit: "ms",
      peer,
      peer_figure: round(s.perNode, 4),
      ratio: round(s.perNode / o.perNode, 2),
      note: `${counts}; ours measured before libatspi touched the app`,
    });
  }
  emit({
    bench: `atspi walk: ${name} first read incl. setup (our engine)`,
    figure: round(median(fresh)),
    unit: "ms",
    note: `a fresh AtspiEngine: bus lookup, connect, listApps, readWindow; median of ` +
      `${FRESH_ENGINES}; the app had been read before (GTK 4 objects already exposed)`,
  });
}

if (!Deno.env.get("DISPLAY") || !Deno.env.get("DBUS_SESSION_BUS_ADDRESS")) {
  console.error(
    "atspi_walk_bench: run it inside the headless desktop: bash install/linux/desktop-session.sh " +
      "run -- deno run -A bench/atspi_walk_bench.ts",
  );
  Deno.exit(2);
}

const started: App[] = [];
try {
  for (
    const [name, start] of [["gnome-calculator", calculator], [
      "gtk3-widget-factory",
      widgetFactory,
    ]] as const
  ) {
    const app = await start();
    started.push(app);
    // A window just shown is still being set up: reads then measured the app's start.
    await quiet(app.pid);
    await bench(name, app);
  }
} finally {
  await Promise.all(started.map((a) => a.stop()));
}
