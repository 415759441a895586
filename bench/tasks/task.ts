/**
 * A desktop task of the task benchmark (issue 45): a realistic job on a real app, done twice
 * from the same start, once by a policy that uses only the driver's ops ({@link Agent}) and
 * once by dogtail with its own idioms, each judged by a checker that reads the app's work
 * (a file's bytes, a program's output, a server's log, pyatspi in its own process), never
 * by either side's answer.
 *
 * @module
 */
import type { Agent } from "./agent.ts";

/** A started app (or a program whose output is the task's result). */
export interface Running {
  /** The process on the accessibility bus. */
  pid: number;
  /** What the program printed on stdout, once it has exited (zenity). */
  output(): Promise<string>;
  /** Stops it and waits. */
  stop(): Promise<void>;
}

/** A task's own files and values, made fresh for each run. */
export interface Fixture {
  /** A directory of its own. */
  dir: string;
  /** Named values the policies and the checker share (paths, a page's address, …). */
  values: Record<string, string>;
}

/** One benchmark task. */
export interface Task {
  /** Short id, also its dogtail script's name: `bench/tasks/dogtail/<id>.py`. */
  id: string;
  /** What it does, in a line. */
  title: string;
  /** The app's family in the toolkit matrix ("GTK 3", "Qt", "Gecko", "Calc", …). */
  family: string;
  /** Files and values the task needs in `dir`. */
  prepare(dir: string): Promise<Fixture>;
  /** Starts the app on the fixture; not timed. */
  launch(f: Fixture): Promise<Running>;
  /** The policy through the driver's ops only. */
  ours(agent: Agent, app: Running, f: Fixture): Promise<void>;
  /** Why the work is not done, read from the app's work; undefined when it is. */
  check(f: Fixture, app: Running): Promise<string | undefined>;
  /** Not in CI's smoke subset. */
  long?: boolean;
}

/** Throws unless `ok`, with `why`: a policy's own sanity check. */
export function expect(ok: unknown, why: string): asserts ok {
  if (!ok) throw new Error(why);
}

/**
 * `why()` once it answers undefined (the work is done), or its last answer `ms` on: an app
 * may write its file or show its result a moment after the step that asked for it.
 */
export async function settled(
  why: () => Promise<string | undefined>,
  ms = 3_000,
): Promise<string | undefined> {
  const deadline = Date.now() + ms;
  while (true) {
    const found = await why();
    if (found === undefined || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
}
