/**
 * The compact text form of a window's map for MCP clients: one line per element,
 * `id role "name" [value]`, indented under its parent, so a model reads a calculator in a
 * few hundred tokens instead of a JSON snapshot ten times that size. Ids are shown by
 * their first {@link SHORT_ID} characters (the driver takes any unique prefix that long),
 * and bounds (`@x,y,w,h`) only when asked for.
 *
 * @module
 */
import type { Element } from "../protocol/element.ts";

/** Longest name or value shown; longer text is cut and says how much was left out. */
export const MAX_TEXT = 160;

/** Characters of an id an outline shows (the map's `MIN_ID_PREFIX`), more to tell two apart. */
export const SHORT_ID = 6;

/** How lines show an element's id and whether they show its bounds. */
export interface LineStyle {
  /** Shows `@x,y,w,h` (for pixel input and zoom); off, lines are a fifth shorter. */
  bounds: boolean;
  /** The id as shown. */
  id: (id: string) => string;
}

/**
 * Shows each of `ids` by its first {@link SHORT_ID} characters, or by as many more as
 * tell it from the others that share them.
 */
export function shortIds(ids: Iterable<string>): (id: string) => string {
  const byPrefix = new Map<string, string[]>();
  for (const id of ids) {
    const key = id.slice(0, SHORT_ID);
    const same = byPrefix.get(key);
    if (!same) byPrefix.set(key, [id]);
    else if (!same.includes(id)) same.push(id);
  }
  const long = new Map<string, string>();
  for (const same of byPrefix.values()) {
    if (same.length < 2) continue;
    for (const id of same) {
      let n = SHORT_ID;
      while (n < id.length && same.some((o) => o !== id && o.startsWith(id.slice(0, n)))) n++;
      long.set(id, id.slice(0, n));
    }
  }
  return (id) => long.get(id) ?? id.slice(0, SHORT_ID);
}

/** Lines with short ids (told apart among `elements`) and no bounds. */
export function styleFor(elements: Iterable<{ id: string }>, bounds = false): LineStyle {
  const ids = [];
  for (const e of elements) ids.push(e.id);
  return { bounds, id: shortIds(ids) };
}

