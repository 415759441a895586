/**
 * Rows of a page's ARIA tree and grid, where what the browser offers falls short of the
 * page (tests/zoo_web_test.ts checks each by the page's own word).
 *
 * A tree row that names no disclosure action (Chromium's offers only `clickAncestor`) is
 * expanded and collapsed from the keyboard, as the ARIA tree pattern has it and real
 * trees answer: the row takes the focus, then the arrow key. A click is no disclosure on a
 * page: an open row's extents hold its group's rows, so its centre lands on a child, and
 * the page's click handler selects (and toggles) whatever it hits.
 *
 * Gecko maps `aria-selected` only where the role is written out: a `<tr>` in a
 * `role="grid"` table (a row by its tag alone) is never SELECTABLE, and its cells say
 * SELECTED only for their own `aria-selected`. A page that selects such rows shows
 * nothing of it to accessibility, so a click on such a row's cell cannot be read back.
 *
 * @module
 */
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { grabFocus, type Input } from "./named_action.ts";
import { parentOf } from "./managed.ts";
import { atspiRoleName } from "./roles.ts";
import { STATE, type StateSet } from "./states.ts";

/** The arrow key that opens (or, `open` false, closes) a tree row. */
export const arrowKey = (open: boolean): "Right" | "Left" => open ? "Right" : "Left";

/**
 * Opens (or closes) a page's tree row `ref` by the keyboard: the row takes the focus, then
 * the arrow key. False, with nothing sent, when the row takes no focus: the key would reach
 * whichever row has it.
 */
export async function discloseByKeys(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  open: boolean,
  limits: CallLimits,
): Promise<boolean> {
  if (!(await client.states(ref, limits)).has(STATE.FOCUSABLE)) return false;
  if (await grabFocus(client, ref, limits) !== true) return false;
  await input({ kind: "key", keys: arrowKey(open) });
  return true;
}

/** Does a row of role `role` in states `states` keep its selection to itself (Gecko's `<tr>`)? */
export const hidesSelection = (role: string, states: StateSet): boolean =>
  role === "table_row" && !states.has(STATE.SELECTABLE);

/** Is cell `ref` in a row whose selection the browser does not show ({@link hidesSelection})? */
export async function rowSelectionUnseen(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<boolean> {
  const row = await parentOf(client, ref, limits);
  if (!row) return false;
  const [[role], states] = await Promise.all([
    client.call(row, "Accessible", "GetRole", limits),
    client.states(row, limits),
  ]);
  return hidesSelection(atspiRoleName(Number(role)), states);
}
