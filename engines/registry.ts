/**
 * The engines this build knows, and which of them can run on this OS. The router and the
 * driver get engines from here; nothing else imports a platform engine module, so a
 * platform's FFI is only loaded on that platform.
 *
 * @module
 */
import type { Availability, Engine } from "../model/engine.ts";
import { ATSPI_OPS } from "./atspi/ops.ts";
import { CUA_OPS } from "./cua/ops.ts";
import { locateCuaDriver } from "./cua/locate.ts";
import { moduleUrl } from "../util/lazy.ts";

/**
 * An engine's module, loaded when the engine is: by a computed path (util/lazy.ts), so
 * Deno never reads another OS's engine, or Cua's MCP SDK, at start.
 */
function engineModule<T>(name: "atspi" | "uia" | "ax" | "cua" | "vision" | "merged"): Promise<T> {
  return import(moduleUrl(`engines/${name}/engine`));
}
import { UIA_OPS } from "./uia/ops.ts";
import { AX_OPS } from "./ax/ops.ts";
import { VISION_OPS } from "./vision/ops.ts";
import type { AtspiEngine } from "./atspi/engine.ts";
import type { VisionEngine } from "./vision/engine.ts";

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
    load: async () =>
      new (await engineModule<typeof import("./atspi/engine.ts")>("atspi")).AtspiEngine(),
  },
  {
    name: "uia",
    os: ["windows"],
    ops: UIA_OPS,
    load: async () => new (await engineModule<typeof import("./uia/engine.ts")>("uia")).UiaEngine(),
  },
  {
    name: "ax",
    os: ["darwin"],
    ops: AX_OPS,
    load: async () => new (await engineModule<typeof import("./ax/engine.ts")>("ax")).AxEngine(),
  },
  {
    // Cua Driver over MCP, when `ALLTERNIT_CUA_DRIVER` or PATH has `cua-driver`; its real
    // ops come from the tools the child lists (these are the most Cua 0.34 serves).
    name: "cua",
    os: ["linux", "darwin", "windows"],
    ops: CUA_OPS,
    // The engine module brings the MCP SDK (about 22 MB): loaded only when Cua is there.
    load: async () => {
      const command = locateCuaDriver();
      if (!command) throw new Error("cua_driver_not_found");
      return new (await engineModule<typeof import("./cua/engine.ts")>("cua")).CuaEngine({
        command,
      });
    },
  },
  {
    // Pixels and OCR, for windows with no accessibility tree (X11 capture and input).
    name: "vision",
    os: ["linux"],
    ops: VISION_OPS,
    load: async () =>
      new (await engineModule<typeof import("./vision/engine.ts")>("vision")).VisionEngine(),
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

/**
 * Loads every engine this OS can run and checks its availability, then adds the merged
 * engine (`atspi+vision`) when both halves loaded. Never throws.
 */
export async function loadEngines(
  entries: readonly EngineEntry[] = ENGINES,
  os: typeof Deno.build.os = Deno.build.os,
): Promise<LoadedEngine[]> {
  const loaded = await loadEach(entries, os);
  const merged = await mergedEngine(loaded);
  return merged ? [...loaded, merged] : loaded;
}

/**
 * The tree engine and vision reading one window together (read_ui `source: both`), for
 * apps whose tree is too thin. Last in the list: the router never prefers it; the live
 * map reads through it when a read's source calls for both.
 */
async function mergedEngine(loaded: readonly LoadedEngine[]): Promise<LoadedEngine | undefined> {
  const atspi = loaded.find((l) => l.entry.name === "atspi")?.engine as AtspiEngine | undefined;
  const vision = loaded.find((l) => l.entry.name === "vision")?.engine as VisionEngine | undefined;
  if (!atspi || !vision) return undefined;
  const { MergedEngine } = await engineModule<typeof import("./merged/engine.ts")>("merged");
  const engine = new MergedEngine(
    atspi,
    vision,
    async (window, signal) => (await atspi.window(window, signal)).pid,
  );
  const entry: EngineEntry = {
    name: engine.name,
    os: ["linux"],
    ops: engine.ops,
    load: () => Promise.resolve(engine),
  };
  return { entry, engine, availability: await engine.availability() };
}

async function loadEach(
  entries: readonly EngineEntry[],
  os: typeof Deno.build.os,
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
