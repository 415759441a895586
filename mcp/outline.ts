/**
 * The compact text form of a window's map for MCP clients: one line per element,
 * `id role "name" [value] @x,y,w,h`, indented under its parent, so a model reads a
 * calculator in a few hundred tokens instead of a JSON snapshot ten times that size.
 *
 * @module
 */
import type { Element } from "../protocol/element.ts";

/** Longest name or value shown; longer text is cut and says how much was left out. */
export const MAX_TEXT = 160;

/** Lines of an outline and how many elements it left out for the budget. */
export interface Outline {
  /** The lines, without trailing newlines. */
  lines: string[];
  /** Elements that did not fit the budget. */
  omitted: number;
}

/** A diff as `read_ui` with `since`, `act` and `run_batch` answer it. */
export interface DiffParts {
  /** Elements that appeared. */
  added: readonly Element[];
  /** Elements whose model-visible fields changed. */
  changed: readonly Element[];
  /** Ids that went away. */
  removed: readonly string[];
}

/** Cuts `text` to {@link MAX_TEXT} characters, saying how many were cut. */
export function clip(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  return `${text.slice(0, MAX_TEXT)}…(+${text.length - MAX_TEXT} chars)`;
}

/** Escapes control characters and quotes the way JSON does, without the outer quotes. */
function escaped(text: string): string {
  return JSON.stringify(clip(text)).slice(1, -1);
}

/** One element as one line: `id role "name" [value] @x,y,w,h`, plus state flags. */
export function elementLine(e: Element, depth = 0): string {
  const b = e.bounds;
  const at = `@${Math.round(b.x)},${Math.round(b.y)},${Math.round(b.w)},${Math.round(b.h)}`;
  const value = e.value === undefined ? "" : ` [${escaped(e.value)}]`;
  const flags = (e.enabled ? "" : " disabled") + (e.focused ? " focused" : "") +
    (e.checked === undefined
      ? ""
      : e.checked === "mixed"
      ? " mixed"
      : e.checked
      ? " checked"
      : " unchecked") +
    (e.expanded === undefined ? "" : e.expanded ? " expanded" : " collapsed") +
    (e.selected ? " selected" : "") + (e.offscreen ? " offscreen" : "");
  return `${"  ".repeat(depth)}${e.id} ${e.role} "${escaped(e.name)}"${value} ${at}${flags}`;
}

/**
 * Orders `elements` depth first under their parents (a parent missing from the list makes
 * its child a root) and pairs each with its depth. Elements caught in a parent cycle,
 * which no root reaches, follow at depth 0 so nothing is silently dropped.
 */
export function treeOrder(elements: readonly Element[]): [Element, number][] {
  const ids = new Set(elements.map((e) => e.id));
  const children = new Map<string, Element[]>();
  const roots: Element[] = [];
  for (const e of elements) {
    if (e.parent !== undefined && e.parent !== e.id && ids.has(e.parent)) {
      const list = children.get(e.parent);
      if (list) list.push(e);
      else children.set(e.parent, [e]);
    } else {
      roots.push(e);
    }
  }
  const out: [Element, number][] = [];
  const seen = new Set<string>();
  const stack: [Element, number][] = roots.toReversed().map((e) => [e, 0]);
  const drain = () => {
    while (stack.length > 0) {
      const [e, depth] = stack.pop()!;
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      out.push([e, depth]);
      const kids = children.get(e.id) ?? [];
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, depth + 1]);
    }
  };
  drain();
  for (const e of elements) {
    if (!seen.has(e.id)) {
      stack.push([e, 0]);
      drain();
    }
  }
  return out;
}

/** The whole map as indented lines, at most `budget` of them. */
export function outline(elements: readonly Element[], budget: number): Outline {
  const ordered = treeOrder(elements);
  const shown = ordered.slice(0, Math.max(0, budget));
  return {
    lines: shown.map(([e, depth]) => elementLine(e, depth)),
    omitted: ordered.length - shown.length,
  };
}

/** A diff as `+ line` (added), `~ line` (changed), `- id` (removed), at most `budget` lines. */
export function diffOutline(d: DiffParts, budget: number): Outline {
  const all = [
    ...d.added.map((e) => `+ ${elementLine(e)}`),
    ...d.changed.map((e) => `~ ${elementLine(e)}`),
    ...d.removed.map((id) => `- ${id}`),
  ];
  const lines = all.slice(0, Math.max(0, budget));
  return { lines, omitted: all.length - lines.length };
}

/** `key=value` pairs for a header line; `undefined` and `false` values are left out. */
export function header(fields: Record<string, string | number | boolean | undefined>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === false) continue;
    if (value === true) parts.push(key);
    else if (typeof value === "string" && !/^[\w.:-]+$/.test(value)) {
      parts.push(`${key}=${JSON.stringify(value)}`);
    } else parts.push(`${key}=${value}`);
  }
  return parts.join(" ");
}
