/**
 * Containers that manage their descendants (a spreadsheet's sheet, a tree view of 10,000
 * rows) are read by what shows, never by `GetChildren`: asking LibreOffice for the
 * children of a sheet makes it build millions of cell objects (it then runs at full CPU,
 * grows by gigabytes and stops answering the bus). A table answers the cells of its
 * visible range, found from the cells at its corners (`GetAccessibleAtPoint`); any other
 * manager answers its first children by index, up to the read's budget.
 *
 * @module
 */
import type { Bounds, TableRange } from "../../protocol/element.ts";
import { absent, type AtspiClient, type CallLimits, NULL_PATH, type Ref } from "./client.ts";
import { visiblePart } from "./uncover.ts";
import type { SkeletonNode } from "./skeleton.ts";
import { STATE } from "./states.ts";

/** Children read by index from a manager that is not a table. */
const MAX_INDEXED = 200;
/** Rows and columns assumed visible when a table cannot say which are. */
const FALLBACK_ROWS = 50;
const FALLBACK_COLUMNS = 20;

/** What a manager shows: its children in order, and for a table, its visible range. */
export interface VisibleChildren {
  /** Children references, in order. */
  children: Ref[];
  /** For a table: its size and the range of cells in `children`. */
  table?: TableRange;
}

/** The visible children of manager `node`, at most `room`. */
export async function visibleChildren(
  client: AtspiClient,
  node: SkeletonNode,
  limits: CallLimits,
  room: number,
): Promise<VisibleChildren> {
  const manages = node.states.has(STATE.MANAGES_DESCENDANTS) || node.childCount < 0;
  if (manages && node.ifaces.has("Table") && node.ifaces.has("Component")) {
    return await tableCells(client, node.ref, limits, room);
  }
  // A long plain list (a web table's 2,000 rows) lays its children out in order: the
  // ones in view are found by bisecting on their extents.
  if (!manages && node.ifaces.has("Component")) {
    return { children: await childrenInView(client, node, limits, room) };
  }
  const n = Math.min(Math.max(node.childCount, 0), MAX_INDEXED, room);
  const kids = await Promise.all(
    Array.from({ length: n }, (_, i) => childAt(client, node.ref, i, limits)),
  );
  return { children: kids.filter((k): k is Ref => k !== undefined) };
}

/** Child `i` of `ref`, or undefined for the null object or another app's. */
export async function childAt(
  client: AtspiClient,
  ref: Ref,
  i: number,
  limits: CallLimits,
): Promise<Ref | undefined> {
  const [kid] = await client.call(ref, "Accessible", "GetChildAtIndex", limits, "i", [i]);
  return refIn(kid, ref.bus);
}

