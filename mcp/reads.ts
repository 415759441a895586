/**
 * What the MCP tools remember of each window between calls, and the reads and diffs cut
 * by it: the page of a browser window (page_scope.ts), the lines last shown (said_lines.ts)
 * and the rest of a read cut into pages (paging.ts). `read_ui` reads through {@link Reads};
 * `act` and `run_batch` cut their diffs with {@link Reads.diff}.
 *
 * @module
 */
import type { Element } from "../protocol/element.ts";
import type { ParamsOf, ResultOf } from "../protocol/ops.ts";
import type { DiffParts } from "./outline.ts";
import { inScreenOrder, pageOf, PageScope } from "./page_scope.ts";
import { DEFAULT_MAX_BYTES, type ReadMeta, ReadPages } from "./paging.ts";
import { DEFAULT_BUDGET, renderRead } from "./render.ts";
import { SaidLines } from "./said_lines.ts";

/** Most elements a `scope: "all"` read asks for: a 500-row grid of five columns and more. */
export const ALL_MAX = 5_000;

/** `read_ui`'s MCP arguments: the op's, and how the outline is cut and shown. */
export type ReadArgs = ParamsOf<"read_ui"> & {
  scope?: "page" | "window" | "all";
  bounds?: boolean;
  max_bytes?: number;
  cursor?: string;
};

/** Runs one op (the catalogue's `CallOp`, narrowed to what reads use). */
export type ReadCall = {
  (op: "read_ui", params: unknown): Promise<ResultOf<"read_ui">>;
  (op: "find", params: unknown): Promise<ResultOf<"find">>;
};

/** A diff as a tool shows it: cut to the page, without what only moved. */
export interface ShownDiff {
  shown: { added: Element[]; changed: Element[]; removed: string[] };
  /** Elements of the browser's frame left out. */
  chrome: number;
  /** Changed elements left out because only their bounds changed. */
  moved: number;
}

/** The per-window memory of the MCP tools. */
export class Reads {
  readonly #pages = new PageScope();
  readonly #said = new SaidLines();
  readonly #cut = new ReadPages();

  /** `read_ui`: a page of the outline, and the window and version it is of. */
  async read(args: ReadArgs, call: ReadCall): Promise<{ text: string; meta: ReadMeta }> {
    const { scope, bounds, max_bytes, cursor, max_elements, ...p } = args;
    const limits = {
      lines: max_elements ?? DEFAULT_BUDGET,
      bytes: max_bytes ?? DEFAULT_MAX_BYTES,
    };
    if (cursor !== undefined) return this.#cut.next(cursor, limits);
    // The driver answers the whole map: pages are cut here, so none is lost between them.
    const r = await call("read_ui", p);
    let chrome = 0;
    let moved = 0;
    let shown = r;
    if (p.since !== undefined && !r.reset) {
      const d = { added: r.added ?? [], changed: r.changed ?? [], removed: r.removed ?? [] };
      // Bounds asked for are worth showing when they change.
      const cut = this.diff(r.window, d, scope !== "window", bounds !== true);
      [shown, chrome, moved] = [{ ...r, ...cut.shown }, cut.chrome, cut.moved];
    } else {
      this.#said.read(r.window, r.elements ?? []);
      if (scope === "all") {
        const all = await this.#whole(r, call);
        [shown, chrome] = [all.shown, all.chrome];
      } else if (scope === "window") {
        this.#pages.forget(r.window);
      } else {
        const cut = this.#pages.read(r.window, r.elements ?? []);
        [shown, chrome] = [{ ...r, elements: cut.shown }, cut.chrome];
      }
    }
    const meta = { window: r.window, version: r.version };
    const text = renderRead(shown, Infinity, p.since, { chrome, moved, bounds: bounds === true });
    return { text: this.#cut.first(r.window, text, limits, meta), meta };
  }

  /**
   * A diff of `window` as shown: cut to its page (unless `page` is false) and without the
   * elements that only moved (unless `moves` is false).
   */
  diff(window: string, d: DiffParts, page = true, moves = true): ShownDiff {
    const cut = page ? this.#pages.diff(window, d) : {
      shown: { added: [...d.added], changed: [...d.changed], removed: [...d.removed] },
      chrome: 0,
    };
    if (!moves) return { ...cut, moved: 0 };
    const still = this.#said.diff(window, cut.shown);
    return { shown: still.diff, chrome: cut.chrome, moved: still.moved };
  }

  /** The app's whole tree for the window, scrolled-out rows too, cut to the page. */
  async #whole(r: ResultOf<"read_ui">, call: ReadCall) {
    const all = await call("find", {
      window: r.window,
      query: {},
      scope: "all",
      max_results: ALL_MAX,
    });
    const mapIds = new Set((r.elements ?? []).map((e) => e.id));
    const found = inScreenOrder(all.elements, mapIds);
    const page = pageOf(found, true) ?? found;
    return {
      shown: { ...r, elements: page, ...(all.truncated ? { truncated: true as const } : {}) },
      chrome: all.elements.length - page.length,
    };
  }
}
