// deno-lint-ignore-file no-console -- the bench runner prints its figures.
/**
 * `deno task bench`: runs every benchmark script (inside the headless session the task
 * starts), prints their figures and writes them to bench/RESULTS.md with the command and
 * the date, so the file always holds the latest run.
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
  "bench/live_bench.ts",
  "bench/vision_bench.ts",
  "bench/reliability_bench.ts",
  "bench/footprint_bench.ts",
  "bench/web_bench.ts",
];

const only = Deno.args.filter((a) => !a.startsWith("-"));
const rows: Row[] = [];
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
  const text = new TextDecoder().decode(out.stdout);
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      const row = JSON.parse(line) as Row;
      rows.push(row);
      console.log(line);
    } catch {
      // Not a figure.
    }
  }
  if (!out.success) failures.push(`${script} exited ${out.code}`);
}

const fmt = (n: number | undefined) => (n === undefined ? "" : String(n));
const table = [
  "| benchmark | figure | peer | peer figure | ratio (peer / ours) | note |",
  "| --- | --- | --- | --- | --- | --- |",
  ...rows.map((r) =>
    `| ${r.bench} | ${fmt(r.figure)} ${r.unit} | ${r.peer ?? ""} | ${
      r.peer_figure === undefined ? "" : `${r.peer_figure} ${r.unit}`
    } | ${fmt(r.ratio)} | ${(r.note ?? "").replaceAll("|", "/")} |`
  ),
].join("\n");

if (only.length === 0) {
  // The web rows' episodes per task, when the run set fewer than the default of 10.
  const web = Deno.env.get("WEB_EPISODES");
  const episodes = web ? `WEB_EPISODES=${web} ` : "";
  const cpu = (await Deno.readTextFile("/proc/cpuinfo").catch(() => ""))
    .match(/model name\s*:\s*(.*)/)?.[1] ?? Deno.build.arch;
  const md = `# Benchmark results

Latest run of \`deno task bench\` (${new Date().toISOString().slice(0, 16)}Z), on ${cpu},
${navigator.hardwareConcurrency} cores, Debian 12, Deno ${Deno.version.deno}, inside the headless
desktop (Xvfb, AT-SPI bus) that \`install/linux/desktop-session.sh\` starts. Every peer is
measured in the same run. Medians unless a row says otherwise.

Command: \`${episodes}deno task bench\` (= \`bash bench/run.sh\`; one script:
\`deno task bench driver\`).

${table}
${failures.length ? `\nFailed scripts: ${failures.join(", ")}\n` : ""}
See bench/NOTES.md for how each figure is measured and what it means.
`;
  await writeFileAtomic("bench/RESULTS.md", md, 0o644);
  // Keep the file as `deno fmt` would write it, so the repository's fmt check stays clean.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", "bench/RESULTS.md"] }).output();
  console.error("bench: wrote bench/RESULTS.md");
}
if (failures.length) {
  console.error(`bench: failed: ${failures.join(", ")}`);
  Deno.exit(1);
}
