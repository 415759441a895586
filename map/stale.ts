/**
 * The freshness guard for actions (design document: "An action carries the version it
 * was planned on").
 *
 * `act` calls {@link checkVersion} once, after the map was brought up to date, then
 * {@link resolveAt} for its id. `run_batch` calls {@link checkVersion} before its first
 * step only, and {@link resolveAt} with the batch's planned version for every step: ids
 * are stable, so an id planned on version 5 still names the same element after step 1
 * made version 6, as long as the element is still there.
 *
 * @module
 */
import type { RawNode } from "../model/engine.ts";
import type { Element } from "../protocol/element.ts";
import { DriverError } from "../protocol/errors.ts";
import type { WindowMap } from "./window_map.ts";
import { VALUE_NAMED } from "./ids.ts";

function stale(map: WindowMap, planned: number): DriverError {
  return new DriverError(
    "stale_version",
    `Version "${planned}" of window "${map.window}" is stale: the map is at version ${map.version}`,
    { map: map.payload() },
  );
}

/**
 * Refuses an action planned on another version than the current one.
 *
 * @param map The window's map, already brought up to date.
 * @param planned The version the action was planned on.
 * @throws {DriverError} `stale_version` with `data.map` = the current map payload.
 */
export function checkVersion(map: WindowMap, planned: number): void {
  if (planned !== map.version) throw stale(map, planned);
}

/** What about an element makes a plan on it stale under the element guard. */
export type ElementChange = "gone" | "moved" | "changed";

/**
 * The element guard (`act` with `guard: "element"`): refuses an action planned on an
 * older version only when its target itself changed since then: gone, moved (other
 * bounds), or changed what it is (role, name, enabled, actions; not the name of an element
 * named by its value, a combo showing another option). Changes elsewhere in the
 * window, and of the target's value or on/off state (what the action itself sets), let
 * the action go ahead. A planned version the map no longer keeps cannot be compared, and
 * refuses as the window guard does.
 *
 * @throws {DriverError} `stale_version` with `data.map` and `data.element` (the change).
 */
export function checkElement(map: WindowMap, planned: number, id: string): void {
  if (planned === map.version) return;
  const then = planned < map.version ? map.at(planned)?.find((e) => e.id === id) : undefined;
  if (then === undefined) throw stale(map, planned);
  const now = map.get(id);
  const change = elementChange(then, now);
  if (change === undefined) return;
  throw new DriverError(
    "stale_version",
    `Version "${planned}" of window "${map.window}" is stale for element "${id}": it ${
      change === "changed" ? "changed" : change === "moved" ? "moved" : "is gone"
    } by version ${map.version}`,
    { map: map.payload(), element: change },
  );
}

/** How `now` differs from `then` in what a plan on it relied on; undefined when not. */
function elementChange(then: Element, now: Element | undefined): ElementChange | undefined {
  if (now === undefined) return "gone";
  const a = then.bounds;
  const b = now.bounds;
  if (a.x !== b.x || a.y !== b.y || a.w !== b.w || a.h !== b.h) return "moved";
  // A field's or combo's name may be its value (ids.ts): that is not what a plan relied on.
  const named = VALUE_NAMED.has(then.role) || then.name === now.name;
  const same = then.role === now.role && named &&
    then.enabled === now.enabled && then.actions.length === now.actions.length &&
    then.actions.every((x, i) => now.actions[i] === x);
  return same ? undefined : "changed";
}

/**
 * The engine node to act on for `id`, planned on `version`.
 *
 * The node returned is the one from the latest read (engines may hand out new handles
 * per read; the latest is the live one). The planned version only has to be one the map
 * has reached: an aged-out version is fine, since ids do not depend on versions.
 *
 * @param map The window's map.
 * @param version The version the step was planned on.
 * @param id The element id from that version.
 * @returns The engine node for `id`.
 * @throws {DriverError} `stale_version` (with `data.map`) when `version` is ahead of the
 *   map or not a version number; `element_not_found` (with `data.version`, the current
 *   version) when `id` is not in the current map.
 */
export function resolveAt(map: WindowMap, version: number, id: string): RawNode {
  if (!Number.isInteger(version) || version < 1 || version > map.version) {
    throw stale(map, version);
  }
  const node = map.handle(id);
  if (node !== undefined) return node;
  const then = map.at(version)?.some((el) => el.id === id) ?? false;
  const message = then
    ? `Cannot find element "${id}" of version ${version}: it is gone at version ${map.version}`
    : `Cannot find element "${id}": not in version ${map.version} of window "${map.window}"`;
  throw new DriverError("element_not_found", message, { version: map.version });
}
