/**
 * What every op handler shares: the engines, the live map and the config. Handlers in
 * `driver/ops/` take a {@link DriverCore}.
 *
 * @module
 */
import type { Engine } from "../engines/engine.ts";
import type { LoadedEngine } from "../engines/registry.ts";
import { DriverError } from "../protocol/errors.ts";
import type { DriverConfig } from "./config.ts";
import { LiveMap } from "../live/live_map.ts";

/** Shared state of one driver. */
export class DriverCore {
  /** Tunables. */
  readonly config: DriverConfig;
  /** The live element map of every watched window. */
  readonly live: LiveMap;
  readonly #loaded: LoadedEngine[];

  /** Wires the shared parts. */
  constructor(loaded: LoadedEngine[], config: DriverConfig) {
    this.#loaded = loaded;
    this.config = config;
    this.live = new LiveMap(() => this.engine(), config);
  }

  /** Engines as loaded, for `hello`. */
  get loaded(): readonly LoadedEngine[] {
    return this.#loaded;
  }

  /** The first available engine, or `driver_unavailable` with every engine's reason. */
  engine(): Engine {
    const ready = this.#loaded.find((l) => l.engine && l.availability.available);
    if (ready?.engine) return ready.engine;
    const reasons = this.#loaded.map((l) =>
      `${l.entry.name}: ${l.availability.reason ?? "unavailable"}`
    );
    const reason = reasons.length ? reasons.join("; ") : `no engine for ${Deno.build.os}`;
    throw new DriverError("driver_unavailable", `No engine can serve on this machine (${reason})`, {
      reason,
    });
  }
}
