/**
 * What every op handler shares: the engines, the windows' maps, the notification
 * counters and the config. Handlers in `driver/ops/` take a {@link DriverCore}.
 *
 * @module
 */
import type { Engine } from "../engines/engine.ts";
import type { LoadedEngine } from "../engines/registry.ts";
import { DriverError } from "../protocol/errors.ts";
import type { DriverConfig } from "./config.ts";
import type { EventHub } from "./events.ts";
import type { Target } from "./target.ts";
import type { Watched, WindowStore } from "./windows.ts";
import { log } from "../util/log.ts";

/** Live-map state as reads report it. */
export interface LiveReport {
  /** `live` when notifications keep maps fresh, else `degraded`. */
  state: "live" | "degraded";
  /** Why degraded. */
  reason?: string;
}

/** Shared state of one driver. */
export class DriverCore {
  /** Tunables. */
  readonly config: DriverConfig;
  /** Watched windows. */
  readonly windows: WindowStore;
  /** Notification counters. */
  readonly events: EventHub;
  readonly #loaded: LoadedEngine[];
  /** Set once the engine's notifications are subscribed. */
  subscribed = false;
  /** Why subscribing failed, when it did. */
  subscribeError: string | undefined;

  /** Wires the shared parts. */
  constructor(
    loaded: LoadedEngine[],
    config: DriverConfig,
    windows: WindowStore,
    events: EventHub,
  ) {
    this.#loaded = loaded;
    this.config = config;
    this.windows = windows;
    this.events = events;
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

  /** Live-map state for answers. */
  liveState(): LiveReport {
    if (this.subscribed) return { state: "live" };
    return { state: "degraded", reason: this.subscribeError ?? "no_notifications" };
  }

  /** Reads `target` again and folds the read into its map. */
  async refresh(
    target: Target,
    maxElements: number | undefined,
    signal: AbortSignal,
  ): Promise<Watched> {
    const engine = this.engine();
    // Counted before the walk: a notification during it makes the next read walk again.
    const seen = this.events.count(target.app);
    try {
      const tree = await engine.readWindow(target.window, {
        maxElements: maxElements ?? this.config.max_elements,
        signal,
      });
      return this.windows.record(target.window, { ...target, engine: engine.name }, tree, seen)
        .watched;
    } catch (err) {
      if (err instanceof DriverError) {
        if (err.code === "app_not_running") {
          this.windows.dropApp(target.app);
          this.events.drop(target.app);
        } else if (err.code === "window_not_found") {
          this.windows.drop(target.window);
        }
      }
      throw err;
    }
  }

  /**
   * Is the map of `w` as fresh as the app's notifications say? True when notifications
   * are subscribed, none arrived since the last read, and that read is younger than the
   * probe period (which bounds how long a change the app never announced can hide).
   */
  isFresh(w: Watched): boolean {
    return this.subscribed && this.events.count(w.app) === w.seen &&
      performance.now() - w.readAt < this.config.probe_ms;
  }

  /** The window's map brought up to date: from memory when fresh, else read again. */
  async current(w: Watched, signal: AbortSignal): Promise<{ watched: Watched; cached: boolean }> {
    if (this.isFresh(w)) return { watched: w, cached: true };
    return { watched: await this.refresh(w, undefined, signal), cached: false };
  }

  /** Subscribes the engine's notifications once; failures leave reads degraded, said so. */
  async subscribe(): Promise<void> {
    if (this.subscribed) return;
    try {
      await this.engine().subscribe(this.events.onEvent);
      this.subscribed = true;
    } catch (err) {
      this.subscribeError = err instanceof Error ? err.message : String(err);
      log("warn", "notifications unavailable", { error: this.subscribeError });
    }
  }
}
