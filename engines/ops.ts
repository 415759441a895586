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
 * Ops that start and end apps: served by an engine that can start a system's programs (the
 * AT-SPI engine, from desktop entries); the others leave them out until they can.
 */
export const APP_OPS: readonly string[] = ["launch_app", "close_app"];

/** Every op but the app ones ({@link APP_OPS}). */
export const WINDOW_ENGINE_OPS: readonly string[] = ALL_ENGINE_OPS.filter((op) =>
  !APP_OPS.includes(op)
);
