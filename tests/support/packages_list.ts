/**
 * `install/linux/packages.txt` read and held against this machine's dpkg database: which
 * listed package ships each program, library, Python module and file the project names.
 *
 * @module
 */

/** One line of packages.txt. */
export interface Listing {
  /** Debian package, or `(node)`, `(npm)`, `(self)` for what does not come from Debian. */
  pkg: string;
  /** What of it the project uses, as written. */
  names: string[];
  /** 1-based line. */
  line: number;
}

/** The listings of packages.txt, comments and blank lines left out. */
export function parsePackages(text: string): Listing[] {
  const out: Listing[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const [pkg, ...names] = line.split(/\s+/);
    out.push({ pkg: pkg!, names, line: i + 1 });
  });
  return out;
}

/** Debian packages listed (what deps.sh installs). */
export function debianPackages(listings: readonly Listing[]): Set<string> {
  return new Set(listings.map((l) => l.pkg).filter((p) => !p.startsWith("(")));
}

/** Each listed name and the package listed for it. */
export function providers(listings: readonly Listing[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of listings) for (const n of l.names) out.set(n, l.pkg);
  return out;
}

/** Runs a command and returns its stdout (stderr is ignored; a failure is not thrown). */
async function output(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output();
  return new TextDecoder().decode(out.stdout);
}

/** Installed packages and what each depends on (Pre-Depends and Depends, every alternative). */
export async function installedDepends(): Promise<Map<string, string[]>> {
  const text = await output("dpkg-query", [
    "-W",
    "-f",
    "${Package}\t${db:Status-Abbrev}\t${Pre-Depends}, ${Depends}\t${Provides}\n",
  ]);
  const deps = new Map<string, string[]>();
  const provided = new Map<string, string[]>();
  for (const row of text.split("\n")) {
    const [pkg, status, depends, provides] = row.split("\t");
    if (!pkg || !status?.startsWith("ii")) continue;
    const names = (depends ?? "").split(/[,|]/).map((d) => d.trim().split(/[\s:(]/)[0]!)
      .filter((d) => d !== "");
    deps.set(pkg, names);
    for (const p of (provides ?? "").split(",").map((d) => d.trim().split(/[\s(]/)[0]!)) {
      if (p) provided.set(p, [...(provided.get(p) ?? []), pkg]);
    }
  }
  // A virtual package stands for the installed packages that provide it.
  for (const [virtual, pkgs] of provided) if (!deps.has(virtual)) deps.set(virtual, pkgs);
  return deps;
}

/** `pkg` and every installed package it depends on, recursively. */
export function closure(pkg: string, deps: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>();
  const todo = [pkg];
  while (todo.length > 0) {
    const p = todo.pop()!;
    if (seen.has(p) || !deps.has(p)) continue;
    seen.add(p);
    todo.push(...deps.get(p)!);
  }
  return seen;
}

/** The packages dpkg says own each path (architecture suffixes dropped); none when unowned. */
export async function owners(paths: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (paths.length === 0) return out;
  const text = await output("dpkg-query", ["-S", ...paths]);
  for (const row of text.split("\n")) {
    const at = row.indexOf(": ");
    if (at < 0) continue;
    const path = row.slice(at + 2).trim();
    const pkgs = row.slice(0, at).split(",").map((p) => p.trim().split(":")[0]!);
    out.set(path, [...(out.get(path) ?? []), ...pkgs]);
  }
  return out;
}

/** This machine's multiarch triplet (`x86_64-linux-gnu`), for `{arch}` in paths. */
export function multiarch(): string {
  return `${Deno.build.arch}-linux-gnu`;
}

/**
 * The paths a listed name stands for on this machine, in the spellings dpkg may know
 * (usrmerge: `/bin/x` is `/usr/bin/x`). Programs are looked for in the system's own
 * folders, not on PATH (a pyenv `python3` first on PATH is no Debian package), and by
 * their real names behind symlinks.
 */
export async function candidatePaths(name: string): Promise<string[]> {
  const spellings = (p: string) => {
    const out = [p];
    if (p.startsWith("/usr/")) out.push(p.slice(4));
    else out.push(`/usr${p}`);
    return out;
  };
  if (name.startsWith("path:")) return spellings(name.slice(5).replaceAll("{arch}", multiarch()));
  if (name.startsWith("/")) return spellings(name);
  if (name.startsWith("py:")) {
    const file = (await output("/usr/bin/python3", [
      "-c",
      `import ${name.slice(3)} as m; print(getattr(m, "__file__", "") or "")`,
    ])).trim();
    return file ? spellings(file) : [];
  }
  if (/^lib.*\.so(\.\d+)*$/.test(name)) {
    const cache = await output("/sbin/ldconfig", ["-p"]);
    const hit = cache.split("\n").find((l) => l.trim().startsWith(`${name} `));
    const path = hit?.split("=> ")[1]?.trim();
    return path ? spellings(path) : [];
  }
  const found = ["/usr/bin", "/usr/sbin", "/usr/games", "/bin", "/sbin"].map((d) => `${d}/${name}`);
  // An alternative (`awk` → /etc/alternatives/awk → mawk) is shipped under its real name.
  for (const path of [...found]) {
    try {
      found.push(...spellings(await Deno.realPath(path)));
    } catch {
      // Not in this folder.
    }
  }
  return found;
}
