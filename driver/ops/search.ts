/**
 * `find` with `scope: "all"`: the window's map first, then the engine's search of the
 * app's whole tree for the window (hidden and scrolled-out parts, rows not shown). A
 * match the map holds is answered as the map has it; any other gets an id of its own
 * (`beyondId`), is remembered by the window's map so `act` can name it, says
 * `offscreen: true` unless some of it shows inside the window, and names its parent when
 * the map or the answer holds it (a whole-page read is a tree, not a list).
 *
 * @module
 */
import { beyondId, toElement } from "../../map/mod.ts";
import type { SearchFilter } from "../../model/engine.ts";
import type { Bounds, Element } from "../../protocol/element.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { Watched } from "../../live/windows.ts";
import type { DriverCore } from "../core.ts";
import { mapEngineOf } from "../engine_choice.ts";
import { matches, type Query } from "./query.ts";

/**
 * Most of the app's objects one search asks about: a 10,000-row list of three columns and its window,
 * and no more (each object asked costs the app what a screen reader's walk would).
 */
export const SEARCH_MAX_NODES = 30_000;

/** Time kept back from the request's deadline to answer what the search found. */
const ANSWER_MS = 250;

/** What a whole-tree search answers, before the op's common fields. */
export interface BeyondAnswer {
  elements: Element[];
  searched: number;
  truncated?: true;
}

/** The filter an engine searches with: `q`, with what can be told from role and name first. */
export function filterOf(q: Query, maxResults: number): SearchFilter {
  const name = q.name_contains?.toLowerCase();
  return {
    maybe: (role, n) =>
      (q.role === undefined || role === q.role) && (q.name === undefined || n === q.name) &&
      (name === undefined || n.toLowerCase().includes(name)),
    accept: (node) => matches(node, q),
    maxResults,
  };
}

/** What tells an element from the others of its window without its object. */
const lookAlike = (e: Pick<Element, "role" | "name" | "bounds">): string =>
  `${e.role}\0${e.name}\0${e.bounds.x},${e.bounds.y},${e.bounds.w},${e.bounds.h}`;

/**
 * Searches beyond `w`'s map. `inMap` are the map's own matches, answered first. An engine
 * that cannot search (vision reads only what shows) answers those with `truncated`.
 */
export async function findBeyond(
  core: DriverCore,
  w: Watched,
  q: Query,
  inMap: readonly Element[],
  max: number,
  ctx: CallContext,
): Promise<BeyondAnswer> {
  const engine = mapEngineOf(core, w, false);
  if (engine.search === undefined) {
    return { elements: inMap.slice(0, max), searched: 0, truncated: true };
  }
  const stop = AbortSignal.timeout(Math.max(1, ctx.deadline - performance.now() - ANSWER_MS));
  const found = await engine.search(w.window, filterOf(q, max), {
    maxNodes: SEARCH_MAX_NODES,
    stop,
    signal: ctx.signal,
  });
  const map = w.map;
  const out = inMap.slice(0, max);
  const seen = new Set(out.map((e) => e.id));
  // LibreOffice and Qt hand out a new object for a cell asked for again: a match with the
  // role, name and bounds of one of the map's elements is that element.
  const shown = new Map(map.elements.map((e) => [lookAlike(e), e.id]));
  // The id each found node is answered by, so a node's children name it as their parent.
  const placed = new Map<string, string>();
  for (const node of found.nodes) {
    if (out.length >= max) break;
    const known = map.idOf(node.handle) ?? shown.get(lookAlike(node));
    if (known !== undefined) {
      placed.set(node.handle, known);
      continue;
    }
    const id = beyondId(node.handle);
    if (seen.has(id)) continue;
    seen.add(id);
    placed.set(node.handle, id);
    map.remember(id, node);
    const up = found.parents?.get(node.handle);
    const parent = up === undefined ? undefined : placed.get(up) ?? map.idOf(up);
    const element = toElement(node, id, parent);
    // Beyond the map is not always off screen: a Qt table's headers show, though its map
    // holds its cells only.
    out.push(showsIn(node.bounds, w.tree.bounds) ? element : { ...element, offscreen: true });
  }
  const cut = !found.complete || inMap.length > max;
  return { elements: out, searched: found.visited, ...(cut ? { truncated: true as const } : {}) };
}

/** Does box `b` have an area inside `frame`? */
function showsIn(b: Bounds, frame: Bounds): boolean {
  const w = Math.min(b.x + b.w, frame.x + frame.w) - Math.max(b.x, frame.x);
  const h = Math.min(b.y + b.h, frame.y + frame.h) - Math.max(b.y, frame.y);
  return b.w > 0 && b.h > 0 && w > 0 && h > 0;
}
