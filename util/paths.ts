/**
 * Where the driver keeps its files (protocol.md, "Files").
 *
 * @module
 */

/** The data folder: `ALLTERNIT_DATA_DIR`, else the OS convention. */
export function dataDir(env: (k: string) => string | undefined = (k) => Deno.env.get(k)): string {
  const explicit = env("ALLTERNIT_DATA_DIR");
  if (explicit) return explicit;
  const home = env("HOME") ?? env("USERPROFILE") ?? ".";
  switch (Deno.build.os) {
    case "darwin":
      return `${home}/Library/Application Support/Allternit`;
    case "windows":
      return `${env("APPDATA") ?? `${home}\\AppData\\Roaming`}\\Allternit`;
    default:
      return `${env("XDG_DATA_HOME") || `${home}/.local/share`}/allternit`;
  }
}

/** Files under one data folder. */
export interface DriverPaths {
  /** The data folder itself. */
  data: string;
  /** `computer-use/allternit-driver.sock` */
  socket: string;
  /** `computer-use/driver/` */
  driverDir: string;
  /** `computer-use/driver/router.json` */
  router: string;
  /** `computer-use/driver/audit.jsonl` */
  audit: string;
  /** `computer-use/driver/endpoint.json`: TCP endpoint and token, 0600. */
  endpoint: string;
}

/** Paths under `data`. */
export function driverPaths(data: string = dataDir()): DriverPaths {
  const cu = `${data}/computer-use`;
  const driverDir = `${cu}/driver`;
  return {
    data,
    socket: `${cu}/allternit-driver.sock`,
    driverDir,
    router: `${driverDir}/router.json`,
    audit: `${driverDir}/audit.jsonl`,
    endpoint: `${driverDir}/endpoint.json`,
  };
}

/** A file (or a link to one) is at `path`. */
export function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Parent folder of a path. */
export function dirname(path: string): string {
  const i = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return i <= 0 ? (i === 0 ? "/" : ".") : path.slice(0, i);
}

/**
 * Makes `dir` (and parents) owner-only when it is missing. A folder that is already there
 * is never changed (a `--socket` in /tmp must not lock others out of /tmp), but one that
 * others may write to is refused: they could replace what the driver puts there.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  let stat: Deno.FileInfo | undefined;
  try {
    stat = await Deno.stat(dir);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  if (stat === undefined) {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode passes through the umask; the folder is ours, so set it exactly.
    if (Deno.build.os !== "windows") await Deno.chmod(dir, 0o700);
    return;
  }
  if (!stat.isDirectory) throw new Error(`"${dir}" is not a folder`);
  const mode = stat.mode ?? 0;
  if (Deno.build.os !== "windows" && (mode & 0o022) !== 0) {
    throw new Error(
      `Refusing to use "${dir}": others can write to it (mode ${(mode & 0o7777).toString(8)}). ` +
        "Give a path in a folder only you can write to, or a folder that does not exist yet",
    );
  }
}
