import assert from "node:assert/strict";
import {
  runnerNames,
  scanAptInstall,
  scanPython,
  scanShell,
  scanTypeScript,
} from "./external_names.ts";

const names = (needs: { name: string }[]) => needs.map((n) => n.name);

Deno.test("scanShell() finds commands after pipes, &&, $( and assignments, not words", () => {
  const script = [
    "#!/usr/bin/env bash",
    "# a comment that's got an apostrophe: xeyes",
    "set -euo pipefail",
    'here="$(cd "$(dirname "$0")" && pwd)"',
    "helper() { echo hi; }",
    "helper",
    "out=$(grep -c x file | sort) || true",
    "FOO=1 xdotool search --name x",
    'for bin in Xvfb xdpyinfo; do command -v "$bin" >/dev/null || missing+=(Xvfb2); done',
    "cat <<EOF",
    "notaprogram here",
    "EOF",
    'case "$1" in',
    "  start) helper ;;",
    "  -h | --help) sed -n 1p ;;",
    "esac",
    'exec "$prefix/deno" run x',
    "[ -x /usr/libexec/at-spi-bus-launcher ] && /usr/libexec/at-spi2-registryd &",
    "timeout 5 scrot -o x.png",
  ].join("\n");
  assert.deepEqual(names(scanShell(script, "s.sh")).sort(), [
    "/usr/libexec/at-spi2-registryd",
    "Xvfb",
    "cat",
    "dirname",
    "grep",
    "scrot",
    "sed",
    "sort",
    "xdotool",
    "xdpyinfo",
  ]);
});

Deno.test("scanShell() keeps line numbers across heredocs and multi-line strings", () => {
  const script = "PY='\nimport os\nprint(1)\n'\njq -r .x\n";
  assert.deepEqual(scanShell(script, "s.sh"), [{ name: "jq", file: "s.sh", line: 5 }]);
});

Deno.test("scanTypeScript() finds Deno.Command literals, runner calls, paths, sonames, Python", () => {
  const helper = "export function run(cmd: string, ...args: string[]) {}\n";
  const runners = runnerNames([helper]);
  assert.deepEqual([...runners], ["run"]);
  const text = [
    'import { run } from "./_testing.ts";',
    'await new Deno.Command("xclip", { args: [] }).output();',
    'await run("xwininfo", "-root");',
    'const PY = "/usr/bin/python3";',
    'openLibrary("ALLTERNIT_LIBX11", "libX11.so.6", SYMBOLS, "no_libx11");',
    "const script = `",
    "import pyatspi",
    "from gi.repository import Gtk",
    "`;",
  ].join("\n");
  assert.deepEqual(names(scanTypeScript(text, "a.ts", runners)), [
    "xclip",
    "xwininfo",
    "/usr/bin/python3",
    "libX11.so.6",
    "py:pyatspi",
    "py:gi",
  ]);
  // A file with its own `run` (not a program runner) is not read as running programs.
  const other = 'function run(id: string) {}\nrun("w1");';
  assert.deepEqual(names(scanTypeScript(other, "b.ts", runners)), []);
});

Deno.test("scanPython() and scanAptInstall() read imports and package names", () => {
  assert.deepEqual(names(scanPython("import sys, json\nfrom gi.repository import Gtk\n", "x.py")), [
    "py:sys",
    "py:gi",
  ]);
  const doc = "Run `apt-get install -y xvfb x11-utils` or apt install jq, then go.\n";
  assert.deepEqual(names(scanAptInstall(doc, "README.md")), [
    "apt:xvfb",
    "apt:x11-utils",
    "apt:jq",
  ]);
});
