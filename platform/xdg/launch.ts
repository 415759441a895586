/**
 * Starting a desktop entry's program and ending a process: what `launch_app` and
 * `close_app` do on a freedesktop system. The program runs detached from the driver (its
 * own session-less child, output discarded), in the driver's environment with
 * accessibility turned on for every toolkit, so the app is on the accessibility bus the
 * driver reads.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import { commandOf, type DesktopEntry } from "./desktop_entries.ts";

/** What turns each toolkit's accessibility on (GTK and Qt read these at start). */
const ACCESSIBLE_ENV: Record<string, string> = {
  GNOME_ACCESSIBILITY: "1",
  QT_ACCESSIBILITY: "1",
  QT_LINUX_ACCESSIBILITY_ALWAYS_ON: "1",
};

/** Starts `entry` with `args`; answers the started process's id and its program's name. */
export function launchEntry(
  entry: DesktopEntry,
  args: readonly string[],
  env: Record<string, string>,
): { pid: number; program: string } {
  const [program, ...rest] = commandOf(entry, args);
  const merged: Record<string, string> = { ...env, ...ACCESSIBLE_ENV };
  // An app told to keep off the bus would never be listed.
  delete merged.NO_AT_BRIDGE;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program!, {
      args: rest,
      env: merged,
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch (err) {
    throw new DriverError(
      "app_not_running",
      `Cannot start ${entry.id} (${program}): ${err instanceof Error ? err.message : err}`,
      { id: entry.id },
    );
  }
  // The driver does not wait on it: the app outlives a request, and a driver restart.
  child.unref();
  void child.status.catch(() => {});
  return { pid: child.pid, program: program!.split("/").at(-1)! };
}

/** Is process `pid` gone (or a zombie nobody reaped yet)? */
export function processGone(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The state follows the command's closing parenthesis: Z is a zombie, dead already.
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/**
 * Waits up to `graceMs` for process `pid` to exit; with `force`, then sends SIGTERM and,
 * after as long again, SIGKILL. Answers whether it is gone, and whether a signal was sent.
 */
export async function endProcess(
  pid: number,
  { force, graceMs }: { force: boolean; graceMs: number },
  signal: AbortSignal,
): Promise<{ gone: boolean; forced: boolean }> {
  const waitGone = async (ms: number) => {
    const until = performance.now() + ms;
    while (!processGone(pid)) {
      if (performance.now() >= until) return false;
      signal.throwIfAborted();
      await new Promise((r) => setTimeout(r, 50));
    }
    return true;
  };
  if (await waitGone(graceMs)) return { gone: true, forced: false };
  if (!force) return { gone: false, forced: false };
  for (const sig of ["SIGTERM", "SIGKILL"] as const) {
    try {
      Deno.kill(pid, sig);
    } catch {
      return { gone: true, forced: true }; // It went on its own meanwhile.
    }
    if (await waitGone(Math.max(graceMs, 500))) return { gone: true, forced: true };
  }
  return { gone: processGone(pid), forced: true };
}
