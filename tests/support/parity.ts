/**
 * Read parity against the pyatspi oracle: every showing node that has a name or text in
 * the oracle should be in the driver's map with that text, under the role the driver maps
 * the node's AT-SPI role to.
 *
 * @module
 */
import type { Element } from "../../protocol/element.ts";
import { axRole } from "../../engines/atspi/roles.ts";
import type { ShownNode } from "./oracle.ts";

/** How the map compares with the oracle. */
export interface Parity {
  /** Oracle nodes with a name or text. */
  total: number;
  /** Of those, found in the map with the same text and a consistent role. */
  found: number;
  /** Found with the same text but another role. */
  wrongRole: string[];
  /** Not found at all. */
  missing: string[];
}

/** Whitespace and embedded-object marks do not count. */
export const norm = (s: string): string => s.replace(/\uFFFC/g, " ").replace(/\s+/g, " ").trim();

/** Compares `elements` with the oracle's `nodes`. */
export function parity(elements: readonly Element[], nodes: readonly ShownNode[]): Parity {
  const byText = new Map<string, Element[]>();
  const add = (key: string, e: Element) => {
    if (key === "") return;
    const list = byText.get(key) ?? [];
    list.push(e);
    byText.set(key, list);
  };
  for (const e of elements) {
    add(norm(e.name), e);
    if (e.value !== undefined) add(norm(e.value), e);
  }
  const out: Parity = { total: 0, found: 0, wrongRole: [], missing: [] };
  for (const n of nodes) {
    const keys = [norm(n.name), norm(n.text)].filter((k) => k !== "");
    if (keys.length === 0) continue;
    out.total++;
    const candidates = keys.flatMap((k) => byText.get(k) ?? []);
    const label = `${n.roleName} ${JSON.stringify(keys[0]!.slice(0, 60))}`;
    if (candidates.length === 0) {
      out.missing.push(label);
      continue;
    }
    // Multi-line and editable variants of a text role map to other AX roles: any of them.
    const roles = new Set([
      axRole(n.role, { multiLine: false, editable: false }),
      axRole(n.role, { multiLine: true, editable: true }),
      axRole(n.role, { multiLine: false, editable: true }),
    ]);
    if (candidates.some((e) => roles.has(e.role))) out.found++;
    else out.wrongRole.push(`${label} (map: ${candidates[0]!.role})`);
  }
  return out;
}