/** The parent of `ref`; undefined for none, or another app's. */
export async function parentOf(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<Ref | undefined> {
  return refIn(await client.prop(ref, "Accessible", "Parent", limits), ref.bus);
}

/** A `(so)` reference on `bus`, or undefined for the null object or another app's. */
function refIn(value: unknown, bus: string): Ref | undefined {
  const [b, path] = value as [string, string];
  if (path === NULL_PATH || (b !== bus && b !== "")) return undefined;
  return { bus, path };
}

/** The cells of a table's visible range, row by row, at most `room`. */
async function tableCells(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
  room: number,
): Promise<VisibleChildren> {
  const [rows, columns, shown] = await Promise.all([
    client.prop(ref, "Table", "NRows", limits).then(Number),
    client.prop(ref, "Table", "NColumns", limits).then(Number),
    shownPart(client, ref, limits),
  ]);
  if (rows <= 0 || columns <= 0 || shown === undefined) {
    return { children: [], table: emptyRange(rows, columns) };
  }
  const { h } = shown;
  const [first, last] = await cornerCells(client, ref, shown, limits);
  // Without a first cell, the last one tells where the view is (a list scrolled to its end).
  const top = first?.row ?? Math.max(0, (last?.row ?? 0) - FALLBACK_ROWS + 1);
  const left = first?.column ?? 0;
  const bottom = Math.min(rows - 1, last?.row ?? top + FALLBACK_ROWS - 1);
  const right = Math.min(columns - 1, last?.column ?? left + FALLBACK_COLUMNS - 1);
  // A view whose columns are moved or hidden (Qt's header sections: KeePassXC shows its
  // icon column, logical 10, first) is not the logical range between its corners.
  const scanned = columns <= MAX_SCANNED_COLUMNS
    ? await shownColumns(client, ref, top, columns, shown, limits)
    : [];
  const wanted = scanned.length > 0
    ? scanned
    : Array.from({ length: right - left + 1 }, (_, i) => left + i);
  const width = wanted.length;
  // The budget cuts whole rows from the bottom: a row is read entirely or not at all. No
  // more rows than the view can show are asked, whatever the probes said: a wrong range
  // must not make the app build thousands of cells.
  const fits = Math.ceil(h / MIN_ROW_HEIGHT) + 1;
  const keptRows = Math.max(1, Math.min(bottom - top + 1, fits, Math.floor(room / width)));
  const cells: Promise<Ref | undefined>[] = [];
  for (let r = top; r < top + keptRows; r++) {
    for (const c of wanted) {
      if (cells.length < room) cells.push(cellRefAt(client, ref, r, c, limits));
    }
  }
  const seen = new Set<string>();
  const children: Ref[] = [];
  // A cell spanning several rows or columns answers each of its positions: kept once.
  for (const cell of await Promise.all(cells)) {
    if (!cell || seen.has(cell.path)) continue;
    seen.add(cell.path);
    children.push(cell);
  }
  return {
    children,
    table: {
      rows,
      columns,
      first_row: top,
      first_column: Math.min(...wanted),
      last_row: top + keptRows - 1,
      last_column: Math.max(...wanted),
    },
  };
}

/**
 * Most columns whose cells are each asked where they are. A spreadsheet's thousands are
 * never: LibreOffice builds each cell it is asked about.
 */
const MAX_SCANNED_COLUMNS = 64;

/**
 * The columns of `table` whose cell in row `row` is inside `shown`, its shown part, in the
 * order they show from left to right; empty when the table places none.
 */
async function shownColumns(
  client: AtspiClient,
  table: Ref,
  row: number,
  columns: number,
  shown: Bounds,
  limits: CallLimits,
): Promise<number[]> {
  const at = await Promise.all(
    Array.from({ length: columns }, async (_, column) => {
      const cell = await cellRefAt(client, table, row, column, limits).catch(absent);
      const box = cell && await client.extents(cell, limits).catch(absent);
      if (!box) return undefined;
      const [x, y, w, h] = box;
      const part = visiblePart({ x, y, w, h }, shown);
      return part.w > 0 && part.h > 0 ? { column, x } : undefined;
    }),
  );
  return at.filter((c) => c !== undefined).sort((a, b) => a.x - b.x).map((c) => c.column);
}

/** The smallest row height assumed when bounding how many rows a view can show. */
const MIN_ROW_HEIGHT = 8;

/** How far below the top the first cell is looked for: column headers sit above it. */
const TOP_PROBES = [1, 16, 32, 64];

/** The cell at (`row`, `column`) of `table`; undefined for none or another app's. */
export async function cellRefAt(
  client: AtspiClient,
  table: Ref,
  row: number,
  column: number,
  limits: CallLimits,
): Promise<Ref | undefined> {
  const [cell] = await client.call(table, "Table", "GetAccessibleAt", limits, "ii", [row, column]);
  return refIn(cell, table.bus);
}

/**
 * Where the view of `table` starts and ends: the first cell down its left edge (past
 * column headers) and the cell at the bottom-right corner of `shown`, its shown part.
 */
export async function cornerCells(
  client: AtspiClient,
  table: Ref,
  shown: Bounds,
  limits: CallLimits,
): Promise<[CellPosition | undefined, CellPosition | undefined]> {
  const { x, y, w, h } = shown;
  return await Promise.all([
    firstCell(client, table, x, y, h, limits),
    cellAt(client, table, x + w - 2, y + h - 2, limits),
  ]);
}

/** A cell's row and column in its table, 0-based. */
export interface CellPosition {
  row: number;
  column: number;
}

/** Where `cell` sits in `table`; undefined when the table does not place it. */
export async function positionOf(
  client: AtspiClient,
  table: Ref,
  cell: Ref,
  limits: CallLimits,
): Promise<CellPosition | undefined> {
  const [index] = await client.call(cell, "Accessible", "GetIndexInParent", limits);
  const [[row], [column]] = await Promise.all([
    client.call(table, "Table", "GetRowAtIndex", limits, "i", [Number(index)]),
    client.call(table, "Table", "GetColumnAtIndex", limits, "i", [Number(index)]),
  ]);
  if (Number(row) < 0 || Number(column) < 0) return undefined;
  return { row: Number(row), column: Number(column) };
}

/** The first cell down the table's left edge, past its column headers. */
async function firstCell(
  client: AtspiClient,
  ref: Ref,
  x: number,
  y: number,
  h: number,
  limits: CallLimits,
): Promise<{ row: number; column: number } | undefined> {
  for (const dy of TOP_PROBES) {
    if (dy >= h) break;
    const cell = await cellAt(client, ref, x + 1, y + dy, limits);
    if (cell !== undefined) return cell;
  }
  return undefined;
}

/** Children asked for their extents at once while collecting those in view. */
const VIEW_BATCH = 16;

/**
 * The children of `node` (laid out top to bottom) that are in the part of it that shows:
 * the first whose bottom is below the top of that part, found by bisection, and those
 * after it until one starts below it, at most `room`.
 */
async function childrenInView(
  client: AtspiClient,
  node: SkeletonNode,
  limits: CallLimits,
  room: number,
): Promise<Ref[]> {
  const shown = await shownPart(client, node.ref, limits);
  if (shown === undefined) return [];
  const at = async (i: number) => {
    const kid = await childAt(client, node.ref, i, limits);
    if (kid === undefined) return undefined;
    const [, y, , h] = await client.extents(kid, limits).catch(absent) ?? [0, -1, 0, -1];
    return { kid, top: y, bottom: y + h };
  };
  let lo = 0;
  let hi = node.childCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = await at(mid);
    // A child without extents is taken as above the view: the search goes on below it.
    if (c !== undefined && c.bottom > shown.y) hi = mid;
    else lo = mid + 1;
  }
  const out: Ref[] = [];
  for (let i = lo; i < node.childCount && out.length < room; i += VIEW_BATCH) {
    const n = Math.min(VIEW_BATCH, node.childCount - i, room - out.length);
    const batch = await Promise.all(Array.from({ length: n }, (_, k) => at(i + k)));
    for (const c of batch) {
      if (c === undefined) continue;
      if (c.top >= shown.y + shown.h) return out;
      out.push(c.kid);
    }
  }
  return out;
}

