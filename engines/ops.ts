/**
 * The op set of an engine that can serve every op but `hello` (which the driver answers
 * itself). Engines whose reach is narrower (Cua 0.34: no batches) list their own.
 *
 * @module
 */
import { OP_NAMES } from "../protocol/ops.ts";

/** Every op an engine can be routed, derived from the op table so it never drifts. */
export const ALL_ENGINE_OPS: readonly string[] = OP_NAMES.filter((op) => op !== "hello");

/**
 * Ops on the desktop itself: starting and ending apps and the clipboard. Served by an
 * engine that owns the session's programs and selections (the AT-SPI engine: desktop
 * entries, X selections); the others leave them out until they can.
 */
export const DESKTOP_OPS: readonly string[] = [
  "launch_app",
  "close_app",
  "clipboard_get",
  "clipboard_set",
];

/** Every op but the desktop ones ({@link DESKTOP_OPS}). */
export const WINDOW_ENGINE_OPS: readonly string[] = ALL_ENGINE_OPS.filter((op) =>
  !DESKTOP_OPS.includes(op)
);
