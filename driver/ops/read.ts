/**
 * `read_ui`: read a window into its map and answer the map, or the diff since a version.
 *
 * @module
 */
import { addCrops } from "../../map/mod.ts";
import type { HandlerResultOf, ParamsOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { DriverCore } from "../core.ts";
import { resolveTarget } from "../target.ts";
import type { Element } from "../../protocol/element.ts";
import type { Watched } from "../../live/windows.ts";
import { DriverError } from "../../protocol/errors.ts";

/**
 * A watched window of the app named (or with the pid) given, so a read of a known app
 * needs no listing of every app: a hung app elsewhere then cannot slow it down.
 */
function watchedApp(core: DriverCore, app: string | number | undefined): Watched | undefined {
  if (app === undefined) return undefined;
  const all = core.live.windows.all().reverse(); // most recently used first
  return typeof app === "number"
    ? all.find((w) => w.pid === app)
    : all.find((w) => w.appName.toLowerCase() === app.toLowerCase());
}

/** Serves `read_ui`. */
export async function readUi(
  core: DriverCore,
  p: ParamsOf<"read_ui">,
  ctx: CallContext,
): Promise<HandlerResultOf<"read_ui">> {
  const engine = core.engine(ctx.engine);
  const known = p.window !== undefined ? core.live.windows.peek(p.window) : watchedApp(core, p.app);
  const target = known
    ? { window: known.window, app: known.app, appName: known.appName, pid: known.pid }
    : await resolveTarget(engine, p, ctx.signal);
  const fresh = known && !p.fresh && p.max_elements === undefined ? known : undefined;
  const read = () =>
    fresh
      ? core.live.current(fresh, ctx.signal)
      : core.live.refresh(target, p.max_elements, ctx.signal, p.fresh === true, ctx.engine).then((
        w,
      ) => ({
        watched: w,
        cached: false,
      }));
  const { watched: w, cached } = await read().catch(async (err) => {
    // The app's remembered window closed: look the app up again, it may have another.
    if (
      p.window === undefined && known && err instanceof DriverError &&
      err.code === "window_not_found"
    ) {
      const t = await resolveTarget(engine, p, ctx.signal);
      return { watched: await core.live.refresh(t, p.max_elements, ctx.signal), cached: false };
    }
    throw err;
  });
  const map = w.map;
  let body: Partial<HandlerResultOf<"read_ui">>;
  const withCrops = async (els: readonly Element[]): Promise<Element[]> =>
    p.crops ? addCrops(els, await engine.capture(w.window, ctx.signal)) : [...els];
  if (p.since !== undefined) {
    const d = map.since(p.since);
    body = d.reset ? { reset: true, elements: await withCrops(d.elements) } : {
      added: await withCrops(d.added),
      changed: await withCrops(d.changed),
      removed: d.removed,
    };
  } else {
    body = { elements: await withCrops(map.elements) };
  }
  // The router decides where elements should come from. No vision engine is wired
  // into this build yet, so a read that wants vision still answers the tree and says so.
  const src = core.router.sources(w.appName, map.elements.length);
  const wantsVision = src.source !== "tree";
  return {
    app: w.appName,
    pid: w.pid,
    window: w.window,
    version: map.version,
    ...body,
    ...(w.truncated ? { truncated: true } : {}),
    cached,
    live: core.live.state(w),
    source: "tree",
    ...(wantsVision
      ? { source_reason: `${src.source_reason}; no vision engine in this build` }
      : {}),
    ...(src.source === "vision" ? { degraded: true, degraded_reason: src.source_reason! } : {}),
    engine: map.engine,
  };
}
