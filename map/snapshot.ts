/**
 * One read of a window turned into protocol elements, with the engine's node kept for
 * each id so an action can find what to act on.
 *
 * @module
 */
import type { RawNode } from "../model/engine.ts";
import type { Element } from "../protocol/element.ts";
import { visitIds } from "./ids.ts";

/** A window's elements as of one read. */
export interface Snapshot {
  /** Elements in document order (pre-order), the window first. */
  readonly elements: Element[];
  /** The engine's node for each id; only the engine that read it may act on it. */
  readonly handles: Map<string, RawNode>;
}

/**
 * Makes the protocol element for one node.
 *
 * Bounds and actions are copied so that an engine reusing its objects between reads
 * can't alter elements already stored in a map version. `value`, `parent` and
 * `unread`, `truncated`, `table` and the states are left out, not set to `undefined`, when absent.
 *
 * @param node The engine's node.
 * @param id Its id (see `ids.ts`).
 * @param parent Its parent's id; `undefined` for the window.
 */
export function toElement(node: RawNode, id: string, parent: string | undefined): Element {
  const b = node.bounds;
  const bounds = { x: b.x, y: b.y, w: b.w, h: b.h };
  const actions = node.actions.slice();
  const { role, name, enabled, focused } = node;
  // A password field's value is never answered, whatever an engine read (not as bullets
  // either: their count is the password's length).
  const el: Element = node.value === undefined || role === SECURE_ROLE
    ? { id, role, name, bounds, enabled, focused, actions }
    : { id, role, name, value: node.value, bounds, enabled, focused, actions };
  if (parent !== undefined) el.parent = parent;
  if (node.unread !== undefined) el.unread = node.unread;
  if (node.truncated) el.truncated = true;
  if (node.table !== undefined) el.table = { ...node.table };
  if (node.checked !== undefined) el.checked = node.checked;
  if (node.expanded !== undefined) el.expanded = node.expanded;
  if (node.selected !== undefined) el.selected = node.selected;
  return el;
}

/** The role of a password field, on every OS (AT-SPI's password text, UIA's IsPassword). */
export const SECURE_ROLE = "AXSecureTextField";

/**
 * Flattens a window's tree into elements with ids.
 *
 * @param root The window node, as an engine read it.
 * @returns The elements in document order and the engine node behind each id.
 */
export function buildSnapshot(root: RawNode): Snapshot {
  const elements: Element[] = [];
  const handles = new Map<string, RawNode>();
  visitIds(root, (node, id, parent) => {
    elements.push(toElement(node, id, parent));
    handles.set(id, node);
  });
  return { elements, handles };
}
