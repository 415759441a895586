// deno-lint-ignore-file no-console -- the bench prints its figures.
/**
 * `deno task bench tasks`: the desktop task benchmark (issue 45). Every task of
 * bench/tasks/mod.ts runs by our policy (the driver's ops only) and by dogtail's, each
 * from a fresh start, judged by the task's own checker; in a desktop with no window
 * manager (containers) and again under openbox (guest desktops), each a session of its
 * own. One JSON row per task and mode, then the totals: success of each side, and the
 * median of dogtail's time over ours on the tasks both finished.
 *
 * `--only id,id` narrows the tasks; `--mode bare|openbox` runs one mode in the session
 * already there; `--no-dogtail` skips the peer.
 *
 * @module
 */
import { emit, median, round } from "./stats.ts";
import { TASKS } from "./tasks/mod.ts";
import { type Outcome, runDogtail, runOurs } from "./tasks/run.ts";
import { session } from "../tests/support/client.ts";

const MODES = { bare: "none", openbox: "openbox" } as const;
type Mode = keyof typeof MODES;

/** One task's two runs in one mode. */
interface Result {
  kind: "task";
  id: string;
  family: string;
  mode: Mode;
  ours: Outcome;
  dogtail?: Outcome;
}

const arg = (name: string) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
};
const only = arg("--only")?.split(",");
const mode = arg("--mode") as Mode | undefined;
const peer = !Deno.args.includes("--no-dogtail");
const tasks = TASKS.filter((t) => !only || only.includes(t.id));

if (mode) await runMode(mode);
else await runBoth();

/** Runs every task in this session, printing one result line per task. */
async function runMode(m: Mode): Promise<void> {
  const s = await session();
  try {
    for (const task of tasks) {
      console.error(`tasks: ${task.id} [${m}] ours`);
      const ours = await runOurs(task, s.client);
      let dogtail: Outcome | undefined;
      if (peer) {
        console.error(`tasks: ${task.id} [${m}] dogtail`);
        dogtail = await runDogtail(task);
      }
      const r: Result = { kind: "task", id: task.id, family: task.family, mode: m, ours };
      if (dogtail) r.dogtail = dogtail;
      console.log(JSON.stringify(r));
    }
  } finally {
    await s.close();
  }
}

/** Runs each mode in a session of its own and prints the rows and the totals. */
async function runBoth(): Promise<void> {
  const results: Result[] = [];
  const pass = Deno.args.filter((a, i) => a !== "--mode" && Deno.args[i - 1] !== "--mode");
  for (const [m, wm] of Object.entries(MODES) as [Mode, string][]) {
    const out = await new Deno.Command("bash", {
      args: [
        "install/linux/desktop-session.sh",
        "run",
        "--wm",
        wm,
        "--",
        Deno.execPath(),
        "run",
        "--allow-all",
        "bench/tasks_bench.ts",
        "--mode",
        m,
        ...pass,
      ],
      // A session of its own beside the one the bench runs in.
      env: { ALLTERNIT_SESSION_DIR: `/tmp/allternit-tasks-${m}` },
      stdout: "piped",
      stderr: "inherit",
    }).output();
    for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
      if (!line.startsWith("{")) continue;
      const r = JSON.parse(line) as Result;
      if (r.kind === "task") results.push(r);
    }
  }
  for (const r of results) emit(row(r));
  for (const m of Object.keys(MODES) as Mode[]) totals(results.filter((r) => r.mode === m), m);
  totals(results, "both modes");
}

/** A task's row: our time, dogtail's, and how each went. */
function row(r: Result): Record<string, unknown> {
  const say = (o: Outcome | undefined, calls: boolean) =>
    o === undefined
      ? "not run"
      : `${o.ok ? "pass" : `FAIL (${o.reason ?? "?"})`}${calls ? `, ${o.calls} calls` : ""}`;
  const both = r.ours.ok && r.dogtail?.ok === true;
  return {
    bench: `tasks: ${r.id} [${r.mode}]`,
    figure: round(r.ours.ms || 0, 0),
    unit: "ms",
    ...(r.dogtail
      ? {
        peer: "dogtail",
        peer_figure: round(r.dogtail.ms || 0, 0),
        ...(both ? { ratio: round(r.dogtail.ms / r.ours.ms) } : {}),
      }
      : {}),
    note: `${r.family}; ours: ${say(r.ours, true)}; dogtail: ${say(r.dogtail, false)}`,
  };
}

/** Success of each side and the median time ratio over the tasks both finished. */
function totals(rs: readonly Result[], label: string): void {
  if (rs.length === 0) return;
  const ours = rs.filter((r) => r.ours.ok).length;
  const theirs = rs.filter((r) => r.dogtail?.ok).length;
  const both = rs.filter((r) => r.ours.ok && r.dogtail?.ok);
  emit({
    bench: `tasks: success [${label}]`,
    figure: round((100 * ours) / rs.length, 1),
    unit: "%",
    peer: "dogtail",
    peer_figure: round((100 * theirs) / rs.length, 1),
    note: `ours ${ours}/${rs.length}, dogtail ${theirs}/${rs.length}`,
  });
  if (both.length === 0) return;
  const ratios = both.map((r) => r.dogtail!.ms / r.ours.ms);
  emit({
    bench: `tasks: median time ratio dogtail/ours [${label}]`,
    figure: round(median(ratios)),
    unit: "x",
    note: `over the ${both.length} tasks both finished; median task ours ${
      round(median(both.map((r) => r.ours.ms)), 0)
    } ms, dogtail ${round(median(both.map((r) => r.dogtail!.ms)), 0)} ms`,
  });
}
