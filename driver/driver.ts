/**
 * The driver: wires engines, the element map and the notification counters together
 * behind one {@link Handlers} table that any transport can serve.
 *
 * @module
 */
import type { Handlers } from "../rpc/dispatcher.ts";
import { type EngineEntry, ENGINES, loadEngines } from "../engines/registry.ts";
import type { DriverConfig } from "./config.ts";
import type { DriverPaths } from "../util/paths.ts";
import { DriverCore } from "./core.ts";
import { hello, listApps } from "./ops/meta.ts";
import { readUi } from "./ops/read.ts";
import { act, runBatch } from "./ops/act.ts";
import { find, verify } from "./ops/query.ts";
import { screenshot, zoom } from "./ops/images.ts";
import { pixel } from "./ops/input.ts";

/** What a driver is started with. */
export interface DriverOptions {
  /** Files under the data folder. */
  paths: DriverPaths;
  /** Tunables. */
  config: DriverConfig;
  /** Engines to load; the registry's by default. */
  engines?: readonly EngineEntry[];
}

/** A running driver. */
export class Driver {
  readonly #core: DriverCore;
  #closed = false;

  private constructor(core: DriverCore) {
    this.#core = core;
  }

  /** Loads the engines this OS can run, subscribes notifications, ready to serve. */
  static async start(options: DriverOptions): Promise<Driver> {
    const loaded = await loadEngines(options.engines ?? ENGINES);
    const cfg = options.config;
    const core = new DriverCore(loaded, cfg);
    if (loaded.some((l) => l.availability.available)) await core.live.start();
    return new Driver(core);
  }

  /** Tunables in force. */
  get config(): DriverConfig {
    return this.#core.config;
  }

  /** The op handlers. */
  handlers(): Handlers {
    const c = this.#core;
    return {
      hello: () => Promise.resolve(hello(c)),
      list_apps: (_p, ctx) => listApps(c, ctx),
      read_ui: (p, ctx) => readUi(c, p, ctx),
      act: (p, ctx) => act(c, p, ctx),
      run_batch: (p, ctx) => runBatch(c, p, ctx),
      verify: (p, ctx) => verify(c, p, ctx),
      find: (p, ctx) => find(c, p, ctx),
      screenshot: (p, ctx) => screenshot(c, p, ctx),
      zoom: (p, ctx) => zoom(c, p, ctx),
      pixel_click: (p, ctx) => pixel(c, { op: "pixel_click", ...p }, ctx),
      pixel_move: (p, ctx) => pixel(c, { op: "pixel_move", ...p }, ctx),
      pixel_drag: (p, ctx) => pixel(c, { op: "pixel_drag", ...p }, ctx),
      pixel_scroll: (p, ctx) => pixel(c, { op: "pixel_scroll", ...p }, ctx),
      pixel_type_text: (p, ctx) => pixel(c, { op: "pixel_type_text", ...p }, ctx),
      pixel_key: (p, ctx) => pixel(c, { op: "pixel_key", ...p }, ctx),
      hold_key: (p, ctx) => pixel(c, { op: "hold_key", ...p }, ctx),
    };
  }

  /** Releases every engine; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#core.live.close();
    await Promise.allSettled(this.#core.loaded.map((l) => l.engine?.close()));
  }
}
