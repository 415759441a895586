/**
 * The system's applications as freedesktop.org desktop entries (`.desktop` files): how a
 * desktop lists and starts them. Entries are found in `$XDG_DATA_HOME/applications` and
 * each `$XDG_DATA_DIRS/applications` (the first of an id wins), named by their desktop
 * file id (`org.gnome.Calculator.desktop`; a subfolder's `/` becomes `-`), and started by
 * their `Exec` line with its field codes expanded as the Desktop Entry Specification says:
 * `%f`/`%u` one file or URL, `%F`/`%U` several, `%c` the name, `%%` a percent sign; the
 * others dropped. Nothing here runs a shell: the line is split by the spec's own quoting.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";

/** One application entry. */
export interface DesktopEntry {
  /** Desktop file id, with its `.desktop` suffix. */
  id: string;
  /** `Name`, as a menu shows it. */
  name: string;
  /** The `Exec` line, unexpanded. */
  exec: string;
  /** Where the file is. */
  path: string;
  /** What the `Exec` line takes: files or URLs, one or several, or nothing. */
  takes: "none" | "file" | "files" | "url" | "urls";
}

/** Most entries read (a system has a few hundred). */
const MAX_ENTRIES = 5_000;
/** Largest entry file read. */
const MAX_FILE_BYTES = 256 * 1024;

/** The folders entries are read from, most important first. */
export function entryDirs(env: (key: string) => string | undefined): string[] {
  const home = env("XDG_DATA_HOME") || (env("HOME") ? `${env("HOME")}/.local/share` : "");
  const dirs = (env("XDG_DATA_DIRS") || "/usr/local/share:/usr/share").split(":");
  return [home, ...dirs].filter((d) => d !== "").map((d) => `${d.replace(/\/$/, "")}/applications`);
}

/** The desktop file id `name` is given (`org.gnome.Calculator` gets its `.desktop`). */
export function entryId(name: string): string {
  return name.endsWith(".desktop") ? name : `${name}.desktop`;
}

/** Every shown application entry of `dirs`, sorted by id. */
export async function listEntries(dirs: readonly string[]): Promise<DesktopEntry[]> {
  const found = new Map<string, DesktopEntry | null>();
  for (const dir of dirs) await walk(dir, "", found);
  return [...found.values()].filter((e): e is DesktopEntry => e !== null)
    .sort((a, b) => a.id.localeCompare(b.id));
}

async function walk(dir: string, prefix: string, found: Map<string, DesktopEntry | null>) {
  let items: Deno.DirEntry[];
  try {
    items = [...Deno.readDirSync(dir)];
  } catch {
    return; // A folder that is not there lists nothing.
  }
  for (const item of items) {
    if (found.size >= MAX_ENTRIES) return;
    const path = `${dir}/${item.name}`;
    if (item.isDirectory) {
      await walk(path, `${prefix}${item.name}-`, found);
      continue;
    }
    if (!item.name.endsWith(".desktop")) continue;
    const id = `${prefix}${item.name}`;
    // The first folder's entry of an id hides the later ones, also when it hides itself.
    if (found.has(id)) continue;
    found.set(id, await readEntry(path, id).catch(() => null));
  }
}

/** Reads one entry file; null when it is no shown application. */
export async function readEntry(path: string, id: string): Promise<DesktopEntry | null> {
  const info = await Deno.stat(path);
  if (info.size > MAX_FILE_BYTES) return null;
  return parseEntry(await Deno.readTextFile(path), id, path);
}

/** Parses an entry's text; null when it is no shown application. */
export function parseEntry(text: string, id: string, path: string): DesktopEntry | null {
  const keys = new Map<string, string>();
  let inMain = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      inMain = line === "[Desktop Entry]";
      continue;
    }
    if (!inMain || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq > 0) keys.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  const exec = keys.get("Exec");
  if (keys.get("Type") !== "Application" || !exec) return null;
  if (keys.get("Hidden") === "true" || keys.get("NoDisplay") === "true") return null;
  const takes = /%F/.test(exec)
    ? "files"
    : /%U/.test(exec)
    ? "urls"
    : /%f/.test(exec)
    ? "file"
    : /%u/.test(exec)
    ? "url"
    : "none";
  return { id, name: unescape(keys.get("Name") ?? id), exec, path, takes };
}

/** A string value's escapes (`\s`, `\n`, `\t`, `\r`, `\\`). */
function unescape(value: string): string {
  const map: Record<string, string> = { s: " ", n: "\n", t: "\t", r: "\r", "\\": "\\" };
  return value.replace(/\\([sntr\\])/g, (_, c: string) => map[c]!);
}

/**
 * The argument vector `entry`'s `Exec` line gives with `args` (files or URLs): split by
 * the spec's quoting, field codes expanded. Arguments to an entry that takes none, or
 * several to one that takes one, are refused: the app would get what it does not expect.
 */
export function commandOf(entry: DesktopEntry, args: readonly string[]): string[] {
  const one = entry.takes === "file" || entry.takes === "url";
  if (args.length > 0 && entry.takes === "none") {
    throw new DriverError(
      "invalid_params",
      `${entry.id} takes no files or URLs (its Exec line has no %f, %F, %u or %U)`,
      { issues: [{ path: ["args"], message: "this entry takes no arguments" }] },
    );
  }
  if (args.length > 1 && one) {
    throw new DriverError("invalid_params", `${entry.id} takes one file or URL`, {
      issues: [{ path: ["args"], message: "at most one argument" }],
    });
  }
  const out: string[] = [];
  for (const word of splitExec(unescape(entry.exec))) {
    if (/^%[fFuU]$/.test(word)) {
      out.push(...args);
      continue;
    }
    const expanded = word.replace(
      /%(.)/g,
      (_, c: string) => c === "%" ? "%" : c === "c" ? entry.name : "",
    );
    if (expanded !== "" || !/^%.$/.test(word)) out.push(expanded);
  }
  if (out.length === 0) {
    throw new DriverError("invalid_params", `${entry.id} has an empty Exec line`);
  }
  return out;
}

/** Splits an `Exec` line into words: double quotes group, `\` escapes inside them. */
export function splitExec(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quoted = false;
  let has = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === "\\" && i + 1 < line.length) word += line[++i];
      else if (c === '"') quoted = false;
      else word += c;
    } else if (c === '"') {
      quoted = true;
      has = true;
    } else if (c === " " || c === "\t") {
      if (has || word !== "") words.push(word);
      [word, has] = ["", false];
    } else {
      word += c;
    }
  }
  if (has || word !== "") words.push(word);
  return words;
}
