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
import { DriverError } from "../protocol/errors.ts";
import type { WindowMap } from "./window_map.ts";

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
