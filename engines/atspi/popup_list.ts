/**
 * `select` on an option of a drop-down list that is a window of its own and belongs to no
 * combo box on the bus (LibreOffice's list boxes: a toggle opens a popup window holding a
 * list). Its list takes a selection as a highlight only, and the popup stays open over its
 * dialog, so the dialog's next button click merely closed it (a Sort dialog's OK did
 * nothing). The option is clicked, as a person picks it: the list commits it and closes.
 *
 * @module
 */
import type { ActOutcome, RawNode } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { parentOf } from "./managed.ts";
import { centre, type Input } from "./named_action.ts";
import { ATSPI_ROLES } from "./roles.ts";
import { STATE, type StateSet } from "./states.ts";
import { pollUntil } from "../../util/poll.ts";

/** AT-SPI's role of a popup window (a drop-down's list, a tooltip): "window". */
const WINDOW = ATSPI_ROLES.indexOf("window");
const APPLICATION = ATSPI_ROLES.indexOf("application");
/** Roles an option of such a list has. */
const OPTION_ROLES = new Set(["AXCell", "AXRow", "AXMenuItem"]);
/** Deepest an option sits below its window. */
const MAX_DEPTH = 8;
/** How long the list is given to close once the option is clicked. */
const CLOSE_MS = 1_000;

/** Is option `node` (`ref`) in a list whose top-level is a popup window? */
export async function inPopupList(
  client: AtspiClient,
  ref: Ref,
  node: RawNode,
  limits: CallLimits,
): Promise<boolean> {
  if (!OPTION_ROLES.has(node.role)) return false;
  let at: Ref | undefined = ref;
  let role = -1;
  for (let depth = 0; at && depth < MAX_DEPTH; depth++) {
    const up: Ref | undefined = await parentOf(client, at, limits);
    if (!up) return false;
    const [upRole] = await client.call(up, "Accessible", "GetRole", limits);
    if (Number(upRole) === APPLICATION) return role === WINDOW;
    [at, role] = [up, Number(upRole)];
  }
  return false;
}

/**
 * Clicks option `node` of a popup list and answers once the list closed (the choice was
 * taken); a list still open with the option in it says so.
 */
export async function pickFromPopup(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  limits: CallLimits,
): Promise<ActOutcome> {
  await input({ kind: "click", ...centre(node), button: "left", count: 1 });
  const closed = (s: StateSet | undefined) =>
    s === undefined || s.has(STATE.DEFUNCT) || !s.has(STATE.SHOWING);
  const now = await pollUntil(
    () => client.states(ref, limits).catch(() => undefined),
    closed,
    CLOSE_MS,
  );
  return closed(now) ? { via: "pixel" } : { via: "pixel", found: "its list is still open" };
}
