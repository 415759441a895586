/**
 * A spreadsheet's cells beyond its visible range (`find` with `scope: "all"`). A sheet
 * counts a billion cells and builds an object for each one it is asked about, so it is
 * never searched through its children: its filled part is asked cell by cell by address
 * (`Table.GetAccessibleAt`), column by column from the first, each column down from its
 * first row until {@link BLANK_RUN} cells in a row are empty, and no further right than
 * {@link BLANK_COLUMNS} empty columns in a row. What lies past such a gap is not searched,
 * so a sheet's search is never complete.
 *
 * LibreOffice makes a new object for a cell each time it is asked, and the bridge keeps
 * one alive only 15 s after handing it out, so a cell found here is named by its address
 * ({@link cellHandle}): acting on it asks the sheet for the cell again ({@link liveRef}).
 *
 * @module
 */
import { absent, type AtspiClient, type CallLimits, NULL_PATH, type Ref, refOf } from "./client.ts";
import type { Known } from "./known.ts";
import type { SkeletonNode } from "./skeleton.ts";
import { cellRefAt } from "./managed.ts";
import { readFacts } from "./walk.ts";

/** Empty cells in a row that end a column's filled part. */
export const BLANK_RUN = 32;
/** Empty columns in a row that end the sheet's filled part. */
export const BLANK_COLUMNS = 3;
/**
 * Cells one search asks a sheet about at most: LibreOffice builds each (about 10 kB of
 * its memory while the bridge keeps it), and a read must not cost an app more than a
 * screen reader would.
 */
export const MAX_SHEET_CELLS = 2_500;
/** Cells asked about at once. */
const BATCH = 16;

/** Is `node` a spreadsheet: a table too large to ask for its children? */
export function isSheet(node: SkeletonNode, maxManaged: number): boolean {
  return node.ifaces.has("Table") && (node.childCount < 0 || node.childCount > maxManaged);
}

/** A handle for the cell at (`row`, `column`) of table `table`, valid as long as the table. */
export function cellHandle(table: Ref, row: number, column: number): string {
  return `${table.bus}|${table.path}@${row},${column}`;
}

/**
 * The object behind `handle` now: for a cell named by its address, the one the table
 * answers for that address (the null reference when it answers none).
 */
export async function liveRef(
  client: AtspiClient,
  handle: string,
  limits: CallLimits,
): Promise<Ref> {
  const ref = refOf(handle);
  const at = /^(.*)@(\d+),(\d+)$/.exec(ref.path);
  if (at === null) return ref;
  const table = { bus: ref.bus, path: at[1]! };
  const cell = await cellRefAt(client, table, Number(at[2]), Number(at[3]), limits);
  return cell ?? { bus: ref.bus, path: NULL_PATH };
}

/** One cell the scan read: its facts and its address-based handle. */
export interface SheetCell {
  node: SkeletonNode;
  handle: string;
}

/**
 * Scans the filled part of `sheet`, handing each cell to `visit`, until `room` cells were
 * asked about (at most {@link MAX_SHEET_CELLS}) or `stopped()`. Answers how many were
 * asked.
 */
export async function scanSheet(
  client: AtspiClient,
  sheet: SkeletonNode,
  limits: CallLimits,
  known: Known,
  room: number,
  stopped: () => boolean,
  visit: (cell: SheetCell) => Promise<void>,
): Promise<number> {
  const [rows, columns] = await Promise.all([
    client.prop(sheet.ref, "Table", "NRows", limits).then(Number),
    client.prop(sheet.ref, "Table", "NColumns", limits).then(Number),
  ]);
  const most = Math.min(room, MAX_SHEET_CELLS);
  let asked = 0;
  let emptyColumns = 0;
  for (let c = 0; c < columns && emptyColumns < BLANK_COLUMNS; c++) {
    let blank = 0;
    let filled = false;
    for (let r = 0; r < rows && blank < BLANK_RUN; r += BATCH) {
      if (asked >= most || stopped()) return asked;
      const n = Math.min(BATCH, rows - r, most - asked);
      asked += n;
      const cells = await Promise.all(
        Array.from({ length: n }, (_, k) => readCell(client, sheet.ref, r + k, c, limits, known)),
      );
      for (const cell of cells) {
        if (cell === undefined || blank >= BLANK_RUN) continue;
        await visit(cell);
        if (cell.length > 0) {
          blank = 0;
          filled = true;
        } else blank++;
      }
    }
    emptyColumns = filled ? 0 : emptyColumns + 1;
  }
  return asked;
}

/** The cell at (`row`, `column`) with its text's length; undefined when there is none. */
async function readCell(
  client: AtspiClient,
  table: Ref,
  row: number,
  column: number,
  limits: CallLimits,
  known: Known,
): Promise<(SheetCell & { length: number }) | undefined> {
  try {
    const ref = await cellRefAt(client, table, row, column, limits);
    if (ref === undefined) return undefined;
    const node = await readFacts(client, ref, limits, known);
    const length = node.ifaces.has("Text")
      ? Number(await client.prop(ref, "Text", "CharacterCount", limits))
      : node.name.length;
    return { node, handle: cellHandle(table, row, column), length };
  } catch (err) {
    return absent(err);
  }
}
