/**
 * Opening a native library the way every `ffi/` table does: an environment override
 * first, then the system soname, else `driver_unavailable` with the reason and `cause`.
 *
 * @module
 */
import { DriverError } from "../protocol/errors.ts";
import { isFile } from "../util/paths.ts";

/**
 * `Deno.dlopen` of `$envVar`'s path, else `soname`. A missing `--allow-ffi` passes through
 * unchanged: it is the caller's configuration, not a missing library. `hint` replaces the
 * default advice in the error ("set ENV to its path").
 */
export function openLibrary<S extends Deno.ForeignLibraryInterface>(
  envVar: string,
  soname: string,
  symbols: S,
  reason: string,
  hint = `set ${envVar} to its path`,
): Deno.DynamicLibrary<S>["symbols"] {
  const paths = [Deno.env.get(envVar), soname].filter((p): p is string => !!p);
  const failures: string[] = [];
  let cause: unknown;
  for (const path of paths) {
    try {
      return Deno.dlopen(path, symbols).symbols;
    } catch (err) {
      if (err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotCapable) {
        throw err;
      }
      cause = err;
      failures.push(`"${path}": ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new DriverError(
    "driver_unavailable",
    `Cannot load ${soname} (${hint}): ${failures.join("; ")}`,
    { reason },
    { cause },
  );
}

/**
 * Whether `openLibrary` would find a library, without loading it: `$envVar`'s file, else
 * `soname` in `LD_LIBRARY_PATH` or the system's library folders. For availability reports
 * that must not pay for the library before an op needs it; the first real open may still
 * fail, with its own error.
 */
export function libraryPresent(envVar: string, soname: string): boolean {
  const override = Deno.env.get(envVar);
  if (override) return isFile(override);
  const triple = `${Deno.build.arch}-linux-gnu`;
  const dirs = [
    ...(Deno.env.get("LD_LIBRARY_PATH") ?? "").split(":").filter(Boolean),
    `/usr/lib/${triple}`,
    `/lib/${triple}`,
    "/usr/local/lib",
    "/usr/lib",
    "/lib",
  ];
  return dirs.some((d) => isFile(`${d}/${soname}`));
}
