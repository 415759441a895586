/**
 * `find` and `verify`: questions answered from the window's map, brought up to date
 * first; `verify` waits for the app's notifications, not on a polling loop.
 *
 * @module
 */
import type { Element } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { HandlerResultOf, ParamsOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { DriverCore } from "../core.ts";
import { findBeyond } from "./search.ts";
import { locateWindow } from "../engine_choice.ts";
import type { Watched } from "../../live/windows.ts";

/** What `find` matches on. */
export type Query = ParamsOf<"find">["query"];

/** Does `el` (an element, or an engine's node) match every field given in `q`? */
export function matches(el: Pick<Element, "role" | "name" | "value">, q: Query): boolean {
  if (q.role !== undefined && el.role !== q.role) return false;
  if (q.name !== undefined && el.name !== q.name) return false;
  if (q.value !== undefined && el.value !== q.value) return false;
  if (
    q.name_contains !== undefined && !el.name.toLowerCase().includes(q.name_contains.toLowerCase())
  ) {
    return false;
  }
  if (q.text_contains !== undefined) {
    const needle = q.text_contains.toLowerCase();
    if (!el.name.toLowerCase().includes(needle) && !el.value?.toLowerCase().includes(needle)) {
      return false;
    }
  }
  return true;
}

/** Elements `find` answers unless told otherwise. */
export const FIND_MAX_RESULTS = 100;

/**
 * Window `window`'s map, up to date: a window listed but never read (a dialog an action
 * just opened) is read now, as `read_ui` would, rather than sending the caller back to
 * read it first.
 */
async function mapOf(core: DriverCore, window: string, ctx: CallContext): Promise<Watched> {
  if (core.live.windows.peek(window) === undefined) {
    const { target, engine } = await locateWindow(
      core,
      core.engine(ctx.engine),
      { window },
      ctx.signal,
    );
    return await core.live.refresh(target, ctx.signal, false, engine);
  }
  return (await core.live.current(core.live.windows.get(window), ctx.signal)).watched;
}

/** Serves `find`. */
export async function find(
  core: DriverCore,
  p: ParamsOf<"find">,
  ctx: CallContext,
): Promise<HandlerResultOf<"find">> {
  const watched = await mapOf(core, p.window, ctx);
  const map = watched.map;
  const max = p.max_results ?? FIND_MAX_RESULTS;
  const inMap = map.elements.filter((e) => matches(e, p.query));
  if (p.scope !== "all") {
    // Without max_results the map's matches are all answered, as before scope existed.
    const cut = p.max_results !== undefined && inMap.length > p.max_results;
    return {
      elements: cut ? inMap.slice(0, p.max_results) : inMap,
      version: map.version,
      ...(cut ? { truncated: true as const } : {}),
      engine: map.engine,
    };
  }
  const beyond = await findBeyond(core, watched, p.query, inMap, max, ctx);
  return { ...beyond, version: map.version, engine: map.engine };
}

type Expect = ParamsOf<"verify">["expect"];

function meets(el: Element | undefined, e: Expect): boolean {
  // Any other expectation implies the element exists.
  const exists = e.exists ?? true;
  if ((el !== undefined) !== exists) return false;
  if (el === undefined) return true;
  if (e.name !== undefined && el.name !== e.name) return false;
  if (e.value !== undefined && el.value !== e.value) return false;
  if (e.enabled !== undefined && el.enabled !== e.enabled) return false;
  if (e.focused !== undefined && el.focused !== e.focused) return false;
  return true;
}

/** Serves `verify`: true as soon as the expectation holds, false when `timeout_ms` passes. */
export async function verify(
  core: DriverCore,
  p: ParamsOf<"verify">,
  ctx: CallContext,
): Promise<HandlerResultOf<"verify">> {
  if (p.id === undefined && p.query === undefined) {
    throw new DriverError("invalid_params", 'Give "id" or "query"', {
      issues: [{ path: ["id"], message: "One of id or query is required" }],
    });
  }
  const until = performance.now() + (p.timeout_ms ?? 0);
  let w = await mapOf(core, p.window, ctx);
  while (true) {
    w = (await core.live.current(w, ctx.signal)).watched;
    const map = w.map;
    const el = p.id !== undefined
      ? map.get(map.resolveId(p.id))
      : map.elements.find((e) => matches(e, p.query!));
    const ok = meets(el, p.expect);
    const left = until - performance.now();
    if (ok || left <= 0) {
      return { ok, actual: el ?? null, version: map.version, engine: map.engine };
    }
    // Wake on the app's next notification; without one, look again after the probe period.
    await core.live.events.next(w.app, Math.min(left, core.config.probe_ms), ctx.signal);
  }
}
