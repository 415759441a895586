/**
 * Loading a module by a computed path, for imports that must not be read at start: Deno
 * reads and parses the target of every literal `import("…")` when the program starts,
 * whether or not it is ever taken (another OS's engine, the MCP SDK, the whole driver for
 * a forwarder). The bundle and the compiled binaries carry such modules as entries of
 * their own at the same paths (dist/bundle.ts, dist/compile.ts; the list is
 * {@link LAZY_MODULES}).
 *
 * @module
 */

/** Every module loaded through {@link moduleUrl}, by its path from the program's root. */
export const LAZY_MODULES = [
  "cli/serve",
  "cli/forward",
  "cli/call",
  "cli/setup",
  "cli/show_trace",
  "mcp/server",
  "mcp/catalogue",
  "protocol/ops",
  "engines/atspi/engine",
  "engines/uia/engine",
  "engines/ax/engine",
  "engines/cua/engine",
  "engines/vision/engine",
  "engines/merged/engine",
  "driver/images/png_worker",
] as const;

/** A module of {@link LAZY_MODULES}. */
export type LazyModule = (typeof LAZY_MODULES)[number];

/**
 * The program's root: the repository from source (this file is `util/sibling.ts`), the
 * bundle's folder when bundled (this code is in a chunk there; dist/bundle.ts checks it).
 */
const ROOT = new URL(import.meta.url.endsWith(".js") ? "./" : "../", import.meta.url);

/** The URL of `path`: `.ts` from source, `.js` in the bundle. */
export function moduleUrl(path: LazyModule): string {
  return new URL(`${path}${import.meta.url.endsWith(".js") ? ".js" : ".ts"}`, ROOT).href;
}
