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
import type { TableRange } from "../../protocol/element.ts";
import { type AtspiClient, type CallLimits, NULL_PATH, type Ref } from "./client.ts";
import type { SkeletonNode } from "./skeleton.ts";

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
  if (node.ifaces.has("Table") && node.ifaces.has("Component")) {
    return await tableCells(client, node.ref, limits, room);
  }
  const n = Math.min(Math.max(node.childCount, 0), MAX_INDEXED, room);
  const kids = await Promise.all(
    Array.from({ length: n }, (_, i) => childAt(client, node.ref, i, limits)),
  );
  return { children: kids.filter((k): k is Ref => k !== undefined) };
}

async function childAt(
  client: AtspiClient,
  ref: Ref,
  i: number,
  limits: CallLimits,
): Promise<Ref | undefined> {
  const [kid] = await client.call(ref, "Accessible", "GetChildAtIndex", limits, "i", [i]);
  return refIn(kid, ref.bus);
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
  const [rows, columns, [x, y, w, h]] = await Promise.all([
    client.prop(ref, "Table", "NRows", limits).then(Number),
    client.prop(ref, "Table", "NColumns", limits).then(Number),
    client.extents(ref, limits),
  ]);
  if (rows <= 0 || columns <= 0) return { children: [], table: emptyRange(rows, columns) };
  const [first, last] = await Promise.all([
    cellAt(client, ref, x + 1, y + 1, limits),
    cellAt(client, ref, x + w - 2, y + h - 2, limits),
  ]);
  const top = first?.row ?? 0;
  const left = first?.column ?? 0;
  const bottom = Math.min(rows - 1, last?.row ?? top + FALLBACK_ROWS - 1);
  const right = Math.min(columns - 1, last?.column ?? left + FALLBACK_COLUMNS - 1);
  const width = right - left + 1;
  // The budget cuts whole rows from the bottom: a row is read entirely or not at all.
  const keptRows = Math.max(1, Math.min(bottom - top + 1, Math.floor(room / width)));
  const cells: Promise<Ref | undefined>[] = [];
  for (let r = top; r < top + keptRows; r++) {
    for (let c = left; c <= right && cells.length < room; c++) {
      cells.push(
        client.call(ref, "Table", "GetAccessibleAt", limits, "ii", [r, c]).then(([cell]) =>
          refIn(cell, ref.bus)
        ),
      );
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
      first_column: left,
      last_row: top + keptRows - 1,
      last_column: right,
    },
  };
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
): Promise<{ row: number; column: number } | undefined> {
  try {
    const [hit] = await client.call(table, "Component", "GetAccessibleAtPoint", limits, "iiu", [
      Math.round(x),
      Math.round(y),
      0,
    ]);
    const cell = refIn(hit, table.bus);
    if (!cell) return undefined;
    const [index] = await client.call(cell, "Accessible", "GetIndexInParent", limits);
    const [[row], [column]] = await Promise.all([
      client.call(table, "Table", "GetRowAtIndex", limits, "i", [Number(index)]),
      client.call(table, "Table", "GetColumnAtIndex", limits, "i", [Number(index)]),
    ]);
    if (Number(row) < 0 || Number(column) < 0) return undefined;
    return { row: Number(row), column: Number(column) };
  } catch (err) {
    // A table without hit testing still has a range: the fallback one.
    if ((err as { code?: string }).code === "element_not_found") return undefined;
    throw err;
  }
}
