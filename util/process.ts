/**
 * Whether a process still runs, without asking it anything: a cached answer must not
 * outlive its app in the moment before the app's exit reaches the driver as a signal.
 *
 * @module
 */

/**
 * False when `pid` has exited (or is a zombie). On Linux this reads /proc; where that is
 * not available it answers true, and the engine's own exit notification has to do.
 */
export function processAlive(pid: number): boolean {
  if (pid <= 0 || Deno.build.os !== "linux") return true;
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
