/**
 * The ops the vision engine serves; separate so the registry can list them without loading the
 * engine (and its native libraries) on other OSes or machines.
 *
 * @module
 */
import { WINDOW_ENGINE_OPS } from "../ops.ts";

/** Ops this engine serves: all but starting and ending apps (not implemented yet). */
export const VISION_OPS: readonly string[] = WINDOW_ENGINE_OPS;
