/**
 * `read_ui`: read a window into its map and answer the map, or the diff since a version.
 *
 * @module
 */
import { addCrops } from "../../map/mod.ts";
import type { HandlerResultOf, ParamsOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { DriverCore } from "../core.ts";
import { resolveTarget, type Target } from "../target.ts";
import type { Engine } from "../../engines/engine.ts";
import type { Element } from "../../protocol/element.ts";
import type { Watched } from "../../live/windows.ts";
import { DriverError } from "../../protocol/errors.ts";
import { blankShare, pixelNodes } from "../../engines/merged/merge.ts";

/**
 * A watched window of the app named (or with the pid) given, so a read of a known app
 * needs no listing of every app: a hung app elsewhere then cannot slow it down.
 */
function watchedApp(core: DriverCore, app: string | number | undefined): Watched | undefined {
  if (app === undefined) return undefined;
  const all = core.live.windows.all().sort((a, b) => b.used - a.used); // most recent first
  return typeof app === "number"
    ? all.find((w) => w.pid === app)
    : all.find((w) => w.appName.toLowerCase() === app.toLowerCase());
}

/**
 * Finds the window to read with the routed engine; an app that engine does not know
 * (no accessibility tree at all: xcalc, xterm, a canvas) is looked for by the vision
 * engine, whose reads then come from pixels.
 */
async function locate(
  core: DriverCore,
  engine: Engine,
  p: ParamsOf<"read_ui">,
  ctx: CallContext,
): Promise<{ target: Target; engine: string }> {
  try {
    return { target: await resolveTarget(engine, p, ctx.signal), engine: engine.name };
  } catch (err) {
    const vision = core.available("vision");
    const missing = err instanceof DriverError &&
      (err.code === "app_not_running" || err.code === "window_not_found");
    if (!missing || !vision || vision === engine || p.app === undefined && p.window === undefined) {
      throw err;
    }
    const target = await resolveTarget(vision, p, ctx.signal).catch(() => {
      throw err; // Vision does not see it either: the first engine's answer stands.
    });
    core.router.markDegraded(target.appName, "no_accessibility_tree");
    return { target, engine: vision.name };
  }
}

/** Serves `read_ui`. */
export async function readUi(
  core: DriverCore,
  p: ParamsOf<"read_ui">,
  ctx: CallContext,
): Promise<HandlerResultOf<"read_ui">> {
  const engine = core.engine(ctx.engine);
  const known = p.window !== undefined ? core.live.windows.peek(p.window) : watchedApp(core, p.app);
  const located = known
    ? { target: known, engine: known.map.engine }
    : await locate(core, engine, p, ctx);
  const walk = async (l: { target: Target; engine: string }) => ({
    watched: await core.live.refresh(
      l.target,
      p.max_elements,
      ctx.signal,
      p.fresh === true,
      l.engine,
    ),
    cached: false,
  });
  const fresh = known && !p.fresh && p.max_elements === undefined ? known : undefined;
  const first = await (fresh ? core.live.current(fresh, ctx.signal) : walk(located))
    .catch(async (err) => {
      // The app's remembered window closed: look the app up again, it may have another.
      if (
        p.window === undefined && known && err instanceof DriverError &&
        err.code === "window_not_found"
      ) {
        return await walk(await locate(core, engine, p, ctx));
      }
      throw err;
    });
  const decided = sourceOf(core, first.watched);
  let source = decided.source;
  let read = first;
  if (decided.reread) {
    // The source the tree calls for needs another engine: read the window with it.
    try {
      const again = await core.live.refresh(
        first.watched,
        p.max_elements,
        ctx.signal,
        true,
        decided.reread,
      );
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
  const map = w.map;
  let body: Partial<HandlerResultOf<"read_ui">>;
  const withCrops = async (els: readonly Element[]): Promise<Element[]> =>
    p.crops ? addCrops(els, await core.engine(map.engine).capture(w.window, ctx.signal)) : [...els];
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
  return {
    app: w.appName,
    pid: w.pid,
    window: w.window,
    version: map.version,
    ...body,
    ...(w.truncated ? { truncated: true } : {}),
    cached,
    live: core.live.state(w),
    ...source,
    engine: map.engine,
  };
}

/**
 * Where this answer's elements come from, as the router sees it, and the engine to read
 * the window with when that is not the one that just read it. Pixels alone for apps with
 * no tree at all; the tree and pixels merged (`<tree>+vision`) for an empty or thin tree
 * of an app on the bus, and the tree alone again once it has grown.
 */
function sourceOf(core: DriverCore, w: Watched): { source: SourceFields; reread?: string } {
  if (w.map.engine === "vision") {
    const reason = core.router.degradedReason(w.appName) ?? "no_accessibility_tree";
    return {
      source: { source: "vision", source_reason: reason, degraded: true, degraded_reason: reason },
    };
  }
  // An engine that calls its own tree unusable knows more than the element count does.
  if (w.treeDegraded) core.router.markDegraded(w.appName, w.treeDegraded);
  else core.router.clearDegraded(w.appName); // a usable tree again
  const [treeEngine] = w.map.engine.split("+") as [string];
  const fromTree = w.map.elements.length - pixelNodes(w.tree);
  const src = core.router.sources(w.appName, fromTree, blankShare(w.tree));
  if (src.source === "tree") {
    const reread = treeEngine !== w.map.engine ? treeEngine : undefined;
    return { source: { source: "tree" }, ...(reread ? { reread } : {}) };
  }
  const reason = src.source_reason!;
  const merged = `${treeEngine}+vision`;
  if (!core.available(merged)) {
    return {
      source: {
        source: "tree",
        source_reason: `${reason}; merging in vision needs the ${merged} engine, unavailable here`,
        degraded: true,
        degraded_reason: reason,
      },
    };
  }
  return {
    source: { source: src.source, source_reason: reason, degraded: true, degraded_reason: reason },
    ...(w.map.engine !== merged ? { reread: merged } : {}),
  };
}

/** The source fields of a read_ui answer. */
interface SourceFields {
  source: "tree" | "vision" | "both";
  source_reason?: string;
  degraded?: boolean;
  degraded_reason?: string;
}
