/**
 * What a process spends, from /proc: CPU time and resident memory. The matrix tests read
 * them around a read to show that a read costs an app no more than a screen reader's walk.
 *
 * @module
 */

/** CPU time (user + system) process `pid` has used, in ms. */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks * 10; // USER_HZ is 100 on Linux.
}

/** Resident memory of process `pid`, in MB. */
export async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/**
 * Waits until process `pid` is idle (under 30 ms of CPU in 500 ms), at most `timeoutMs`:
 * an app that just started keeps loading for a while, which is not the read's cost.
 */
export async function quiet(pid: number, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = await cpuMs(pid);
  while (performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = await cpuMs(pid);
    if (now - last < 30) return;
    last = now;
  }
}

/** What `fn` cost process `pid`: its CPU time and growth of resident memory. */
export async function costOf<T>(
  pid: number,
  fn: () => Promise<T>,
): Promise<{ result: T; cpuMs: number; rssGrowthMb: number }> {
  const [cpu0, rss0] = [await cpuMs(pid), await rssMb(pid)];
  const result = await fn();
  const [cpu1, rss1] = [await cpuMs(pid), await rssMb(pid)];
  return { result, cpuMs: cpu1 - cpu0, rssGrowthMb: rss1 - rss0 };
}