/** Ancestors whose extents clip a table's: a web page's viewport is a few levels up. */
const CLIP_LEVELS = 8;

/**
 * The part of `ref`'s extents its ancestors show (a web table 40,000 points tall shows
 * only what the page's viewport does); undefined when nothing of it shows.
 */
export async function shownPart(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<Bounds | undefined> {
  const [x, y, w, h] = await client.extents(ref, limits);
  let shown: Bounds = { x, y, w, h };
  let at: Ref | undefined = ref;
  for (let level = 0; level < CLIP_LEVELS && at !== undefined; level++) {
    at = await parentOf(client, at, limits);
    if (at === undefined) break;
    // The application object has no Component: the top is reached.
    const box = await client.extents(at, limits).catch(absent);
    if (box === undefined) break;
    const [px, py, pw, ph] = box;
    if (pw <= 0 || ph <= 0) continue; // a container without extents clips nothing
    shown = visiblePart(shown, { x: px, y: py, w: pw, h: ph });
    if (shown.w <= 0 || shown.h <= 0) return undefined;
  }
  return shown;
}

function emptyRange(rows: number, columns: number): TableRange {
  return {
    rows: Math.max(0, rows),
    columns: Math.max(0, columns),
    first_row: 0,
    first_column: 0,
    last_row: -1,
    last_column: -1,
  };
}

/** The row and column of the cell at screen point (x, y), when the table says. */
async function cellAt(
  client: AtspiClient,
  table: Ref,
  x: number,
  y: number,
  limits: CallLimits,
): Promise<CellPosition | undefined> {
  try {
    const [hit] = await client.call(table, "Component", "GetAccessibleAtPoint", limits, "iiu", [
      Math.round(x),
      Math.round(y),
      0,
    ]);
    const cell = refIn(hit, table.bus);
    return cell ? await positionOf(client, table, cell, limits) : undefined;
  } catch (err) {
    // A table without hit testing still has a range: the fallback one.
    return absent(err);
  }
}
