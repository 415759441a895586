/**
 * The ops the AX engine serves; separate so the registry can list them without loading the
 * engine (and its native libraries) on other OSes or machines.
 *
 * @module
 */
import { ALL_ENGINE_OPS } from "../ops.ts";

/**
 * Ops this engine is routed: all of them. Those it does not implement yet (`window`, the
 * apps and the clipboard) answer `action_not_supported` naming it, rather than vanishing.
 */
export const AX_OPS: readonly string[] = ALL_ENGINE_OPS;
