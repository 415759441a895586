/**
 * Every program, shared library, Python module and apt name the project's own files use is
 * listed in install/linux/packages.txt (which deps.sh installs), and on this machine the
 * listed package, or one it depends on, really ships it. A fresh Debian 12 gets only what
 * that list says, so a test that leans on a hand-installed package fails here first.
 */
import assert from "node:assert/strict";
import {
  type Need,
  runnerNames,
  scanAptInstall,
  scanPython,
  scanShell,
  scanTypeScript,
} from "./support/external_names.ts";
import {
  candidatePaths,
  closure,
  debianPackages,
  installedDepends,
  owners,
  parsePackages,
  providers,
} from "./support/packages_list.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const LIST = "install/linux/packages.txt";
const listings = parsePackages(await Deno.readTextFile(`${ROOT}${LIST}`));

/** The project's files as git sees them: tracked, and untracked but not ignored. */
async function projectFiles(): Promise<string[]> {
  const out = await new Deno.Command("git", {
    args: ["ls-files", "--cached", "--others", "--exclude-standard"],
    cwd: ROOT,
    stdout: "piped",
  }).output();
  assert.ok(out.success, "git ls-files");
  return new TextDecoder().decode(out.stdout).split("\n").filter((f) => f !== "");
}

/** Scripts for another OS: their programs are not Debian's. */
const OTHER_OS = /(^|\/)(macos|windows)\//;

async function scanProject(): Promise<Need[]> {
  const texts = new Map<string, string>();
  for (const f of await projectFiles()) {
    try {
      texts.set(f, await Deno.readTextFile(`${ROOT}${f}`));
    } catch {
      // Deleted in the work tree, or a folder (a submodule): nothing to read.
    }
  }
  const runners = runnerNames([...texts].filter(([f]) => f.endsWith(".ts")).map(([, t]) => t));
  const needs: Need[] = [];
  for (const [file, text] of texts) {
    const shell = file.endsWith(".sh") || /^#!\S*(\/bash|\/sh|env bash)\b/.test(text);
    if (file.endsWith(".ts")) needs.push(...scanTypeScript(text, file, runners));
    else if (shell && !OTHER_OS.test(file)) needs.push(...scanShell(text, file));
    else if (file.endsWith(".py")) {
      // A module beside the script (bench/tasks/dogtail/common.py) is the project's own.
      const dir = file.slice(0, file.lastIndexOf("/") + 1);
      needs.push(
        ...scanPython(text, file).filter((n) => !texts.has(`${dir}${n.name.slice(3)}.py`)),
      );
    }
    if (/\.(ts|sh|md)$/.test(file) || shell) needs.push(...scanAptInstall(text, file));
  }
  return needs;
}

async function pythonStdlib(): Promise<Set<string>> {
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", "import sys; print('\\n'.join(sys.stdlib_module_names))"],
    stdout: "piped",
  }).output();
  return new Set(new TextDecoder().decode(out.stdout).split("\n"));
}

/** Needs whose name packages.txt does not list, as `name (file:line)`. */
export function unlisted(needs: readonly Need[], names: ReadonlyMap<string, string>): string[] {
  const packages = new Set(names.values());
  return needs
    .filter((n) => n.name.startsWith("apt:") ? !packages.has(n.name.slice(4)) : !names.has(n.name))
    .map((n) => `${n.name} (${n.file}:${n.line})`);
}

Deno.test("unlisted() names each need packages.txt lacks, with its place", () => {
  const names = new Map([["xdotool", "xdotool"], ["py:gi", "python3-gi"]]);
  const needs: Need[] = [
    { name: "xdotool", file: "a.ts", line: 1 },
    { name: "xclip", file: "b.ts", line: 7 },
    { name: "apt:python3-gi", file: "README.md", line: 3 },
    { name: "apt:xfonts-base", file: "README.md", line: 4 },
  ];
  assert.deepEqual(unlisted(needs, names), ["xclip (b.ts:7)", "apt:xfonts-base (README.md:4)"]);
});

Deno.test("every program, library, module and apt name the project uses is in packages.txt", async () => {
  const stdlib = await pythonStdlib();
  const needs = (await scanProject()).filter((n) => !stdlib.has(n.name.replace(/^py:/, "")));
  assert.ok(needs.length > 50, `the scan found ${needs.length} needs: is it still reading?`);
  const missing = unlisted(needs, providers(listings));
  assert.deepEqual(missing, [], `add these to ${LIST}:\n${missing.join("\n")}`);
});

Deno.test("deps.sh installs packages.txt, and so does the image installer's list", async () => {
  const deps = await Deno.readTextFile(`${ROOT}install/linux/deps.sh`);
  assert.match(deps, /packages\.txt/);
  const install = await Deno.readTextFile(`${ROOT}install/linux/install.sh`);
  const required = /^REQUIRED=\(([^)]*)\)/m.exec(install)?.[1]?.trim().split(/\s+/) ?? [];
  assert.ok(required.length > 0, "install.sh names its REQUIRED packages");
  const listed = debianPackages(listings);
  assert.deepEqual(required.filter((p) => !listed.has(p)), [], `add to ${LIST}`);
});

Deno.test("on this machine each listed package is installed and ships what it is listed for", async () => {
  const deps = await installedDepends();
  const problems: string[] = [];
  const wanted: { pkg: string; name: string; paths: string[] }[] = [];
  for (const { pkg, names, line } of listings) {
    // (wine-root): Windows programs inside the root tests/wine/env.sh builds; its run uses them.
    if (pkg === "(self)" || pkg === "(wine-root)") continue;
    if (pkg === "(node)" || pkg === "(npm)") {
      for (const name of names) {
        const found = await new Deno.Command("sh", { args: ["-c", `command -v ${name}`] })
          .output();
        if (!found.success) problems.push(`${name} (${LIST}:${line}): not on PATH`);
      }
      continue;
    }
    if (!deps.has(pkg)) {
      problems.push(`${pkg} (${LIST}:${line}): not installed; run install/linux/deps.sh`);
      continue;
    }
    for (const name of names) wanted.push({ pkg, name, paths: await candidatePaths(name) });
  }
  const owned = await owners(wanted.flatMap((w) => w.paths));
  for (const { pkg, name, paths } of wanted) {
    const shippers = new Set(paths.flatMap((p) => owned.get(p) ?? []));
    const ok = closure(pkg, deps);
    if (shippers.size === 0) problems.push(`${name}: no installed package ships it`);
    else if (![...shippers].some((s) => ok.has(s))) {
      problems.push(`${name}: shipped by ${[...shippers].join(", ")}, not by ${pkg} or its deps`);
    }
  }
  assert.deepEqual(problems, []);
});
