/**
 * Tasks on Web pages in Firefox (Gecko) and Chromium, served by the bench's own HTTP server.
 *
 * @module
 */
import type { Task } from "./task.ts";

/** The tasks of this family. */
export const WEB_TASKS: readonly Task[] = [];
