// deno-lint-ignore-file no-console -- a benchmark prints its figures.
/**
 * Reads per toolkit family (issue 19), side by side with pyatspi: one app of each family
 * (GTK 3, GTK 4, Qt 5, Gecko, Chromium, LibreOffice), started alone and left to go idle.
 *
 * - first read: a connected engine lists the apps and reads the window for the first
 *   time; the peer is pyatspi in a new process finding the window (listing the apps,
 *   which also fetches their caches) and walking it for the first time. Medians of
 *   {@link FIRSTS}, each side on an app started for it. Python's start
 *   and pyatspi's connection are not counted, nor is the engine's connection.
 * - first read after a pause: the same, with {@link PAUSE_MS} between listing the apps and
 *   the read (not timed), on both sides: an agent lists the apps, then reads one. Gecko
 *   fills its caches only once asked (engines/atspi/first_read.ts): a read right after the
 *   listing must check that it found them filled, one after the pause needs not.
 * - fresh read: the same engine reads the window again, everything asked anew but what
 *   never changes (roles, interfaces: see engines/atspi/known.ts); the peer is pyatspi's
 *   later walks (libatspi keeps the same things).
 *
 * Both read the same showing nodes with names, states, extents and texts
 * (bench/pyatspi_walk.py); figures are per element, medians of {@link RUNS}. pyatspi does
 * not walk a sheet's cells (it would ask for 2^31 children); the engine reads the visible
 * ones, which count as elements of its read.
 *
 * Run inside the headless desktop: `deno task bench family_read` (`FAMILIES=Gecko` for one).
 *
 * @module
 */
import { AtspiEngine } from "../engines/atspi/engine.ts";
import { sayOf } from "../engines/atspi/first_read.ts";
import type { App } from "../tests/support/apps.ts";
import * as apps from "../tests/support/apps.ts";
import { FORM_TITLE, onDocument, onFormPage, sheet } from "../tests/support/documents.ts";
import { quiet } from "../tests/support/proc_cost.ts";
import { emit, median, round } from "./stats.ts";

const RUNS = 9;
/** First reads per side, each on a newly started app: one is too noisy on a small app. */
const FIRSTS = 5;
const PYTHON = "/usr/bin/python3"; // The system Python has python3-pyatspi.
const MAX_ELEMENTS = 5_000;
/** Between listing the apps and the first read, in the "first read after a pause". */
const PAUSE_MS = 200;

/** One read: its time and element count. */
interface Read {
  ms: number;
  nodes: number;
  /** For a first read: whether it said what the same side's next read said. */
  asNext?: boolean;
}

/**
 * Our engine: the first read of the window (`pauseMs` after listing the apps), then
 * {@link RUNS} fresh reads.
 */
async function ours(pid: number, pauseMs = 0): Promise<{ first: Read; fresh: Read[] }> {
  const engine = new AtspiEngine();
  try {
    await engine.availability(); // Connects: not counted, as pyatspi's own is not.
    const t = performance.now();
    const listed = await engine.listApps(AbortSignal.timeout(10_000));
    const window = listed.find((a) => a.pid === pid)?.windows[0]?.window;
    if (!window) throw new Error(`Process ${pid} has no window on the bus`);
    const listMs = performance.now() - t;
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
    type Said = Read & { says: string };
    const read = async (): Promise<Said> => {
      const t = performance.now();
      const tree = await engine.readWindow(window, {
        maxElements: MAX_ELEMENTS,
        signal: AbortSignal.timeout(20_000),
      });
      return { ms: performance.now() - t, nodes: tree.nodes, says: sayOf(tree) };
    };
    const firstRead = await read();
    const fresh: Said[] = [];
    for (let i = 0; i < RUNS; i++) fresh.push(await read());
    const next = fresh[0]!.says;
    const first = {
      ms: listMs + firstRead.ms,
      nodes: firstRead.nodes,
      asNext: firstRead.says === next,
    };
    return { first, fresh };
  } finally {
    await engine.close();
  }
}

