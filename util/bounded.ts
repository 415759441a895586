/**
 * A map kept to a size by forgetting what was set longest ago: the per-window memories of
 * the MCP tools and a window's nodes found beyond its map.
 *
 * @module
 */

/**
 * Sets `key` to `value` as the newest entry of `map` (re-setting a key makes it newest)
 * and, past `max` entries, forgets the oldest.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}
