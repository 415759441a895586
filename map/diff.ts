/**
 * What changed between two element lists, as `read_ui` with `since` reports it.
 *
 * Only model-visible fields count (code style, "Diffs compare only model-visible
 * fields"): role, name, value, bounds, enabled, focused, parent, `truncated`, a table's
 * visible range and the `checked`, `expanded` and `selected` states. Actions are not compared (the design's list of version-changing fields
 * leaves them out), and neither is `crop`, which is derived from a capture per read rather
 * than stored in a map. A change of position in the list with no field change is not
 * reported either.
 *
 * @module
 */
import type { Element } from "../protocol/element.ts";

/** Elements added, changed and removed between two versions. */
export interface Delta {
  /** Elements only in the newer list, in its document order. */
  added: Element[];
  /** The newer element for each id in both lists whose visible fields differ. */
  changed: Element[];
  /** Ids only in the older list, in its document order. */
  removed: string[];
}

/**
 * Do two elements look the same to a model?
 *
 * Object identity answers first: map versions share unchanged elements, so most
 * comparisons between stored versions end there.
 *
 * @param x One element.
 * @param y Another element, usually with the same id.
 * @returns True when every model-visible field is equal.
 */
export function sameVisible(x: Element, y: Element): boolean {
  if (x === y) return true;
  const bx = x.bounds;
  const by = y.bounds;
  return x.id === y.id && x.name === y.name && x.value === y.value &&
    bx.x === by.x && bx.y === by.y && bx.w === by.w && bx.h === by.h &&
    x.enabled === y.enabled && x.focused === y.focused && x.role === y.role &&
    x.parent === y.parent && x.truncated === y.truncated && sameRange(x.table, y.table) &&
    x.checked === y.checked && x.expanded === y.expanded && x.selected === y.selected;
}

function sameRange(a: Element["table"], b: Element["table"]): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return a.rows === b.rows && a.columns === b.columns && a.first_row === b.first_row &&
    a.first_column === b.first_column && a.last_row === b.last_row &&
    a.last_column === b.last_column;
}

/**
 * The delta that turns `from` into `to`, keyed by id.
 *
 * Applying it (drop `removed`, then put every `added` and `changed` element by id)
 * yields `to` as a set of ids with their visible fields. Both lists must have unique ids,
 * as every snapshot does.
 *
 * @param from The older element list.
 * @param to The newer element list.
 * @returns Added and changed elements (the newer objects) and removed ids.
 */
export function diff(from: readonly Element[], to: readonly Element[]): Delta {
  const older = new Map<string, Element>();
  for (const el of from) older.set(el.id, el);
  const added: Element[] = [];
  const changed: Element[] = [];
  for (const el of to) {
    const was = older.get(el.id);
    if (was === undefined) {
      added.push(el);
      continue;
    }
    // What is left in `older` at the end is what was removed, in `from`'s order.
    older.delete(el.id);
    if (!sameVisible(was, el)) changed.push(el);
  }
  return { added, changed, removed: [...older.keys()] };
}
