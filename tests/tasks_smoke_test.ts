/**
 * CI's smoke subset of the desktop task benchmark (bench/tasks_bench.ts): every task not
 * marked `long`, at least one per family, run by our policy through the driver's ops and
 * judged by the task's own checker (a file's bytes, a program's output, a server's log,
 * pyatspi), never by the driver's answers. The full run, with dogtail beside it and under a
 * window manager too, is `deno task bench tasks`.
 */
import assert from "node:assert/strict";
import { requireDesktop } from "./support/apps.ts";
import { session } from "./support/client.ts";
import { runOurs, TASKS } from "../bench/tasks/mod.ts";

requireDesktop();

for (const task of TASKS.filter((t) => !t.long)) {
  Deno.test(`task (${task.family}): ${task.title}`, async () => {
    const s = await session();
    try {
      const out = await runOurs(task, s.client);
      assert.equal(out.ok, true, `${task.id}: ${out.reason}`);
    } finally {
      await s.close();
    }
  });
}
