/**
 * The driver: wires engines, the live map, the router, the locks and the audit log
 * together behind one {@link Handlers} table that any transport can serve.
 *
 * @module
 */
import type { CallContext, Handlers } from "../rpc/dispatcher.ts";
import { type EngineEntry, ENGINES, loadEngines } from "../engines/registry.ts";
import type { DriverConfig } from "../model/config.ts";
import type { DriverPaths } from "../util/paths.ts";
import { DriverCore } from "./core.ts";
import { hello, listApps } from "./ops/meta.ts";
import { readUi } from "./ops/read.ts";
import { act, runBatch } from "./ops/act.ts";
import { find, verify } from "./ops/query.ts";
import { screenshot, zoom } from "./ops/images.ts";
import { pixel } from "./ops/input.ts";
import { windowOp } from "./ops/window.ts";
import { closeApp, launchApp } from "./ops/apps.ts";
import { clipboardGet, clipboardSet } from "./ops/clipboard.ts";
import { routed } from "./routing.ts";
import { resolveTarget } from "./target.ts";
import { log } from "../util/log.ts";
import { RouterStore } from "../router/mod.ts";
import { Tracing } from "./ops/trace.ts";
import { TappedAuditLog } from "./ops/trace_audit.ts";
import type { HandlerResultOf, OpName, ParamsOf } from "../protocol/ops.ts";

/** What a driver is started with. */
export interface DriverOptions {
  /** Files under the data folder. */
  paths: DriverPaths;
  /** Tunables. */
  config: DriverConfig;
  /** Engines to load; the registry's by default. */
  engines?: readonly EngineEntry[];
  /**
   * A driver for one call (`call --in-process`): the frontmost window is not prewarmed,
   * since its read would only compete with the one read asked for.
   */
  oneShot?: boolean;
  /** Record every op of every connection into this trace folder (`serve --trace`). */
  trace?: string;
}

/**
 * Reads the frontmost window once at start (design document: the prewarmed frontmost
 * app), so the first read a caller makes is answered from the map or a patch. It stays
 * out of background patching until a caller reads it.
 */
async function prewarm(core: DriverCore): Promise<void> {
  try {
    const signal = AbortSignal.timeout(core.config.request_timeout_ms);
    const target = await resolveTarget(core.engine(), {}, signal, core);
    // Read, not used: it is patched in the background only once a caller reads it.
    await core.live.refresh(target, signal);
  } catch (err) {
    log("debug", "nothing to prewarm", { error: String(err) });
  }
}

/** A trace folder's name: its start time, sortable and safe in any file system. */
function traceName(): string {
  return `trace-${new Date().toISOString().replace(/[:.]/g, "-")}`;
}

/** A running driver. */
export class Driver {
  readonly #core: DriverCore;
  readonly #store: RouterStore;
  readonly #tracing: Tracing;
  #closed = false;

  private constructor(core: DriverCore, store: RouterStore, tracing: Tracing) {
    this.#core = core;
    this.#store = store;
    this.#tracing = tracing;
  }

  /** Loads engines, the router table and the audit log; subscribes notifications. */
  static async start(options: DriverOptions): Promise<Driver> {
    const loaded = await loadEngines(options.engines ?? ENGINES);
    const serving = loaded.filter((l) => l.engine && l.availability.available)
      // The loaded engine's own ops: Cua's depend on the tools its child lists.
      .map((l) => ({ name: l.entry.name, ops: l.engine?.ops ?? l.entry.ops }));
    const store = await RouterStore.open(options.paths.router, serving);
    const audit = new TappedAuditLog(options.paths.audit);
    const core = new DriverCore(loaded, options.config, store.router, audit);
    const traces = `${options.paths.driverDir}/traces`;
    // A new folder per trace_start without one, named by its start time.
    const tracing = new Tracing(core, audit, () => `${traces}/${traceName()}`);
    if (options.trace !== undefined) await tracing.startGlobal(options.trace);
    if (serving.length > 0) {
      await core.live.start();
      if (!options.oneShot) void prewarm(core);
    }
    return new Driver(core, store, tracing);
  }

