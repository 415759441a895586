/**
 * The op set of an engine that can serve every op but `hello` (which the driver answers
 * itself). Engines whose reach is narrower (Cua 0.34: no batches) list their own.
 *
 * @module
 */
import { OP_NAMES } from "../protocol/ops.ts";

/** Every op an engine can be routed, derived from the op table so it never drifts. */
export const ALL_ENGINE_OPS: readonly string[] = OP_NAMES.filter((op) => op !== "hello");
