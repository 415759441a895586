/**
 * The ops the vision engine serves; separate so the registry can list them without loading the
 * engine (and its native libraries) on other OSes or machines.
 *
 * @module
 */
import { WINDOW_ENGINE_OPS } from "../ops.ts";

/** Ops this engine serves: all but the desktop ones (apps, clipboard: not implemented). */
export const VISION_OPS: readonly string[] = WINDOW_ENGINE_OPS;
