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

/** Serves `read_ui`. */
export async function readUi(
  core: DriverCore,
  p: ParamsOf<"read_ui">,
  ctx: CallContext,
): Promise<HandlerResultOf<"read_ui">> {
  const engine = core.engine();
  const known = p.window !== undefined ? core.windows.peek(p.window) : undefined;
  const target = known
    ? { window: known.window, app: known.app, appName: known.appName, pid: known.pid }
    : await resolveTarget(engine, p, ctx.signal);
  const fresh = known && !p.fresh && p.max_elements === undefined ? known : undefined;
  const { watched: w, cached } = fresh
    ? await core.current(fresh, ctx.signal)
    : { watched: await core.refresh(target, p.max_elements, ctx.signal), cached: false };
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
  // A window whose tree holds nothing but itself has no usable accessibility tree.
  const empty = map.elements.length <= 1;
  return {
    app: w.appName,
    pid: w.pid,
    window: w.window,
    version: map.version,
    ...body,
    ...(w.truncated ? { truncated: true } : {}),
    cached,
    live: core.liveState(),
    source: "tree",
    ...(empty ? { degraded: true, degraded_reason: "empty_tree" } : {}),
    engine: map.engine,
  };
}
