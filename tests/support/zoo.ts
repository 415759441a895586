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

/** Starts zoo script `script` (system Python) with window title `title`. */
export async function zooApp(script: string, title: string): Promise<ZooApp> {
  requireDesktop();
  const child = new Deno.Command("/usr/bin/python3", {
    args: [new URL(`./zoo/${script}`, import.meta.url).pathname, title],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines: string[] = [];
  const reading = (async () => {
    let rest = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop()!;
      lines.push(...parts);
    }
  })();
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
    },
  };
  try {
    await waitForWindow(title);
    await waitForAccessible(child.pid);
    await app.said((l) => l === "ready");
  } catch (err) {
    await app.stop();
    throw err;
  }
  return app;
}
