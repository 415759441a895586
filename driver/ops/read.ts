/**
 * `read_ui`: read a window into its map and answer the map, or the diff since a version.
 *
 * @module
 */
import { addCrops } from "../../map/mod.ts";
import type { HandlerResultOf, ParamsOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { DriverCore } from "../core.ts";
import type { Target } from "../target.ts";
import { locateWindow, sourceOf } from "../engine_choice.ts";
import type { Element } from "../../protocol/element.ts";
import type { Watched } from "../../live/windows.ts";
import { DriverError } from "../../protocol/errors.ts";

/**
 * A watched window of the app named (or with the pid) given, so a read of a known app
 * needs no listing of every app: a hung app elsewhere then cannot slow it down. Only while
 * the app's windows are as last listed: once a window came, went or was activated (a
 * dialog, a popup), or on `fresh`, the app is listed again to find the window it shows.
 */
function watchedApp(
  core: DriverCore,
  app: string | number | undefined,
  fresh: boolean,
): Watched | undefined {
  if (app === undefined) return undefined;
  // Most recently used first; never-used windows (-Infinity) compare equal, not NaN.
  const all = core.live.windows.all().sort((a, b) => (b.used - a.used) || 0);
  const w = typeof app === "number"
    ? all.find((w) => w.pid === app)
    : all.find((w) => w.appName.toLowerCase() === app.toLowerCase());
  if (!w || fresh) return undefined;
  const current = core.appWindows.current(w.app, core.live.events.windowCount(w.app));
  return current === undefined ? undefined : core.live.windows.peek(current);
}

/**
 * A read that names both a window and an app means that app's window: when the window is
 * another app's, the caller has mixed up its ids, and answering the other app would hide
 * that.
 */
function sameApp(target: Target, app: string | number): void {
  const same = typeof app === "number"
    ? target.pid === app
    : target.appName.toLowerCase() === app.toLowerCase();
  if (same) return;
  throw new DriverError(
    "invalid_params",
    `Window "${target.window}" belongs to "${target.appName}" (pid ${target.pid}), not ${
      JSON.stringify(app)
    }`,
    { issues: [{ path: ["app"], message: "names another app than the window's" }] },
  );
}

/** Serves `read_ui`. */
export async function readUi(
  core: DriverCore,
  p: ParamsOf<"read_ui">,
  ctx: CallContext,
): Promise<HandlerResultOf<"read_ui">> {
  const engine = core.engine(ctx.engine);
  const known = p.window !== undefined
    ? core.live.windows.peek(p.window)
    : watchedApp(core, p.app, p.fresh === true);
  const located = known
    ? { target: known, engine: known.map.engine }
    : await locateWindow(core, engine, p, ctx.signal);
  if (p.window !== undefined && p.app !== undefined) sameApp(located.target, p.app);
  const walk = async (l: { target: Target; engine: string }) => ({
    watched: await core.live.refresh(l.target, ctx.signal, p.fresh === true, l.engine),
    cached: false,
  });
  const fresh = known && !p.fresh ? known : undefined;
  const first = await (fresh ? core.live.current(fresh, ctx.signal) : walk(located))
    .catch(async (err) => {
      // The app's remembered window closed: look the app up again, it may have another.
      if (
        p.window === undefined && known && err instanceof DriverError &&
        err.code === "window_not_found"
      ) {
        return await walk(await locateWindow(core, engine, p, ctx.signal));
      }
      throw err;
    });
  const decided = sourceOf(core, first.watched);
  let source = decided.source;
  let read = first;
  if (decided.reread) {
    // The source the tree calls for needs another engine: read the window with it.
    try {
      const again = await core.live.refresh(first.watched, ctx.signal, true, decided.reread);
      read = { watched: again, cached: false };
    } catch (err) {
      if (!(err instanceof DriverError) || err.code !== "driver_unavailable") throw err;
      // The tree read stands, and the answer says why pixels are missing from it.
      source = {
        ...source,
        source: "tree",
        source_reason: `${source.source_reason}; ${err.message}`,
      };
    }
  }
  const { watched: w, cached } = read;
  core.live.windows.use(w.window); // a caller's read keeps the window active
  const map = w.map;
  let body: Partial<HandlerResultOf<"read_ui">>;
  const withCrops = async (els: readonly Element[]): Promise<Element[]> => {
    if (!p.crops) return [...els];
    const cropped = addCrops(els, await core.engine(map.engine).capture(w.window, ctx.signal));
    map.rememberCrops(cropped); // a batch planned on this version can find them by pixels
    return cropped;
  };
  // max_elements cuts the answer only: the live map keeps the whole window, so ids past
  // the cut stay valid for act and find.
  let cut = false;
  let room = p.max_elements ?? Infinity;
  const within = (els: readonly Element[]): readonly Element[] => {
    const kept = els.length > room ? els.slice(0, room) : els;
    cut ||= kept.length < els.length;
    room -= kept.length;
    return kept;
  };
  if (p.since !== undefined) {
    const d = map.since(p.since);
    body = d.reset ? { reset: true, elements: await withCrops(within(d.elements)) } : {
      added: await withCrops(within(d.added)),
      changed: await withCrops(within(d.changed)),
      removed: d.removed,
    };
  } else {
    body = { elements: await withCrops(within(map.elements)) };
  }
  return {
    app: w.appName,
    pid: w.pid,
    window: w.window,
    version: map.version,
    ...body,
    ...(w.truncated || cut ? { truncated: true } : {}),
    cached,
    live: core.live.state(w),
    ...source,
    // What lay on top of the window when it was read (a vision read leaves it out).
    ...(w.covered?.length ? { covered: w.covered } : {}),
    engine: map.engine,
  };
}
