/**
 * What each window's elements looked like in the lines a client was last shown, so a diff
 * leaves out elements that changed only where lines do not show: their bounds. A 1-pixel
 * shift of a table made every row "changed", a diff as long as the table whose lines
 * read exactly as before; those are counted (`moved=N`) instead of listed.
 *
 * @module
 */
import type { Element } from "../protocol/element.ts";
import { setBounded } from "../util/bounded.ts";
import { type DiffParts, elementLine, type LineStyle } from "./outline.ts";

/** Windows remembered at most; the least recently read goes. */
const MAX_WINDOWS = 32;

/** Lines with full ids and no bounds: what a line says of an element, bounds aside. */
const PLAIN: LineStyle = { bounds: false, id: (id) => id };

const said = (e: Element) => elementLine(e, 0, PLAIN);

/** A diff without the elements that only moved, and how many those were. */
export interface MovedCut {
  diff: { added: Element[]; changed: Element[]; removed: string[] };
  moved: number;
}

/** Per window, each element's line as last shown (bounds aside). */
export class SaidLines {
  readonly #windows = new Map<string, Map<string, string>>();

  /** Remembers a whole read of `window`. */
  read(window: string, elements: readonly Element[]): void {
    setBounded(this.#windows, window, new Map(elements.map((e) => [e.id, said(e)])), MAX_WINDOWS);
  }

  /**
   * `d` without the changed elements whose line reads as last shown, and remembers the
   * rest. A window never read whole is left as it is.
   */
  diff(window: string, d: DiffParts): MovedCut {
    const lines = this.#windows.get(window);
    const diff = { added: [...d.added], changed: [...d.changed], removed: [...d.removed] };
    if (!lines) return { diff, moved: 0 };
    for (const e of d.added) lines.set(e.id, said(e));
    for (const id of d.removed) lines.delete(id);
    diff.changed = d.changed.filter((e) => {
      const now = said(e);
      const same = lines.get(e.id) === now;
      lines.set(e.id, now);
      return !same;
    });
    return { diff, moved: d.changed.length - diff.changed.length };
  }
}
