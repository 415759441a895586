/**
 * Test side of THE CUA DRIVER CONFORMANCE DOUBLE: a `cua-driver` wrapper script in a
 * temporary folder that runs the double's MCP server, and the file that switches its
 * misbehaviour. Point `ALLTERNIT_CUA_DRIVER` at {@link CuaDouble.wrapper}.
 *
 * @module
 */

const SERVER = new URL("./server.ts", import.meta.url).pathname;
const CONFIG = new URL("../../../deno.json", import.meta.url).pathname;

/**
 * The Cua engine's id of a window the double lists: the double numbers windows by the
 * AT-SPI engine's id read as hex (`w770671b2` → 0x770671b2), the engine says `cua:pid:id`.
 */
export function cuaWindowId(pid: number, atspiWindow: string): string {
  return `cua:${pid}:${parseInt(atspiWindow.slice(1), 16)}`;
}

/** Modes of the double (see server.ts). */
export type DoubleMode = "normal" | "fail_reads" | "malformed" | "degraded" | "hang";

/** A wrapper that starts the double, and its mode switch. */
export interface CuaDouble {
  /** Executable standing in for `cua-driver`. */
  wrapper: string;
  /** Environment for a driver process that should find the double. */
  env: Record<string, string>;
  /** Switches what the double does from its next call on. */
  setMode(mode: DoubleMode): Promise<void>;
  /** Removes the folder. */
  cleanup(): Promise<void>;
}

/** Writes a fresh wrapper (its own mode file) into a temporary folder. */
export async function cuaDouble(): Promise<CuaDouble> {
  const dir = await Deno.makeTempDir({ prefix: "allternit-cua-double-" });
  const control = `${dir}/mode.json`;
  const wrapper = `${dir}/cua-driver`;
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  await Deno.writeTextFile(
    wrapper,
    [
      "#!/usr/bin/env bash",
      "# Cua Driver CONFORMANCE DOUBLE for tests: not Cua Driver. Serves only `mcp`.",
      'if [ "${1:-}" != "mcp" ]; then echo "cua-driver double: only mcp" >&2; exit 2; fi',
      "shift",
      `export CUA_DOUBLE_CONTROL=${q(control)}`,
      `exec ${q(Deno.execPath())} run --allow-all --quiet --no-prompt --config ${q(CONFIG)} ${
        q(SERVER)
      } "$@"`,
      "",
    ].join("\n"),
  );
  await Deno.chmod(wrapper, 0o755);
  return {
    wrapper,
    env: { ALLTERNIT_CUA_DRIVER: wrapper },
    setMode: (mode) => Deno.writeTextFile(control, JSON.stringify({ mode })),
    cleanup: () => Deno.remove(dir, { recursive: true }).catch(() => {}),
  };
}
