/**
 * A cell of a table that manages its descendants (a spreadsheet), brought into view by
 * the mouse wheel, as a person would. Such a table clips an unseen cell's extents to
 * nothing (LibreOffice answers a point of width 0), and focusing the cell moves Calc's
 * cursor without scrolling, so the way to turn is told by the cell's row and column
 * against those that show (the cells at the view's corners), and how far by the rows one
 * notch moved on the turn before.
 *
 * @module
 */
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { type CellPosition, cornerCells, parentOf, positionOf, shownPart } from "./managed.ts";
import type { Input } from "./named_action.ts";

/** Wheel turns tried at most. */
const MAX_TURNS = 40;
/** Turns in a row that may leave the view where it was before giving up. */
const STUCK_TURNS = 3;
/** Notches sent in one turn at most. */
const MAX_NOTCHES = 25;
/** Rows (or columns) one notch is assumed to move until a turn shows it. */
const FIRST_GUESS = 3;

/** What shows of a table: its first and last fully shown row and column. */
interface View {
  top: number;
  left: number;
  bottom: number;
  right: number;
  /** The table's shown part on screen, where the wheel turns. */
  at: { x: number; y: number };
}

async function viewOf(
  client: AtspiClient,
  table: Ref,
  limits: CallLimits,
): Promise<View | undefined> {
  const shown = await shownPart(client, table, limits);
  if (shown === undefined) return undefined;
  const [first, last] = await cornerCells(client, table, shown, limits);
  if (first === undefined || last === undefined) return undefined;
  // The cell at the far corner may show only in part: the one before it is whole.
  return {
    top: first.row,
    left: first.column,
    bottom: Math.max(first.row, last.row - 1),
    right: Math.max(first.column, last.column - 1),
    at: { x: Math.round(shown.x + shown.w / 2), y: Math.round(shown.y + shown.h / 2) },
  };
}

/** Notches (signed) that should bring `target` within `[lo, hi]`, `per` a notch. */
function notches(target: number, lo: number, hi: number, per: number): number {
  const d = target < lo ? target - lo : target > hi ? target - hi : 0;
  if (d === 0) return 0;
  const n = Math.min(MAX_NOTCHES, Math.max(1, Math.ceil(Math.abs(d) / per)));
  return Math.sign(d) * n;
}

/**
 * Turns the wheel over the table that holds `cell` until the cell's row and column show.
 * False when `cell`'s parent is no table that places it, or the view stops moving.
 */
export async function wheelToCell(
  client: AtspiClient,
  input: Input,
  cell: Ref,
  limits: CallLimits,
): Promise<boolean> {
  const table = await parentOf(client, cell, limits);
  if (table === undefined) return false;
  const target: CellPosition | undefined = await positionOf(client, table, cell, limits)
    .catch(() => undefined);
  if (target === undefined) return false;
  let view = await viewOf(client, table, limits);
  let perRow = FIRST_GUESS;
  let perColumn = FIRST_GUESS;
  let stuck = 0;
  for (let turn = 0; view && turn < MAX_TURNS && stuck < STUCK_TURNS; turn++) {
    const dy = notches(target.row, view.top, view.bottom, perRow);
    const dx = dy === 0 ? notches(target.column, view.left, view.right, perColumn) : 0;
    if (dx === 0 && dy === 0) return true;
    await input({ kind: "scroll", ...view.at, dx, dy });
    await new Promise((r) => setTimeout(r, 40));
    const now = await viewOf(client, table, limits);
    if (now === undefined) return false;
    const moved = dy !== 0 ? now.top - view.top : now.left - view.left;
    stuck = moved === 0 ? stuck + 1 : 0;
    // What one notch moves, learnt from this turn: the next turn goes the rest at once.
    if (moved !== 0 && Math.sign(moved) === Math.sign(dy || dx)) {
      const per = Math.abs(moved) / Math.abs(dy || dx);
      if (dy !== 0) perRow = per;
      else perColumn = per;
    }
    view = now;
  }
  return false;
}
