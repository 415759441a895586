/**
 * The driver's name and version, read from `deno.json` at build time by import.
 *
 * @module
 */
import config from "../deno.json" with { type: "json" };

/** Product name in `hello`. */
export const NAME = "allternit-driver";
/** Semantic version of this build. */
export const VERSION: string = config.version;
/** Wire protocol version (protocol.md). */
export const PROTOCOL = 1 as const;
