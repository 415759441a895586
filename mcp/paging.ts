/**
 * Pages of a long `read_ui` answer. An answer over its line budget (`max_elements`) or
 * byte budget (`max_bytes`) is cut at a line, and ends with a cursor; `read_ui` with that
 * cursor answers the next page of the same read, so a 500-row grid is read in parts
 * without reading the window again or losing a line between parts.
 *
 * The rest of a cut read is held per window, for the last read only: a new read of the
 * window replaces it, and a cursor of a replaced read is refused (read again).
 *
 * @module
 */
import { DriverError } from "../protocol/errors.ts";
import { setBounded } from "../util/bounded.ts";
import { FENCE_BYTES, fenced } from "./untrusted.ts";

/** Most bytes of one answer when the caller gives no `max_bytes`. */
export const DEFAULT_MAX_BYTES = 50_000;

/** Windows whose cut reads are held at most; the one cut longest ago goes. */
const MAX_HELD = 16;

const enc = new TextEncoder();

/** What a page's structured content says of its read. */
export interface ReadMeta {
  window: string;
  version: number;
}

/** The rest of a cut read. */
interface Held {
  meta: ReadMeta;
  cursor: string;
  header: string;
  lines: string[];
  /** Lines of the read answered before `lines[0]`. */
  done: number;
  total: number;
}

/** Limits of one page. */
export interface PageLimits {
  /** Most element lines. */
  lines: number;
  /** Most bytes of the whole answer, header and cursor line included. */
  bytes: number;
}

/** Cut reads, per window. */
export class ReadPages {
  readonly #held = new Map<string, Held>();
  #serial = 0;

  /**
   * The first page of `text` (a header line, then element lines) for `window`; holds the
   * rest when it does not fit.
   */
  first(window: string, text: string, limits: PageLimits, meta: ReadMeta): string {
    this.#held.delete(window);
    const [header = "", ...lines] = text.split("\n");
    const read = { meta, cursor: "", header, lines, done: 0, total: lines.length };
    return this.#page(window, read, limits);
  }

  /**
   * The page after the one that gave `cursor`.
   *
   * @throws {DriverError} `invalid_params` when no read holds `cursor` (answered in full,
   *   replaced by a newer read of its window, or never given).
   */
  next(cursor: string, limits: PageLimits): { text: string; meta: ReadMeta } {
    const window = cursor.split("~")[0] ?? "";
    const held = this.#held.get(window);
    if (held === undefined || held.cursor !== cursor) {
      throw new DriverError(
        "invalid_params",
        `Cursor "${cursor}" is not held: its read was answered in full or replaced by a newer ` +
          "read of the window. Read the window again.",
        { issues: [{ path: ["cursor"], message: "Not a held cursor" }] },
      );
    }
    this.#held.delete(window);
    return { text: this.#page(window, held, limits), meta: held.meta };
  }

  #page(window: string, read: Held, limits: PageLimits): string {
    // Room for the range, the fence and the cursor line: the page stays within budget.
    const room = limits.bytes - byteLength(read.header) - FENCE_BYTES - 120;
    let used = 0;
    let n = 0;
    while (n < read.lines.length && n < limits.lines) {
      const size = byteLength(read.lines[n]!) + 1;
      // At least one line a page: a line over the budget still has to be read somehow.
      if (n > 0 && used + size > room) break;
      used += size;
      n++;
    }
    const whole = read.done === 0 && n === read.lines.length;
    const header = whole
      ? read.header
      : `${read.header} lines=${read.done + 1}-${read.done + n} of ${read.total}`;
    if (n === read.lines.length) return [header, ...fenced(read.lines)].join("\n");
    const cursor = `${window}~${++this.#serial}`;
    const rest = read.lines.slice(n);
    setBounded(this.#held, window, { ...read, cursor, lines: rest, done: read.done + n }, MAX_HELD);
    return [
      header,
      ...fenced(read.lines.slice(0, n)),
      `… ${rest.length} more lines: read_ui cursor=${cursor}`,
    ].join("\n");
  }
}

function byteLength(text: string): number {
  return enc.encode(text).length;
}
