/**
 * The engines this build knows, and which of them can run on this OS. The router and the
 * driver get engines from here; nothing else imports a platform engine module, so a
 * platform's FFI is only loaded on that platform.
 *
 * @module
 */
import type { Availability, Engine } from "./engine.ts";
import { ATSPI_OPS } from "./atspi/ops.ts";
import { CUA_OPS } from "./cua/ops.ts";
import { UIA_OPS } from "./uia/ops.ts";
import { AX_OPS } from "./ax/ops.ts";
import { VISION_OPS } from "./vision/ops.ts";

/** A known engine, loaded on demand. */
export interface EngineEntry {
  /** Engine name, as in `hello`. */
  name: string;
  /** The OSes it can run on. */
  os: readonly (typeof Deno.build.os)[];
  /** Ops it serves (known before loading, for `hello` on other OSes). */
  ops: readonly string[];
  /** Imports and constructs the engine. */
  load(): Promise<Engine>;
}

/** Engines known to this build, in the order the router prefers them. */
export const ENGINES: readonly EngineEntry[] = [
  // The native engine of each OS first: it reads in process and hears notifications.
  {
    name: "atspi",
    os: ["linux"],
    ops: ATSPI_OPS,
    load: async () => new (await import("./atspi/engine.ts")).AtspiEngine(),
  },
  {
    name: "uia",
    os: ["windows"],
    ops: UIA_OPS,
    load: async () => new (await import("./uia/engine.ts")).UiaEngine(),
  },
  {
    name: "ax",
    os: ["darwin"],
    ops: AX_OPS,
    load: async () => new (await import("./ax/engine.ts")).AxEngine(),
  },
  {
    // Cua Driver over MCP, when `ALLTERNIT_CUA_DRIVER` or PATH has `cua-driver`; its real
    // ops come from the tools the child lists (these are the most Cua 0.34 serves).
    name: "cua",
    os: ["linux", "darwin", "windows"],
    ops: CUA_OPS,
    load: async () => (await import("./cua/engine.ts")).CuaEngine.fromEnvironment(),
  },
  {
    // Pixels and OCR, for windows with no accessibility tree (X11 capture and input).
    name: "vision",
    os: ["linux"],
    ops: VISION_OPS,
    load: async () => new (await import("./vision/engine.ts")).VisionEngine(),
  },
];

/** An engine ready to serve, or the reason it can't. */
export interface LoadedEngine {
  /** Registry entry. */
  entry: EngineEntry;
  /** Present when loaded (even if unavailable, so it can be asked again later). */
  engine?: Engine;
  /** Availability as last checked. */
  availability: Availability;
}

/** Loads every engine this OS can run and checks its availability. Never throws. */
export async function loadEngines(
  entries: readonly EngineEntry[] = ENGINES,
  os: typeof Deno.build.os = Deno.build.os,
): Promise<LoadedEngine[]> {
  return await Promise.all(entries.map(async (entry): Promise<LoadedEngine> => {
    if (!entry.os.includes(os)) {
      return {
        entry,
        availability: { available: false, reason: `wrong_os: needs ${entry.os.join(" or ")}` },
      };
    }
    try {
      const engine = await entry.load();
      return { entry, engine, availability: await engine.availability() };
    } catch (err) {
      return {
        entry,
        availability: {
          available: false,
          reason: err instanceof Error ? err.message : String(err),
        },
      };
    }
  }));
}
