/**
 * Every task of the desktop task benchmark, in the order it runs.
 *
 * @module
 */
import type { Task } from "./task.ts";
import { GTK3_TASKS } from "./gtk3.ts";
import { GTK4_TASKS } from "./gtk4.ts";
import { QT_TASKS } from "./qt.ts";
import { WEB_TASKS } from "./web.ts";
import { OFFICE_TASKS } from "./office.ts";
import { FILES_TASKS } from "./files.ts";
import { VISION_TASKS } from "./vision.ts";

export type { Fixture, Running, Task } from "./task.ts";
export { Agent } from "./agent.ts";
export { type Outcome, runDogtail, runOurs } from "./run.ts";

/** All tasks. */
export const TASKS: readonly Task[] = [
  ...GTK3_TASKS,
  ...GTK4_TASKS,
  ...QT_TASKS,
  ...WEB_TASKS,
  ...OFFICE_TASKS,
  ...FILES_TASKS,
  ...VISION_TASKS,
];
