/**
 * The ops the AT-SPI engine serves; separate so the registry can list them without loading the
 * engine (and its native libraries) on other OSes or machines.
 *
 * @module
 */
import { ALL_ENGINE_OPS } from "../ops.ts";

/** Ops this engine serves: all of them. */
export const ATSPI_OPS: readonly string[] = ALL_ENGINE_OPS;
