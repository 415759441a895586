/**
 * What the project's own files ask of the machine, found by reading them: the programs
 * they run, the shared libraries they `dlopen`, the Python modules their scripts import,
 * and the Debian packages their docs and scripts tell a user to install. The deps test
 * (`tests/deps_test.ts`) holds each of these against `install/linux/packages.txt`.
 *
 * Static and conservative: a name is found only in the shapes this project uses (below);
 * a program run through a variable is not seen, so runners take literal names.
 *
 * @module
 */

/** One thing a file needs: `xdotool`, `libX11.so.6`, `py:pyatspi`, `apt:xvfb`. */
export interface Need {
  /** The name as packages.txt lists it. */
  name: string;
  /** Repository-relative path. */
  file: string;
  /** 1-based line. */
  line: number;
}

/** Shell words that are not programs: keywords, builtins, and what stands for a program. */
const SHELL_WORDS = new Set([
  ...["if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac"],
  ...["in", "function", "select", "time", "!", "{", "}", "[[", "]]", "[", "]", "test"],
  ...["echo", "printf", "read", "cd", "pwd", "exit", "return", "set", "unset", "export"],
  ...["local", "declare", "readonly", "shift", "trap", "wait", "kill", "exec", "eval"],
  ...["source", ".", ":", "true", "false", "command", "type", "hash", "builtin", "let"],
  ...["break", "continue", "umask", "ulimit", "getopts", "mapfile", "readarray", "alias"],
  ...["jobs", "fg", "bg", "disown", "sudo", "env", "nohup", "timeout", "xargs", "then"],
]);

/** Runner helpers of this project whose first string argument is a program. */
const RUNNER_DEF = /function (\w+)\([^)]*?\b(?:cmd|command|program)\s*:\s*string/g;

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** The names of runner helpers defined anywhere in `sources` (`run`, `startApp`, ...). */
export function runnerNames(sources: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const text of sources) for (const m of text.matchAll(RUNNER_DEF)) out.add(m[1]!);
  return out;
}

/**
 * A TypeScript file's needs: `new Deno.Command` of a literal, a runner helper called with a literal
 * program (only where the file defines or imports that helper), absolute program paths,
 * sonames, and the imports of Python scripts written inside it.
 */
