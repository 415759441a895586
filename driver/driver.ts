/**
 * The driver: wires engines, the element map, the router and the locks together behind
 * one {@link Handlers} table that any transport can serve.
 *
 * @module
 */
import { DriverError } from "../protocol/errors.ts";
import { OP_NAMES } from "../protocol/ops.ts";
import type { Handlers } from "../rpc/dispatcher.ts";
import { type EngineEntry, ENGINES, type LoadedEngine, loadEngines } from "../engines/registry.ts";
import type { Engine } from "../engines/engine.ts";
import type { DriverConfig } from "./config.ts";
import { NAME, PROTOCOL, VERSION } from "./version.ts";
import type { DriverPaths } from "../util/paths.ts";

/** What a driver is started with. */
export interface DriverOptions {
  /** Files under the data folder. */
  paths: DriverPaths;
  /** Tunables. */
  config: DriverConfig;
  /** Engines to load; the registry's by default (tests pass their own). */
  engines?: readonly EngineEntry[];
}

/** A running driver. */
export class Driver {
  readonly #loaded: LoadedEngine[];
  readonly #config: DriverConfig;
  #closed = false;

  private constructor(loaded: LoadedEngine[], options: DriverOptions) {
    this.#loaded = loaded;
    this.#config = options.config;
  }

  /** Loads the engines this OS can run and returns a driver ready to serve. */
  static async start(options: DriverOptions): Promise<Driver> {
    const loaded = await loadEngines(options.engines ?? ENGINES);
    return new Driver(loaded, options);
  }

  /** Tunables in force. */
  get config(): DriverConfig {
    return this.#config;
  }

  /** The first available engine, or `driver_unavailable` with every engine's reason. */
  engine(): Engine {
    const ready = this.#loaded.find((l) => l.engine && l.availability.available);
    if (ready?.engine) return ready.engine;
    const reasons = this.#loaded.map((l) =>
      `${l.entry.name}: ${l.availability.reason ?? "unavailable"}`
    );
    throw new DriverError(
      "driver_unavailable",
      `No engine can serve on this machine${reasons.length ? ` (${reasons.join("; ")})` : ""}`,
      { reason: reasons.length ? reasons.join("; ") : "no_engine_for_os" },
    );
  }

  /** The op handlers. */
  handlers(): Handlers {
    const unavailable = (): never => {
      this.engine();
      throw new DriverError("internal", "Op is not wired to an engine yet");
    };
    return {
      hello: () => Promise.resolve(this.#hello()),
      list_apps: unavailable,
      read_ui: unavailable,
      act: unavailable,
      run_batch: unavailable,
      verify: unavailable,
      find: unavailable,
      screenshot: unavailable,
      zoom: unavailable,
      pixel_click: unavailable,
      pixel_move: unavailable,
      pixel_drag: unavailable,
      pixel_scroll: unavailable,
      pixel_type_text: unavailable,
      pixel_key: unavailable,
      hold_key: unavailable,
    };
  }

  #hello() {
    const available = this.#loaded.find((l) => l.availability.available);
    return {
      name: NAME,
      version: VERSION,
      protocol: PROTOCOL,
      os: Deno.build.os,
      pid: Deno.pid,
      engines: this.#loaded.map((l) => ({
        name: l.entry.name,
        available: l.availability.available,
        ...(l.availability.reason ? { reason: l.availability.reason } : {}),
        ops: [...l.entry.ops],
      })),
      ops: [...OP_NAMES],
      live: { watched: 0, limit: this.#config.watch_limit },
      engine: available?.entry.name ?? "none",
    };
  }

  /** Releases every engine; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled(this.#loaded.map((l) => l.engine?.close()));
  }
}
