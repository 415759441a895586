/**
 * The element map: turns an engine's raw tree into elements with stable ids, keeps each
 * window's recent versions, answers `since` diffs from them, guards actions against
 * stale versions, and hashes element crops. Pure data: no OS, no FFI, no RPC.
 *
 * ```ts
 * import { buildSnapshot, checkVersion, resolveAt, WindowMap } from "./map/mod.ts";
 *
 * const map = new WindowMap("0x3a", "atspi", buildSnapshot(tree.root));
 * map.update(buildSnapshot(later.root)); // new version only if something visible changed
 * const delta = map.since(1); // added / changed / removed, or reset: true
 * checkVersion(map, planned); // throws stale_version with the current map
 * const node = resolveAt(map, planned, id); // the engine node to act on
 * ```
 *
 * @module
 */
export { beyondId, computeIds, ID_LENGTH, type IdVisitor, visitIds } from "./ids.ts";
export { buildSnapshot, SECURE_ROLE, type Snapshot, toElement } from "./snapshot.ts";
export { type Delta, diff, sameVisible } from "./diff.ts";
export {
  DEFAULT_KEEP,
  type MapPayload,
  MIN_ID_PREFIX,
  type SinceResult,
  type UpdateResult,
  WindowMap,
  type WindowMapOptions,
} from "./window_map.ts";
export { checkElement, checkVersion, type ElementChange, resolveAt } from "./stale.ts";
export { type CropMatch, findByCrop, REPLAY_MAX_DISTANCE } from "./replay.ts";
export { addCrops, cropDistance, CropHasher, nearestByCrop } from "../model/crop.ts";
