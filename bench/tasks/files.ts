/**
 * Tasks on The file manager (Thunar), the clipboard between apps, a document viewer and Gnumeric.
 *
 * @module
 */
import type { Task } from "./task.ts";

/** The tasks of this family. */
export const FILES_TASKS: readonly Task[] = [];
