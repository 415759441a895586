/**
 * Starting a task's app: on screen and on the accessibility bus before any policy runs,
 * so neither side's time counts an app's start. Each app gets a home of its own (its
 * settings and recent files start empty, the same for both policies).
 *
 * @module
 */
import { waitForAccessible, waitForWindow } from "../../tests/support/apps.ts";
import type { Running } from "./task.ts";

/** How a task's app is started. */
export interface Launch {
  /** Program. */
  cmd: string;
  /** Its arguments. */
  args: string[];
  /** A window title (or part of one) that says it is up. */
  window: string;
  /** The task's directory: the app's HOME and XDG dirs go under it. */
  dir: string;
  /** Keep its stdout (zenity answers there). */
  output?: boolean;
  /** More environment. */
  env?: Record<string, string>;
}

/** Starts the app and waits until its window is on screen and on the bus. */
export async function launch(l: Launch): Promise<Running> {
  const child = new Deno.Command(l.cmd, {
    args: l.args,
    cwd: l.dir,
    stdin: "null",
    stdout: l.output ? "piped" : "null",
    stderr: "null",
    env: { ...await homeIn(l.dir), ...l.env },
  }).spawn();
  const status = child.status;
  const stdout = l.output ? new Response(child.stdout).text() : Promise.resolve("");
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      return; // gone
    }
    const done = await Promise.race([
      status.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 3_000)),
    ]);
    if (!done) {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
      await status;
    }
  };
  try {
    await waitForWindow(l.window);
    await waitForAccessible(child.pid);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    pid: child.pid,
    output: async () => {
      // A program that answers by its output has exited once its window is done with.
      const exited = await Promise.race([
        status.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 5_000)),
      ]);
      if (!exited) throw new Error(`${l.cmd} is still running`);
      return await stdout;
    },
    stop,
  };
}

/**
 * The environment of an app with a home of its own under `dir` (made here): its settings,
 * data and cache start empty, and GSettings stay in it (no dconf service is asked).
 */
export async function homeIn(dir: string): Promise<Record<string, string>> {
  const home = `${dir}/home`;
  await Deno.mkdir(`${home}/.config`, { recursive: true });
  return {
    HOME: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_DATA_HOME: `${home}/.local/share`,
    XDG_CACHE_HOME: `${home}/.cache`,
    GSETTINGS_BACKEND: "keyfile",
  };
}
