/**
 * Loading a module by a computed path, for imports that must not be read at start: Deno
 * reads and parses the target of every literal `import("…")` when the program starts,
 * whether or not it is ever taken. The bundle and the compiled binaries carry such
 * modules as entries of their own, at the same relative paths (dist/bundle.ts,
 * dist/compile.ts).
 *
 * @module
 */

/**
 * The URL of module `path` (no extension) relative to the module at `from` (its
 * `import.meta.url`): `.ts` from source, `.js` in the bundle.
 */
export function sibling(from: string, path: string): string {
  return new URL(`./${path}${from.endsWith(".js") ? ".js" : ".ts"}`, from).href;
}
