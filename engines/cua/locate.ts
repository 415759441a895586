/**
 * Where `cua-driver` is and how to start its MCP server: `ALLTERNIT_CUA_DRIVER` (a path),
 * else `cua-driver` on `PATH`. `ALLTERNIT_CUA_SOCKET` names a running `cua-driver serve`
 * daemon: the documented way to use it is `cua-driver mcp --socket <endpoint>`, a stdio
 * proxy to that daemon, so the engine still speaks MCP over its child's stdio.
 *
 * @module
 */
import { isFile } from "../../util/paths.ts";

/** How to start Cua's MCP server. */
export interface CuaCommand {
  /** Executable. */
  command: string;
  /** Arguments (`mcp`, maybe `--socket <endpoint>`). */
  args: string[];
}

/** Environment lookup (tests pass their own). */
export type Env = (key: string) => string | undefined;

/** The first `name` on `PATH` (with `PATHEXT` on Windows), or undefined. */
export function onPath(name: string, env: Env): string | undefined {
  const windows = Deno.build.os === "windows";
  const dirs = (env("PATH") ?? "").split(windows ? ";" : ":").filter((d) => d !== "");
  const exts = windows ? (env("PATHEXT") ?? ".EXE;.CMD;.BAT").split(";") : [""];
  for (const dir of dirs) {
    for (const ext of exts) {
      const path = `${dir}${windows ? "\\" : "/"}${name}${ext.toLowerCase()}`;
      if (isFile(path)) return path;
    }
  }
  return undefined;
}

/** The command that starts Cua's MCP server here, or undefined when there is no Cua. */
export function locateCuaDriver(env: Env = (k) => Deno.env.get(k)): CuaCommand | undefined {
  const explicit = env("ALLTERNIT_CUA_DRIVER");
  const command = explicit ? (isFile(explicit) ? explicit : undefined) : onPath("cua-driver", env);
  if (command === undefined) return undefined;
  const socket = env("ALLTERNIT_CUA_SOCKET");
  return { command, args: socket ? ["mcp", "--socket", socket] : ["mcp"] };
}