export function scanTypeScript(text: string, file: string, runners: ReadonlySet<string>): Need[] {
  const out: Need[] = [];
  const add = (name: string, index: number) => out.push({ name, file, line: lineAt(text, index) });
  for (const m of text.matchAll(/new Deno\.Command\(\s*"([^"]+)"/g)) add(m[1]!, m.index);
  const local = [...runners].filter((r) =>
    new RegExp(`function ${r}\\([^)]*?\\b(?:cmd|command|program)\\s*:`).test(text) ||
    new RegExp(`import\\s*\\{[^}]*\\b${r}\\b[^}]*\\}\\s*from`).test(text)
  );
  if (local.length > 0) {
    const call = new RegExp(`\\b(?:${local.join("|")})\\(\\s*(?:\\w+,\\s*)?"([^"\\s]+)"`, "g");
    for (const m of text.matchAll(call)) add(m[1]!, m.index);
  }
  for (const m of text.matchAll(/"((?:\/usr)?\/(?:s?bin|libexec)\/[\w.+-]+(?:\/[\w.+-]+)?)"/g)) {
    add(m[1]!, m.index);
  }
  for (const m of text.matchAll(/"(lib[\w+-]+(?:\.\d+)*\.so(?:\.\d+)*)"/g)) add(m[1]!, m.index);
  for (const need of scanPython(text, file)) out.push(need);
  return out;
}

/** Python imports (`import x`, `from x import y`) as `py:x`, top-level module only. */
export function scanPython(text: string, file: string): Need[] {
  const out: Need[] = [];
  const re =
    /^[ \t]*(?:import ([A-Za-z_][\w.]*)[ \t]*(?:,[ \t]*[\w.]+[ \t]*)*$|from ([A-Za-z_][\w.]*) import [\w*(])/gm;
  for (const m of text.matchAll(re)) {
    const mod = (m[1] ?? m[2]!).split(".")[0]!;
    out.push({ name: `py:${mod}`, file, line: lineAt(text, m.index) });
  }
  return out;
}

/** Debian package names after `apt-get install` / `apt install` (options and variables skipped). */
export function scanAptInstall(text: string, file: string): Need[] {
  const out: Need[] = [];
  for (const m of text.matchAll(/\bapt(?:-get)? install\b([^\n`"')(;|&,]*)/g)) {
    for (const word of m[1]!.trim().split(/\s+/)) {
      if (/^[a-z0-9][a-z0-9.+-]+$/.test(word)) {
        out.push({ name: `apt:${word}`, file, line: lineAt(text, m.index) });
      }
    }
  }
  return out;
}

/**
 * A shell script's programs: the first word of each simple command (after `|`, `&&`, `||`,
 * `;`, `$(`, `!`, variable assignments and `sudo`/`timeout N`), and `command -v X` checks.
 * Heredoc bodies, comments, quoted text (so a command inside `"$(…)"` is not seen), case
 * labels, variables and the script's own functions are skipped.
 */
export function scanShell(text: string, file: string): Need[] {
  const out: Need[] = [];
  const functions = new Set(
    [...text.matchAll(/^\s*(?:function\s+)?([\w-]+)\s*\(\)\s*\{?/gm)].map((m) => m[1]!),
  );
  // Heredoc bodies go; every other line keeps its place so line numbers stay true.
  let heredoc: string | undefined;
  const kept = text.split("\n").map((line) => {
    if (heredoc !== undefined) {
      if (line.trim() === heredoc) heredoc = undefined;
      return "";
    }
    heredoc = /<<-?\s*['"]?(\w+)['"]?/.exec(line)?.[1];
    return line;
  }).join("\n");
  const code = blankQuotesAndComments(kept)
    .replace(/\\\n/g, "  ")
    // Array assignments hold words, not commands: `missing+=(x y)`.
    .replace(/\b\w+\+?=\([^)]*\)/g, (m) => m.replace(/[^\n]/g, " "));
  // `for bin in A B; do command -v "$bin"`: each listed program is checked for, so needed.
  for (const m of kept.matchAll(/for (\w+) in ([^;\n]+);\s*do\s+command -v "\$\1"/g)) {
    for (const name of m[2]!.trim().split(/\s+/)) {
      out.push({ name, file, line: lineAt(kept, m.index) });
    }
  }
  code.split("\n").forEach((raw, i) => {
    const line = raw.replace(/^\s*[^\s()]+(?:\s*\|\s*[^\s()]+)*\)/, "");
    for (const m of line.matchAll(/command -v ([a-z][\w.+-]*)/gi)) {
      out.push({ name: m[1]!, file, line: i + 1 });
    }
    for (const piece of line.split(/\|\||&&|[|;&`]|\$\(|\(|\)/)) {
      const words = piece.trim().split(/\s+/).filter((w) => w !== "");
      while (words.length > 0) {
        const w = words[0]!;
        if (/^\w+=/.test(w) || w === "sudo" || w === "$SUDO" || w === "!" || w === "exec") {
          words.shift();
        } else if (w === "timeout") {
          words.splice(0, 2);
        } else break;
      }
      const cmd = words[0];
      if (cmd === undefined || SHELL_WORDS.has(cmd) || functions.has(cmd)) continue;
      const program = /^[a-z][\w.+-]*$/i.test(cmd) && !/^[A-Z_0-9]+$/.test(cmd) ||
        /^\/(?:usr\/)?(?:s?bin|libexec)\//.test(cmd);
      if (program && !/\.(?:sh|ts)$/.test(cmd)) out.push({ name: cmd, file, line: i + 1 });
    }
  });
  return out;
}

/**
 * `text` with quoted strings (each left as one `_` word), `${…}` expansions and comments
 * blanked out, newlines kept, and
 * the commands inside `"…$(…)…"` kept: a small lexer with a stack of contexts, since an
 * apostrophe in a comment or a `#` in a string must not start the other.
 */
function blankQuotesAndComments(text: string): string {
  /** `parens` counts open parentheses of a `code` context; the others leave it at 0. */
  type Context = { kind: "code" | "single" | "double" | "comment"; parens: number };
  const stack: Context[] = [{ kind: "code", parens: 0 }];
  let out = "";
  let braces = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!, next = text[i + 1];
    const keep = c === "\n" ? "\n" : " ";
    const top = stack[stack.length - 1]!;
    if (braces > 0) {
      if (c === "{") braces++;
      else if (c === "}") braces--;
      out += keep;
      continue;
    }
    if (top.kind === "comment" || top.kind === "single") {
      if ((top.kind === "comment" && c === "\n") || (top.kind === "single" && c === "'")) {
        stack.pop();
      }
      out += keep;
    } else if (top.kind === "double") {
      if (c === "\\") {
        out += keep + (next === "\n" ? "\n" : " ");
        i++;
      } else if (c === "$" && next === "(") {
        stack.push({ kind: "code", parens: 1 });
        out += "$(";
        i++;
      } else {
        if (c === '"') stack.pop();
        out += keep;
      }
    } else if (c === "'") {
      stack.push({ kind: "single", parens: 0 });
      out += "_";
    } else if (c === '"') {
      stack.push({ kind: "double", parens: 0 });
      out += "_";
    } else if (c === "$" && next === "(") {
      stack.push({ kind: "code", parens: 1 });
      out += "$(";
      i++;
    } else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      stack.push({ kind: "comment", parens: 0 });
      out += " ";
    } else if (c === "$" && next === "{") {
      braces = 1;
      out += "  ";
      i++;
    } else if (c === "\\" && next !== "\n") {
      out += "  ";
      i++;
    } else if (c === ")" && top.parens === 1 && stack.length > 1) {
      // The end of `$(…)`: what follows is the outer command's argument, not a command.
      stack.pop();
      out += ")_";
    } else {
      if (c === "(") top.parens++;
      if (c === ")") top.parens--;
      out += c;
    }
  }
  return out;
}