  /** Tunables in force. */
  get config(): DriverConfig {
    return this.#core.config;
  }

  /** The op handlers, each routed, locked, audited and, while a trace records, recorded. */
  handlers(): Handlers {
    const c = this.#core;
    const tracing = this.#tracing;
    const via = <N extends OpName>(
      op: N,
      run: (p: ParamsOf<N>, ctx: CallContext) => Promise<HandlerResultOf<N>>,
    ) =>
    (p: ParamsOf<N>, ctx: CallContext): Promise<HandlerResultOf<N>> => {
      const params = p as Record<string, unknown>;
      const recs = tracing.recorders(ctx);
      if (recs === undefined) return routed(c, op, params, ctx, () => run(p, ctx));
      return tracing.record(
        recs,
        params,
        ctx,
        (around) => routed(c, op, params, ctx, () => around(() => run(p, ctx))),
      );
    };
    return {
      hello: via("hello", () => hello(c)),
      list_apps: via("list_apps", (p, ctx) => listApps(c, ctx, p.launchable === true)),
      read_ui: via("read_ui", (p, ctx) => readUi(c, p, ctx)),
      act: via("act", (p, ctx) => act(c, p, ctx)),
      run_batch: via("run_batch", (p, ctx) => runBatch(c, p, ctx)),
      verify: via("verify", (p, ctx) => verify(c, p, ctx)),
      find: via("find", (p, ctx) => find(c, p, ctx)),
      screenshot: via("screenshot", (p, ctx) => screenshot(c, p, ctx)),
      zoom: via("zoom", (p, ctx) => zoom(c, p, ctx)),
      pixel_click: via("pixel_click", (p, ctx) => pixel(c, { op: "pixel_click", ...p }, ctx)),
      pixel_move: via("pixel_move", (p, ctx) => pixel(c, { op: "pixel_move", ...p }, ctx)),
      pixel_drag: via("pixel_drag", (p, ctx) => pixel(c, { op: "pixel_drag", ...p }, ctx)),
      pixel_scroll: via("pixel_scroll", (p, ctx) => pixel(c, { op: "pixel_scroll", ...p }, ctx)),
      pixel_type_text: via(
        "pixel_type_text",
        (p, ctx) => pixel(c, { op: "pixel_type_text", ...p }, ctx),
      ),
      pixel_key: via("pixel_key", (p, ctx) => pixel(c, { op: "pixel_key", ...p }, ctx)),
      hold_key: via("hold_key", (p, ctx) => pixel(c, { op: "hold_key", ...p }, ctx)),
      window: via("window", (p, ctx) => windowOp(c, p, ctx)),
      launch_app: via("launch_app", (p, ctx) => launchApp(c, p, ctx)),
      close_app: via("close_app", (p, ctx) => closeApp(c, p, ctx)),
      clipboard_get: via("clipboard_get", (p, ctx) => clipboardGet(c, p, ctx)),
      clipboard_set: via("clipboard_set", (p, ctx) => clipboardSet(c, p, ctx)),
      trace_start: via("trace_start", (p, ctx) => tracing.start(p, ctx)),
      trace_stop: via("trace_stop", (_p, ctx) => tracing.stop(ctx)),
    };
  }

  /**
   * Records a request the transport refused (a missing or wrong token) in the audit log,
   * so a caller probing for the token leaves a trace.
   */
  refused(method: string): void {
    this.#core.audit.append({
      ts: new Date().toISOString(),
      // The method is the caller's string: cut to what an op name can be.
      op: method.slice(0, 64),
      app: "",
      engine: "none",
      reason: "transport",
      ms: 0,
      outcome: "unauthorized",
    });
  }

  /** A connection ended: what it owned (a trace it never stopped) is finished. */
  sessionEnded(session: object): Promise<void> {
    return this.#tracing.sessionEnded(session);
  }

  /** Stops the live map, flushes router.json and the audit log, releases engines. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#tracing.close();
    await this.#core.live.close();
    await this.#store.close();
    await this.#core.audit.close();
    this.#core.images.close();
    await Promise.allSettled(this.#core.loaded.map((l) => l.engine?.close()));
  }
}
