// deno-lint-ignore-file no-console -- the bench runner prints its figures.
/**
 * `deno task bench`: runs every benchmark script (inside the headless session the task
 * starts), prints their figures and writes them to bench/RESULTS.md, one section per
 * script with the command and the date: a run of some scripts (`deno task bench web`)
 * rewrites their sections and keeps the others, so the file holds each script's latest run.
 *
 * @module
 */
import { writeFileAtomic } from "../util/atomic.ts";

/** One figure a benchmark printed. */
interface Row {
  bench: string;
  figure: number;
  unit: string;
  peer?: string;
  peer_figure?: number;
  ratio?: number;
  note?: string;
}

const SCRIPTS = [
  "bench/map_bench.ts",
  "bench/dbus_bench.ts",
  "bench/x11_capture_bench.ts",
  "bench/atspi_walk_bench.ts",
  "bench/family_read_bench.ts",
  "bench/driver_bench.ts",
  "bench/trace_bench.ts",
  "bench/live_bench.ts",
  "bench/vision_bench.ts",
  "bench/reliability_bench.ts",
  "bench/footprint_bench.ts",
  "bench/web_bench.ts",
  "bench/tasks_bench.ts",
  "bench/observe_bench.ts",
  "bench/soak_bench.ts",
];

const only = Deno.args.filter((a) => !a.startsWith("-"));
/** Each script's figures in this run, by script. */
const ran = new Map<string, Row[]>();
const failures: string[] = [];
for (const script of SCRIPTS) {
  if (only.length && !only.some((o) => script.includes(o))) continue;
  try {
    await Deno.stat(script);
  } catch {
    continue;
  }
  console.error(`bench: ${script}`);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", script],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const rows: Row[] = [];
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      rows.push(JSON.parse(line) as Row);
      console.log(line);
    } catch {
      // Not a figure.
    }
  }
  ran.set(script, rows);
  if (!out.success) failures.push(`${script} exited ${out.code}`);
}

const fmt = (n: number | undefined) => (n === undefined ? "" : String(n));
const table = (rows: Row[]) =>
  [
    "| benchmark | figure | peer | peer figure | ratio (peer / ours) | note |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map((r) =>
      `| ${r.bench} | ${fmt(r.figure)} ${r.unit} | ${r.peer ?? ""} | ${
        r.peer_figure === undefined ? "" : `${r.peer_figure} ${r.unit}`
      } | ${fmt(r.ratio)} | ${(r.note ?? "").replaceAll("|", "/")} |`
    ),
  ].join("\n");

const RESULTS = "bench/RESULTS.md";
/** The sections of RESULTS.md as they stand, by script: what a partial run keeps. */
async function keptSections(): Promise<Map<string, string>> {
  const text = await Deno.readTextFile(RESULTS).catch(() => "");
  const out = new Map<string, string>();
  for (const part of text.split(/^## /m).slice(1)) {
    const script = /^`(bench\/[\w.]+)`/.exec(part)?.[1];
    const body = part.split(/^See bench\/NOTES\.md/m)[0]!.trimEnd();
    if (script) out.set(script, `## ${body}`);
  }
  return out;
}

// The web rows' episodes per task, when the run set fewer than the default of 10.
const web = Deno.env.get("WEB_EPISODES");
const command = `${web ? `WEB_EPISODES=${web} ` : ""}deno task bench${
  only.length ? ` ${only.join(" ")}` : ""
}`;
const cpu = (await Deno.readTextFile("/proc/cpuinfo").catch(() => ""))
  .match(/model name\s*:\s*(.*)/)?.[1] ?? Deno.build.arch;
const when = `${new Date().toISOString().slice(0, 16)}Z`;
const kept = await keptSections();
const sections = SCRIPTS.flatMap((script) => {
  const rows = ran.get(script);
  if (!rows) return kept.has(script) ? [kept.get(script)!] : [];
  const failed = failures.find((f) => f.startsWith(script));
  return [`## \`${script}\`

Run ${when} by \`${command}\`${failed ? ` (${failed.slice(script.length + 1)})` : ""}.

${table(rows)}`];
});
const md = `# Benchmark results

Each section is the latest run of its script: \`deno task bench\` (= \`bash bench/run.sh\`) runs
them all, \`deno task bench web\` one (any part of a script's name), and a run rewrites only the
sections of the scripts it ran; each says when and by which command. On ${cpu},
${navigator.hardwareConcurrency} cores, Debian 12, Deno ${Deno.version.deno}, inside the headless
desktop (Xvfb, AT-SPI bus) that \`install/linux/desktop-session.sh\` starts. Every peer is measured
in the same run as the figure beside it. Medians unless a row says otherwise.

${sections.join("\n\n")}

See bench/NOTES.md for how each figure is measured and what it means.
`;
await writeFileAtomic(RESULTS, md, 0o644);
// Keep the file as `deno fmt` would write it, so the repository's fmt check stays clean.
await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", RESULTS] }).output();
console.error(`bench: wrote ${RESULTS}`);
if (failures.length) {
  console.error(`bench: failed: ${failures.join(", ")}`);
  Deno.exit(1);
}
