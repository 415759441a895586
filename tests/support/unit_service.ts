/**
 * Starts a systemd service's command line the way systemd would, for hosts where systemd
 * does not run (this container): ExecStart, Environment= and EnvironmentFile= from the
 * unit, Runtime/State/Cache directories made 0700, nothing else in the environment. Every
 * absolute path is rewritten into a scratch root, so an image root staged in a folder runs
 * as it will in the image without touching the host's /run or /etc.
 *
 * @module
 */
import { LineSplitter } from "../../util/framing.ts";

/** systemd's default PATH for system services. */
export const SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const dec = new TextDecoder();

/** The parts of a unit that say how to start it. */
export interface Unit {
  /** ExecStart, split on white space. */
  execStart: string[];
  /** Environment= assignments. */
  environment: Record<string, string>;
  /** EnvironmentFile= paths (a leading "-" dropped). */
  environmentFiles: string[];
  /** Runtime/State/CacheDirectory= as absolute paths. */
  directories: string[];
}

/** Reads a unit's [Service] keys (no quoting beyond what this unit uses: none). */
export function parseUnit(text: string): Unit {
  const unit: Unit = { execStart: [], environment: {}, environmentFiles: [], directories: [] };
  const dirs: Record<string, string> = {
    RuntimeDirectory: "/run/",
    StateDirectory: "/var/lib/",
    CacheDirectory: "/var/cache/",
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith("[")) continue;
    const eq = line.indexOf("=");
    const [key, value] = [line.slice(0, eq), line.slice(eq + 1)];
    if (key === "ExecStart") unit.execStart = value.split(/\s+/);
    if (key === "Environment") {
      const i = value.indexOf("=");
      unit.environment[value.slice(0, i)] = value.slice(i + 1);
    }
    if (key === "EnvironmentFile") unit.environmentFiles.push(value.replace(/^-/, ""));
    if (key in dirs) unit.directories.push(dirs[key] + value);
  }
  return unit;
}

/** Reads an EnvironmentFile: KEY=value or KEY="value" with backslash escapes. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = line.match(/^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/);
    if (!m) continue;
    const quoted = m[2]!.match(/^"(.*)"$/);
    env[m[1]!] = quoted ? quoted[1]!.replace(/\\(.)/g, "$1") : m[2]!;
  }
  return env;
}

/** An absolute path moved into the scratch root; anything else as it is. */
export function into(root: string, value: string): string {
  return value.startsWith("/") ? `${root}${value}` : value;
}

/** A started service. */
export interface Started {
  /** The process systemd would have started. */
  child: Deno.ChildProcess;
  /** The unit it came from. */
  unit: Unit;
  /** Its first stdout line, parsed (the driver's ready line). */
  ready: { socket?: string; endpoint?: string };
}

/**
 * Starts `root/etc/systemd/system/<name>`'s command line as systemd would; resolves once
 * the process printed its first stdout line (stderr is discarded, as the journal would
 * take it).
 */
export async function startService(root: string, name: string): Promise<Started> {
  const unit = parseUnit(await Deno.readTextFile(`${root}/etc/systemd/system/${name}`));
  const env: Record<string, string> = { PATH: SYSTEMD_PATH };
  for (const file of unit.environmentFiles) {
    Object.assign(env, parseEnvFile(await Deno.readTextFile(into(root, file))));
  }
  for (const [k, v] of Object.entries(unit.environment)) env[k] = into(root, v);
  for (const dir of unit.directories) {
    await Deno.mkdir(into(root, dir), { recursive: true, mode: 0o700 });
  }
  const [program, ...args] = unit.execStart.map((a) => into(root, a));
  const child = new Deno.Command(program!, {
    args,
    clearEnv: true,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  const splitter = new LineSplitter();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`The service exited ${(await child.status).code} before ready`);
    for (const f of splitter.push(value)) {
      if ("line" in f) {
        reader.releaseLock();
        await child.stdout.cancel();
        return { child, unit, ready: JSON.parse(dec.decode(f.line)) };
      }
    }
  }
}