/** Lines of an outline and how many elements it left out for the budget. */
export interface Outline {
  /** The lines, without trailing newlines. */
  lines: string[];
  /** Elements that did not fit the budget. */
  omitted: number;
  /** Elements left out as hollow containers or echoed text (their ids still work). */
  folded?: number;
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

/**
 * Longest text shown of an element whose text is what a person reads (a paragraph, a
 * heading, a label): cut at {@link MAX_TEXT}, a long article lost most of its words.
 */
export const MAX_READ_TEXT = 1_000;

/** Roles whose name is text to read rather than a control's label. */
const READ_ROLES = new Set(["AXStaticText", "AXParagraph", "AXHeading", "AXCell"]);

/** Cuts `text` to `max` characters, saying how many were cut. */
export function clip(text: string, max = MAX_TEXT): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}…(+${text.length - max} chars)`;
}

/** Escapes control characters and quotes the way JSON does, without the outer quotes. */
function escaped(text: string, max = MAX_TEXT): string {
  return JSON.stringify(clip(text, max)).slice(1, -1);
}

/** What the lines above an element's already say, so its own line need not. */
export interface Said {
  /** Its children's lines say its name (a row named by its cells). */
  name?: boolean;
  /** The nearest line above it in the tree says `offscreen`. */
  offscreen?: boolean;
}

/**
 * One element as one line: `id role "name" [value]`, then `@x,y,w,h` when the style asks,
 * then state flags. The name is left out when empty, and what `said` says is not repeated;
 * `[value]` is shown only when it says more than the name.
 */
export function elementLine(
  e: Element,
  depth = 0,
  style: LineStyle = styleFor([e]),
  said: Said = {},
): string {
  // Text to read with no name is its text: `"Region"`, not `"" [Region]`.
  if (e.name === "" && READ_ROLES.has(e.role) && e.value !== undefined) {
    const { value, ...rest } = e;
    return lineOf({ ...rest, name: value }, depth, style, said);
  }
  return lineOf(e, depth, style, said);
}

/** {@link elementLine} of an element as it is. */
function lineOf(e: Element, depth: number, style: LineStyle, said: Said): string {
  const b = e.bounds;
  const at = style.bounds
    ? ` @${Math.round(b.x)},${Math.round(b.y)},${Math.round(b.w)},${Math.round(b.h)}`
    : "";
  // A value that only repeats the name (a text run's text) is said once.
  const same = e.value !== undefined && e.value !== "" && e.value.trim() === e.name.trim();
  const value = e.value === undefined || same ? "" : ` [${escaped(e.value)}]`;
  const flags = (e.enabled ? "" : " disabled") + (e.focused ? " focused" : "") +
    (e.checked === undefined
      ? ""
      : e.checked === "mixed"
      ? " mixed"
      : e.checked
      ? " checked"
      : " unchecked") +
    (e.expanded === undefined ? "" : e.expanded ? " expanded" : " collapsed") +
    (e.selected ? " selected" : "") + (e.offscreen && !said.offscreen ? " offscreen" : "");
  const max = READ_ROLES.has(e.role) ? MAX_READ_TEXT : MAX_TEXT;
  const name = !said.name && e.name !== "" ? ` "${escaped(e.name, max)}"` : "";
  return `${"  ".repeat(depth)}${style.id(e.id)} ${e.role}${name}${value}${at}${flags}`;
}

/**
 * Each element's children in `elements`, and the roots: elements whose parent is missing
 * from the list (or is themselves).
 */
function family(elements: readonly Element[]): {
  children: Map<string, Element[]>;
  roots: Element[];
} {
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
  return { children, roots };
}

/**
 * Orders `elements` depth first under their parents (a parent missing from the list makes
 * its child a root) and pairs each with its depth. Elements caught in a parent cycle,
 * which no root reaches, follow at depth 0 so nothing is silently dropped.
 */
export function treeOrder(elements: readonly Element[]): [Element, number][] {
  return orderOf(elements, family(elements));
}

/** {@link treeOrder} over a family already worked out (the outline needs it too). */
function orderOf(
  elements: readonly Element[],
  { children, roots }: ReturnType<typeof family>,
): [Element, number][] {
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

/**
 * Roles that only group other elements. Toolkits wrap content in layers of them (a
 * Chromium page puts half a dozen unnamed `AXGroup`s above its first heading).
 */
const CONTAINER_ROLES: ReadonlySet<string> = new Set([
  "AXGroup",
  "AXGenericElement",
  "AXSection",
  "AXSplitGroup",
  "AXLayoutArea",
  "AXUnknown",
]);

/**
 * An element whose line tells a model nothing its children do not: an unnamed container
 * with no state of its own, and no text but what its one child holds (a paragraph's box
 * around its one text run). Actions do not count: Chromium offers `press` and `click` on
 * every node. Its id stays valid; only its line is left out, and its children take its
 * place in the indentation.
 */
function isHollow(e: Element, kids: readonly Element[]): boolean {
  if (e.name !== "" || !CONTAINER_ROLES.has(e.role)) return false;
  if (e.focused || e.checked !== undefined || e.expanded !== undefined || e.selected) return false;
  const text = e.value?.trim() ?? "";
  if (text === "") return true;
  const only = kids.length === 1 ? kids[0]! : undefined;
  return only !== undefined && text === (only.value ?? only.name).trim();
}

/**
 * A text run whose text its parent's line already shows: the run inside a heading, a cell
 * or a link (the parent's name), or one of the runs of a list item or label whose value is
 * their text together. Elements that are not plain text (a link in a paragraph) stay.
 */
function isEcho(e: Element, parent: Element, kids: ReadonlyMap<string, Element[]>): boolean {
  if (e.role !== "AXStaticText" || kids.has(e.id)) return false;
  if (e.value !== undefined && e.value.trim() !== e.name.trim()) return false;
  const text = e.name.trim();
  const said = `${parent.name}\n${parent.value ?? ""}`;
  return text !== "" && said.includes(text);
}

/** A text run with no text at all (Chromium's runs of white space between controls). */
function isBlank(e: Element, kids: ReadonlyMap<string, Element[]>): boolean {
  return e.role === "AXStaticText" && !kids.has(e.id) && e.name.trim() === "" &&
    (e.value ?? "").trim() === "";
}

/**
 * A label whose text a control beside it is named by (a form's "Region" before the
 * "Region" drop-down): the control's line says it. A trailing colon is not compared.
 */
function isLabelOf(e: Element, siblings: readonly Element[]): boolean {
  if (e.role !== "AXStaticText") return false;
  const text = (e.name || e.value || "").trim().replace(/:$/, "");
  return text !== "" &&
    siblings.some((s) => s !== e && s.role !== "AXStaticText" && s.name.trim() === text);
}

/** `text` with runs of white space as one space, trimmed. */
const squeezed = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * Does `e`'s name only say what its children's lines do? A row named by its cells, a cell
 * or heading named by the one button in it. Children that are text runs do not count:
 * those are the ones left out for echoing their parent.
 */
function saidByChildren(e: Element, own: readonly Element[], kids: ReadonlyMap<string, Element[]>) {
  if (e.name === "" || own.length === 0) return false;
  if (own.some((k) => k.role === "AXStaticText" || isHollow(k, kids.get(k.id) ?? []))) {
    return false;
  }
  return squeezed(own.map((k) => k.name).join(" ")) === squeezed(e.name);
}

/**
 * The whole map as indented lines, at most `budget` of them. Hollow containers and echoed
 * text runs (see {@link isHollow}, {@link isEcho}) are left out, so the lines are the
 * elements that name, hold or do something, in their hierarchy; a name the children's lines
 * say is said there only.
 */
export function outline(
  elements: readonly Element[],
  budget: number,
  style: LineStyle = styleFor(elements),
): Outline {
  const fam = family(elements);
  const kids = fam.children;
  const byId = new Map(elements.map((e) => [e.id, e]));
  const left = new Set<string>();
  const lines: string[] = [];
  let omitted = 0;
  // Depth as shown: an element's depth less the hollow containers above it.
  const hidden = new Map<string, number>();
  // The nearest ancestor whose line is shown: a text run echoes only what is said.
  const shownAbove = (e: Element): Element | undefined => {
    let up = e.parent === undefined ? undefined : byId.get(e.parent);
    for (let hops = 0; up !== undefined && left.has(up.id) && hops < 64; hops++) {
      up = up.parent === undefined || up.parent === up.id ? undefined : byId.get(up.parent);
    }
    return up !== undefined && !left.has(up.id) ? up : undefined;
  };
  for (const [e, depth] of orderOf(elements, fam)) {
    const above = e.parent === undefined ? 0 : hidden.get(e.parent) ?? 0;
    const said = shownAbove(e);
    const siblings = e.parent === undefined ? [] : kids.get(e.parent) ?? [];
    const own = kids.get(e.id) ?? [];
    const hollow = isHollow(e, own) || (said !== undefined && isEcho(e, said, kids)) ||
      isBlank(e, kids) || (!kids.has(e.id) && isLabelOf(e, siblings));
    hidden.set(e.id, above + (hollow ? 1 : 0));
    if (hollow) left.add(e.id);
    else if (lines.length < budget) {
      lines.push(elementLine(e, depth - above, style, {
        name: saidByChildren(e, own, kids),
        offscreen: said?.offscreen === true,
      }));
    } else omitted++;
  }
  return { lines, omitted, folded: left.size };
}

/** A diff as `+ line` (added), `~ line` (changed), `- id` (removed), at most `budget` lines. */
export function diffOutline(
  d: DiffParts,
  budget: number,
  style: LineStyle = styleFor([...d.added, ...d.changed, ...d.removed.map((id) => ({ id }))]),
): Outline {
  const all = [
    ...d.added.map((e) => `+ ${elementLine(e, 0, style)}`),
    ...d.changed.map((e) => `~ ${elementLine(e, 0, style)}`),
    ...d.removed.map((id) => `- ${style.id(id)}`),
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
