/**
 * Tasks on Qt apps: FeatherPad, SpeedCrunch, DB Browser for SQLite.
 *
 * @module
 */
import type { Task } from "./task.ts";

/** The tasks of this family. */
export const QT_TASKS: readonly Task[] = [];