/** pyatspi's first walk (`pauseMs` after finding the window) and later walks. */
async function pyatspi(pid: number, pauseMs = 0): Promise<{ first: Read; later: Read[] }> {
  const script = new URL("./pyatspi_walk.py", import.meta.url).pathname;
  const out = await new Deno.Command(PYTHON, {
    args: [script, "-", String(RUNS), "--pid", String(pid), "--pause", String(pauseMs)],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  if (!out.success) {
    throw new Error(`pyatspi_walk.py failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  const rows = new TextDecoder().decode(out.stdout).split("\n").filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Read & { says: string; warmup?: boolean; find_ms?: number });
  const warmup = rows.find((r) => r.warmup);
  const later = rows.filter((r) => !r.warmup);
  if (!warmup || later.length === 0) throw new Error("pyatspi_walk.py printed no first walk");
  const first = {
    ms: (warmup.find_ms ?? 0) + warmup.ms,
    nodes: warmup.nodes,
    asNext: warmup.says === later[0]!.says,
  };
  return { first, later };
}

/** One app of a family. */
interface Subject {
  family: string;
  app: string;
  start(files: string[]): Promise<App>;
}

const SUBJECTS: Subject[] = [
  { family: "GTK 3", app: "mousepad", start: () => apps.mousepad() },
  { family: "GTK 4", app: "gnome-calculator", start: () => apps.calculator() },
  { family: "Qt 5", app: "FeatherPad", start: () => apps.featherpad() },
  { family: "Qt 6", app: "Designer", start: () => apps.designer6() },
  {
    family: "Gecko",
    app: "Firefox ESR, a form page",
    start: (files) => onFormPage(files, (page) => apps.firefox(page, FORM_TITLE)),
  },
  {
    family: "Chromium",
    app: "Chromium, a form page",
    start: (files) =>
      onFormPage(files, (page) => apps.chromium(page, FORM_TITLE, "Last paragraph")),
  },
  {
    family: "LibreOffice",
    app: "Calc, 40 rows",
    start: (files) =>
      onDocument(files, sheet(40), ".fods", (doc) => apps.libreoffice(doc, "LibreOffice Calc")),
  },
];

function line(s: Subject, kind: string, mine: Read[], theirs: Read[], note: string): void {
  const asNext = (rs: Read[]) => `${rs.filter((r) => r.asNext).length} of ${rs.length}`;
  const whole = mine[0]?.asNext === undefined
    ? ""
    : `; the first read said what the next said: ours ${asNext(mine)}, pyatspi ${
      asNext(theirs)
    } (a partial read says less)`;
  const perEl = (rs: Read[]) => median(rs.map((r) => r.ms / r.nodes));
  const o = perEl(mine), p = perEl(theirs);
  emit({
    bench: `read ${kind}: ${s.family} (${s.app}) ms/element`,
    figure: round(o, 3),
    unit: "ms",
    peer: "pyatspi",
    peer_figure: round(p, 3),
    ratio: round(p / o, 2),
    note: `ours ${round(median(mine.map((r) => r.ms)), 1)} ms for ${
      median(mine.map((r) => r.nodes))
    } elements, pyatspi ${round(median(theirs.map((r) => r.ms)), 1)} ms for ${
      median(theirs.map((r) => r.nodes))
    }${whole}; ${note}`,
  });
}

if (!Deno.env.get("DISPLAY") || !Deno.env.get("DBUS_SESSION_BUS_ADDRESS")) {
  console.error("family_read_bench: run it inside the headless desktop (deno task bench)");
  Deno.exit(2);
}

/** Starts `s` alone, lets it go idle, runs `fn` on it, stops it. */
async function withApp<T>(s: Subject, fn: (pid: number) => Promise<T>): Promise<T> {
  const files: string[] = [];
  const app = await s.start(files);
  try {
    await quiet(app.pid);
    return await fn(app.pid);
  } finally {
    await app.stop();
    for (const f of files) await Deno.remove(f).catch(() => {});
  }
}

// `FAMILIES=Gecko,Qt 5` runs only those (a figure under study); the table wants them all.
// Empty means all; a name that is no family is an error, not an empty table.
const only = Deno.env.get("FAMILIES")?.split(",").map((f) => f.trim()).filter(Boolean);
const unknown = only?.filter((f) => !SUBJECTS.some((s) => s.family === f)) ?? [];
if (unknown.length > 0) {
  const known = SUBJECTS.map((s) => s.family).join(", ");
  throw new Error(`FAMILIES names no family: ${unknown.join(", ")} (families: ${known})`);
}
for (const s of SUBJECTS.filter((s) => !only?.length || only.includes(s.family))) {
  // Each side gets an app of its own for each first read: it pays for what the app does
  // when some client first looks (atk-bridge builds its cache, GTK 4 exposes its
  // widgets), and the side that came second would find that done. Sides alternate.
  const mine: Awaited<ReturnType<typeof ours>>[] = [];
  const py: Awaited<ReturnType<typeof pyatspi>>[] = [];
  const minePaused: Read[] = [];
  const pyPaused: Read[] = [];
  for (let i = 0; i < FIRSTS; i++) {
    mine.push(await withApp(s, (pid) => ours(pid)));
    py.push(await withApp(s, (pid) => pyatspi(pid)));
    minePaused.push((await withApp(s, (pid) => ours(pid, PAUSE_MS))).first);
    pyPaused.push((await withApp(s, (pid) => pyatspi(pid, PAUSE_MS))).first);
  }
  line(
    s,
    "first",
    mine.map((m) => m.first),
    py.map((p) => p.first),
    `medians of ${FIRSTS}, each on an app of its own: list the apps, read the window`,
  );
  line(
    s,
    `first, ${PAUSE_MS} ms after listing`,
    minePaused,
    pyPaused,
    `medians of ${FIRSTS}, each on an app of its own: list the apps, wait ${PAUSE_MS} ms (not timed), read the window`,
  );
  line(s, "fresh", mine[0]!.fresh, py[0]!.later, `medians of ${RUNS}`);
}
