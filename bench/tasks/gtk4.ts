/**
 * Tasks on GTK 4 apps: GNOME Calculator.
 *
 * @module
 */
import type { Task } from "./task.ts";

/** The tasks of this family. */
export const GTK4_TASKS: readonly Task[] = [];
