/**
 * Runs one task once, by our policy or by dogtail's, from a fresh fixture and a freshly
 * started app, and judges it by the task's checker alone.
 *
 * @module
 */
import type { DriverClient } from "../../rpc/client.ts";
import { Agent } from "./agent.ts";
import type { Fixture, Running, Task } from "./task.ts";

/** How one run of a task went. */
export interface Outcome {
  /** The checker found the work done. */
  ok: boolean;
  /** The policy's time (the app's start not counted). */
  ms: number;
  /** Driver op calls (ours only). */
  calls?: number;
  /** Why not, when not: the policy's error or the checker's finding. */
  reason?: string;
}

/** Longest a policy may take before it counts as failed. */
const POLICY_MS = 120_000;

/** The first line of an error, short enough for a table cell. */
const short = (err: unknown): string =>
  (err instanceof Error ? err.message : String(err)).split("\n")[0]!.slice(0, 300);

/** Prepares, launches, runs `policy`, checks, stops: one run of `task`. */
async function once(
  task: Task,
  policy: (app: Running, f: Fixture) => Promise<number>,
): Promise<Outcome> {
  const dir = await Deno.makeTempDir({ prefix: `allternit-task-${task.id}-` });
  let app: Running;
  let f: Fixture;
  try {
    f = await task.prepare(dir);
    app = await task.launch(f);
  } catch (err) {
    // An app that would not start fails this run, not the whole bench.
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    return { ok: false, ms: NaN, reason: `launch: ${short(err)}` };
  }
  let policyFailed: string | undefined;
  let ms = 0;
  try {
    ms = await policy(app, f).catch((err) => {
      policyFailed = short(err);
      return NaN;
    });
    const found = await task.check(f, app).catch((err) => `checker: ${short(err)}`);
    const reason = policyFailed ?? found;
    // A policy that failed failed, whatever the app was left holding.
    const ok = policyFailed === undefined && found === undefined;
    return { ok, ms, ...(reason !== undefined ? { reason } : {}) };
  } finally {
    await app.stop();
    // Browser profiles and documents: a full run left 1.3 GB in /tmp.
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Runs `task` by our policy through `client`. */
export async function runOurs(task: Task, client: DriverClient): Promise<Outcome> {
  const agent = new Agent(client);
  const out = await once(task, async (app, f) => {
    const t0 = performance.now();
    await withTimeout(task.ours(agent, app, f), POLICY_MS);
    return performance.now() - t0;
  });
  return { ...out, calls: agent.calls };
}

/** Runs `task` by its dogtail script (`bench/tasks/dogtail/<id>.py`). */
export async function runDogtail(task: Task): Promise<Outcome> {
  return await once(task, async (app, { values }) => {
    const script = new URL(`./dogtail/${task.id}.py`, import.meta.url).pathname;
    const child = new Deno.Command("/usr/bin/python3", {
      args: [script, String(app.pid), JSON.stringify(values)],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const t0 = performance.now();
    const timer = setTimeout(() => child.kill("SIGKILL"), POLICY_MS);
    const out = await child.output().finally(() => clearTimeout(timer));
    const total = performance.now() - t0;
    if (out.code !== 0) {
      const err = new TextDecoder().decode(out.stderr).trim().split("\n").pop() ?? "";
      throw new Error(`dogtail: ${err || `exit ${out.code}`}`);
    }
    // The script times its own steps: Python's start and dogtail's import are not counted.
    const line = new TextDecoder().decode(out.stdout).trim().split("\n").pop() ?? "";
    try {
      return (JSON.parse(line) as { ms: number }).ms;
    } catch {
      return total;
    }
  });
}

/** `p`, or a rejection after `ms`. */
function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`policy took over ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
