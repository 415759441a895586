// deno-lint-ignore-file no-console -- a build script reports to the person running it.
/**
 * `deno task compile [TARGET...]`: one self-contained executable per target in
 * `dist/out/`, with a sha256 manifest. `deno compile` needs the Deno runtime (`denort`)
 * for each target: it honours `DENORT_BIN` (one runtime binary for a single target) and
 * otherwise downloads it; offline, this fails with one sentence saying what is missing,
 * and leaves no half-written output behind (each target is built to a temp name and
 * renamed only when it succeeded).
 *
 * @module
 */
import { writeFileAtomic } from "../util/atomic.ts";
import config from "../deno.json" with { type: "json" };
import { LAZY_MODULES } from "../util/lazy.ts";
import { V8_FLAGS_ARG } from "../cli/v8_flags.ts";

/** Every target the driver ships for. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

const OUT = new URL("./out/", import.meta.url).pathname;
/** Modules started as workers (the AXHub's run loop, UIA's MTA thread). */
const WORKERS = [
  "engines/ax/hub/hub_worker.ts",
  "engines/uia/worker.ts",
].map((p) => new URL(`../${p}`, import.meta.url).pathname);
const MAIN = new URL("../main.ts", import.meta.url).pathname;
/** What util/lazy.ts loads by a computed path (PNG worker included): `deno compile` cannot see those imports. */
const COMMANDS = LAZY_MODULES.map((m) => new URL(`../${m}.ts`, import.meta.url).pathname);

async function sha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function build(target: string): Promise<{ file: string; sha256: string }> {
  const exe = target.includes("windows") ? ".exe" : "";
  const name = `allternit-driver-${config.version}-${target}${exe}`;
  const tmp = `${OUT}.${name}.partial${exe}`;
  // An empty DENORT_BIN means "not set"; deno compile would take it as a path.
  const env = Deno.env.toObject();
  if (!env.DENORT_BIN) delete env.DENORT_BIN;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "compile",
      "--allow-all",
      "--no-check",
      // Baked in: the executable starts V8 with them, as every `deno run` launcher does.
      V8_FLAGS_ARG,
      // Workers are loaded by URL at run time, so the compiler must be told to embed them.
      ...[...WORKERS, ...COMMANDS].flatMap((w) => ["--include", w]),
      "--target",
      target,
      "--output",
      tmp,
      MAIN,
    ],
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env,
  }).output();
  if (!out.success) {
    await Deno.remove(tmp).catch(() => {});
    const err = new TextDecoder().decode(out.stderr).split("Stack backtrace")[0]!;
    const offline = /dl\.deno\.land|download|dns|connect|network|resolve/i.test(err);
    throw new Error(
      offline
        ? `Cannot compile for ${target}: deno compile needs the Deno runtime (denort) for ` +
          `that target and cannot download it here; set DENORT_BIN to a denort binary ` +
          `for ${target} (one target per run), or use \`deno task bundle\``
        : `Cannot compile for ${target}: ${err.trim().split("\n").slice(-3).join(" ")}`,
    );
  }
  await Deno.rename(tmp, `${OUT}${name}`);
  return { file: name, sha256: await sha256(`${OUT}${name}`) };
}

if (import.meta.main) {
  const wanted = Deno.args.length ? Deno.args : [...TARGETS];
  const unknown = wanted.filter((t) => !(TARGETS as readonly string[]).includes(t));
  if (unknown.length) {
    console.error(`Unknown target ${unknown.join(", ")}; targets: ${TARGETS.join(", ")}`);
    Deno.exit(2);
  }
  if (Deno.env.get("DENORT_BIN") && wanted.length !== 1) {
    // One denort binary runs on exactly one target.
    console.error("DENORT_BIN is one runtime binary: name the one target it is for");
    Deno.exit(2);
  }
  await Deno.mkdir(OUT, { recursive: true });
  const built: { file: string; sha256: string; target: string }[] = [];
  for (const target of wanted) {
    try {
      built.push({ target, ...(await build(target)) });
      console.error(`built ${target}`);
    } catch (err) {
      console.error((err as Error).message);
      Deno.exit(1);
    }
  }
  await writeFileAtomic(
    `${OUT}manifest.json`,
    JSON.stringify({ version: config.version, deno: Deno.version.deno, built }, null, 2) + "\n",
    0o644,
  );
  console.error(`wrote ${OUT}manifest.json`);
}
