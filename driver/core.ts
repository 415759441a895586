/**
 * What every op handler shares: the engines, the live map and the config. Handlers in
 * `driver/ops/` take a {@link DriverCore}.
 *
 * @module
 */
import type { AppInfo, Engine } from "../model/engine.ts";
import type { LoadedEngine } from "../engines/registry.ts";
import { DriverError } from "../protocol/errors.ts";
import type { DriverConfig } from "../model/config.ts";
import { LiveMap } from "../live/live_map.ts";
import type { AuditLog, Router } from "../router/mod.ts";
import { WindowLocks } from "../locks/mod.ts";
import { AppWindows } from "./app_windows.ts";
import { ImagePool } from "./images/pool.ts";

/** How often an engine that went away is asked again whether it can serve. */
const RECHECK_MS = 1_000;

/** Shared state of one driver. */
export class DriverCore {
  /** Tunables. */
  readonly config: DriverConfig;
  /** The live element map of every watched window. */
  readonly live: LiveMap;
  /** Picks the engine per op and app, and learns from outcomes. */
  readonly router: Router;
  /** One reader and one input owner per window. */
  readonly locks: WindowLocks;
  /** One line per routed op. */
  readonly audit: AuditLog;
  /** Each app's windows as last listed, to tell which window an app read means. */
  readonly appWindows: AppWindows = new AppWindows();
  /** Encodes screenshots and zooms off the event loop. */
  readonly images: ImagePool = new ImagePool();
  /**
   * Acts whose element the app had replaced behind its id (a dead handle), found again by
   * a re-read and acted on: `hello.live.rebound`.
   */
  rebound = 0;
  /**
   * Pointer inputs of acts that waited for a moving window to come to rest before landing
   * (keys never wait): `hello.live.rested`.
   */
  rested = 0;
  readonly #loaded: LoadedEngine[];

  /** Wires the shared parts. */
  constructor(loaded: LoadedEngine[], config: DriverConfig, router: Router, audit: AuditLog) {
    this.#loaded = loaded;
    this.config = config;
    this.router = router;
    this.audit = audit;
    this.locks = new WindowLocks({
      timeoutMs: config.lock_timeout_ms,
      walkReuseMs: config.walk_reuse_ms,
    });
    this.live = new LiveMap((name) => this.engine(name), config);
    this.live.setWalkGate(async (window, walk, signal) =>
      (await this.locks.walk(window, "read", walk, signal)).value
    );
  }

  /** Remembers a listing of apps, with each app's window notifications so far. */
  listed(apps: readonly AppInfo[]): void {
    for (const a of apps) this.appWindows.listed(a, this.live.events.windowCount(a.app));
  }

  /** The app whose last listing had `window` (target.ts `Listings`). */
  appOf(window: string): string | undefined {
    return this.appWindows.appOf(window);
  }

  /** The engine named, when it is loaded and available. */
  available(name: string): Engine | undefined {
    const l = this.#loaded.find((x) => x.entry.name === name && x.availability.available);
    return l?.engine;
  }

  /**
   * Asks every loaded engine again whether it can serve (a Cua child may be restarting,
   * or have come back); `hello` calls this so it never reports a stale state.
   */
  async recheck(): Promise<void> {
    await Promise.all(this.#loaded.map(async (l) => {
      if (!l.engine) return;
      const was = l.availability.available;
      try {
        l.availability = await l.engine.availability();
      } catch (err) {
        l.availability = {
          available: false,
          reason: err instanceof Error ? err.message : String(err),
        };
      }
      if (was && !l.availability.available) this.#lost.add(l);
    }));
    for (const l of this.#lost) if (l.availability.available) this.#lost.delete(l);
    this.#retry();
  }

  /**
   * Engines a check found gone that could serve before (their bus restarting): asked
   * again every {@link RECHECK_MS} until they answer, so ops stop being refused soon
   * after the bus is back, not only at the next `hello`.
   */
  readonly #lost = new Set<LoadedEngine>();
  #retrying = false;

  #retry(): void {
    if (this.#lost.size === 0 || this.#retrying) return;
    this.#retrying = true;
    // Never keeps the process alive: a driver stopping need not wait for it.
    Deno.unrefTimer(setTimeout(() => {
      this.#retrying = false;
      this.recheck().catch(() => {});
    }, RECHECK_MS));
  }

  /** Some engine can serve, so ops are routed (else they fail with its reasons). */
  get routable(): boolean {
    return this.#loaded.some((l) => l.engine && l.availability.available);
  }

  /** Engines as loaded, for `hello`. */
  get loaded(): readonly LoadedEngine[] {
    return this.#loaded;
  }

  /**
   * The engine named (the router's choice), else the first available one, or
   * `driver_unavailable` with every engine's reason.
   */
  engine(name?: string): Engine {
    const ready = this.#loaded.find((l) =>
      l.engine && l.availability.available && (name === undefined || l.entry.name === name)
    );
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
