/**
 * The widget zoo's apps (tests/support/zoo/): small apps of each toolkit that print every
 * state change on stdout, so a test checks an action's effect by the app's own word.
 *
 * @module
 */
import { type App, requireDesktop, waitForAccessible, waitForWindow } from "./apps.ts";

/** A zoo app: its process, and the lines it printed so far. */
export interface ZooApp extends App {
  /** Every line the app printed, in order. */
  readonly lines: readonly string[];
  /** Waits until the app printed a line `match` accepts; the line. */
  said(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
}

/** How {@link zooApp} starts a script. */
export interface ZooOptions {
  /**
   * The app has no accessibility tree (Tk): it is run as a person runs a script, by its
   * `#!` line from a copy named after it (`tk_modal.py` runs as `tk_modal`), so `ps` and
   * `list_apps` name it by that rather than `python3`; and it is waited for on X alone.
   */
  xOnly?: boolean;
}

/** A copy of script `path` as a program of its own (mode 0755, no `.py`) in a new folder. */
async function ownProgram(path: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "allternit-zoo-" });
  const program = `${dir}/${path.slice(path.lastIndexOf("/") + 1).replace(/\.py$/, "")}`;
  await Deno.copyFile(path, program);
  await Deno.chmod(program, 0o755);
  return program;
}

/**
 * Starts zoo script `script` (system Python) with window title `title`, then `args` (what
 * the script takes after the title, such as the Qt version of qt_modal.py).
 */
export async function zooApp(
  script: string,
  title: string,
  args: readonly string[] = [],
  options: ZooOptions = {},
): Promise<ZooApp> {
  requireDesktop();
  const path = new URL(`./zoo/${script}`, import.meta.url).pathname;
  const own = options.xOnly ? await ownProgram(path) : undefined;
  const child = new Deno.Command(own ?? "/usr/bin/python3", {
    args: own ? [title, ...args] : [path, title, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const { lines, reading } = linesOf(child.stdout);
  const app: ZooApp = {
    pid: child.pid,
    lines,
    async said(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const line = lines.find(match);
        if (line !== undefined) return line;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`${script} never said what was waited for; it said: ${lines.join(" | ")}`);
    },
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      await reading;
      if (own) await Deno.remove(own.slice(0, own.lastIndexOf("/")), { recursive: true });
    },
  };
  try {
    await waitForWindow(title);
    // An app only X knows never reaches the accessibility bus: its window and word suffice.
    if (!options.xOnly) await waitForAccessible(child.pid);
    await app.said((l) => l === "ready");
  } catch (err) {
    await app.stop();
    throw err;
  }
  return app;
}

/**
 * The lines a process prints on `stdout`, as they come: `lines` grows until `reading`
 * settles at the end of its output.
 */
export function linesOf(stdout: ReadableStream<Uint8Array>): {
  lines: string[];
  reading: Promise<void>;
} {
  const lines: string[] = [];
  const reading = (async () => {
    let rest = "";
    for await (const chunk of stdout.pipeThrough(new TextDecoderStream())) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop()!;
      lines.push(...parts);
    }
  })();
  return { lines, reading };
}
