/**
 * The command line's flags: `--name value`, `--name=value`, boolean `--name`, `-h`, and
 * positionals; `--` ends the flags. Written here rather than taken from `node:util`,
 * whose Node compatibility layer adds about 5 ms to every start of the forwarder.
 *
 * @module
 */

/** A flag: takes a value (`string`) or not (`boolean`). */
export type FlagSpec = Record<string, "string" | "boolean">;

/** Parsed flags and positionals. */
export interface Parsed<S extends FlagSpec> {
  /** Flags given, by name. */
  values: { [K in keyof S]?: S[K] extends "string" ? string : boolean };
  /** Arguments that are not flags, in order. */
  positionals: string[];
}

/** Short forms. */
const SHORT: Record<string, string> = { h: "help" };

/** Parses `args` by `spec`; throws a sentence for an unknown flag or a missing value. */
export function parseFlags<S extends FlagSpec>(args: readonly string[], spec: S): Parsed<S> {
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    const long = arg.startsWith("--");
    if (!long && !(arg.startsWith("-") && arg.length === 2)) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const raw = long ? arg.slice(2, eq === -1 ? undefined : eq) : arg.slice(1);
    const name = long ? raw : SHORT[raw] ?? raw;
    const kind = spec[name];
    if (kind === undefined) throw new Error(`Unknown option "${arg}"`);
    if (kind === "boolean") {
      if (eq !== -1) throw new Error(`Option "--${name}" does not take a value`);
      values[name] = true;
      continue;
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) throw new Error(`Option "--${name}" needs a value`);
    values[name] = value;
  }
  return { values: values as Parsed<S>["values"], positionals };
}
