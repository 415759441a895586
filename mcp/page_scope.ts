/**
 * The page of a browser window, without the browser around it: what MCP's `read_ui` and
 * the diffs of `act` and `run_batch` show by default (`scope: "page"`). A browser's toolbar,
 * tab strip and infobars took 15–19 lines of every read (about 1.25 KB) and filled diffs
 * with its tab strip's memory figures; an agent working a page rarely needs them, and
 * `scope: "window"` gives them back. A window with no web document is shown whole.
 *
 * The page is the subtree of the window's showing web document (`AXWebArea`). Which ids
 * are the page's is remembered per window from its last whole read, so that a diff (which
 * carries no tree) is cut the same way: an element is the page's when it, or its parent,
 * is.
 *
 * @module
 */
import type { Element } from "../protocol/element.ts";
import { setBounded } from "../util/bounded.ts";
import { type DiffParts, treeOrder } from "./outline.ts";

/** A diff cut to a page. */
export interface PageDiff {
  added: Element[];
  changed: Element[];
  removed: string[];
}

/** Windows remembered at most; the least recently read goes. */
const MAX_WINDOWS = 32;

/**
 * The elements of `elements` (a whole map, in tree order) in its page, or undefined. With
 * `beyond`, elements with no parent (found beyond the map by `find`'s whole-tree search,
 * which gives none) count as the page's when they lie in its column at or below its top:
 * scrolled-out rows do, the browser's bars above the page do not.
 */
export function pageOf(elements: readonly Element[], beyond = false): Element[] | undefined {
  const docs = elements.filter((e) => e.role === "AXWebArea");
  // The showing document: a browser keeps its other tabs' documents offscreen.
  const doc = docs.find((d) => !d.offscreen && d.bounds.w > 0) ?? docs[0];
  if (!doc) return undefined;
  const inPage = new Set([doc.id]);
  const out = [doc];
  const b = doc.bounds;
  const below = (e: Element) =>
    e.bounds.w > 0 && e.bounds.x >= b.x && e.bounds.x < b.x + b.w && e.bounds.y >= b.y;
  for (const e of elements) {
    if (inPage.has(e.id)) continue;
    const child = e.parent !== undefined && inPage.has(e.parent);
    if (child || (beyond && e.parent === undefined && below(e))) {
      inPage.add(e.id);
      out.push(e);
    }
  }
  return out;
}

/**
 * `elements` (a map followed by what a whole-tree search found beyond it) with the children
 * of each parent that has some from beyond in screen order, top to bottom, then left to
 * right: the search answers those after the map's, so rows above the view would follow
 * the rows in it. Other parents keep their children's order; parents come before
 * their children.
 */
export function inScreenOrder(
  elements: readonly Element[],
  mapIds: ReadonlySet<string>,
): Element[] {
  const groups = new Map<string | undefined, Element[]>();
  for (const e of elements) {
    const group = groups.get(e.parent);
    if (group) group.push(e);
    else groups.set(e.parent, [e]);
  }
  const out: Element[] = [];
  for (const group of groups.values()) {
    if (group.some((e) => !mapIds.has(e.id))) {
      group.sort((a, b) => a.bounds.y - b.bounds.y || a.bounds.x - b.bounds.x);
    }
    out.push(...group);
  }
  // Parents before children again, as pageOf() and the outline read them.
  return treeOrder(out).map(([e]) => e);
}

/** Per window, the ids of its page as its last whole read had them. */
export class PageScope {
  readonly #pages = new Map<string, Set<string>>();

  /** Cuts a whole read of `window` to its page (and remembers the page's ids). */
  read(window: string, elements: readonly Element[]): { shown: Element[]; chrome: number } {
    const page = pageOf(elements);
    if (!page) {
      this.#pages.delete(window);
      return { shown: [...elements], chrome: 0 };
    }
    this.#remember(window, new Set(page.map((e) => e.id)));
    return { shown: page, chrome: elements.length - page.length };
  }

  /** Cuts a diff of `window` to its page; a window never read whole is left as it is. */
  diff(window: string, d: DiffParts): { shown: PageDiff; chrome: number } {
    const ids = this.#pages.get(window);
    if (!ids) {
      return {
        shown: { added: [...d.added], changed: [...d.changed], removed: [...d.removed] },
        chrome: 0,
      };
    }
    const mine = (e: Element) => ids.has(e.id) || (e.parent !== undefined && ids.has(e.parent));
    // Added elements join the page first: a child of one added with it is the page's too.
    const added = d.added.filter((e) => {
      if (!mine(e)) return false;
      ids.add(e.id);
      return true;
    });
    const changed = d.changed.filter(mine);
    const removed = d.removed.filter((id) => ids.has(id));
    for (const id of removed) ids.delete(id);
    const chrome = d.added.length - added.length + d.changed.length - changed.length +
      d.removed.length - removed.length;
    return { shown: { added, changed, removed }, chrome };
  }

  /** Shows `window` whole from now on (a read with `scope: "window"`). */
  forget(window: string): void {
    this.#pages.delete(window);
  }

  #remember(window: string, ids: Set<string>): void {
    setBounded(this.#pages, window, ids, MAX_WINDOWS);
  }
}
