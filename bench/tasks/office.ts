/**
 * Tasks on LibreOffice Calc, Writer and Impress.
 *
 * @module
 */
import type { Task } from "./task.ts";

/** The tasks of this family. */
export const OFFICE_TASKS: readonly Task[] = [];
