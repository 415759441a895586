/**
 * Tasks on Apps read by vision: Tk and plain X apps with no accessibility tree.
 *
 * @module
 */
import type { Task } from "./task.ts";

/** The tasks of this family. */
export const VISION_TASKS: readonly Task[] = [];
