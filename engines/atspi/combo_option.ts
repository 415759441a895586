/**
 * Selecting an option of a combo box that shows its current option as its own name (Qt's
 * do). Qt's popup list takes a row selection through its `Table`, and a row's own
 * action, as a highlight it never commits: the driver answered ok for "South" while the
 * combo still said "North". So such a select is done only when the combo, read back, shows
 * the option. When the list's own ways leave the combo as it was, the combo is opened and
 * the option clicked, as a user does; failing that, the answer says what the combo shows.
 * A combo named otherwise (a web page's drop-down keeps its label) is left to the option's
 * own selected state.
 *
 * @module
 */
import type { ActOutcome, RawNode } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { childAt, parentOf } from "./managed.ts";
import type { Input } from "./named_action.ts";
import { OPEN_MS, popupShows, startOpen } from "./combo_open.ts";
import { ATSPI_ROLES } from "./roles.ts";
import { STATE } from "./states.ts";
import { pollUntil } from "../../util/poll.ts";

const COMBO_BOX = ATSPI_ROLES.indexOf("combo_box");
/** Most options looked through to learn whether the combo names itself after one. */
const MAX_OPTIONS = 200;
/** How long the combo's name is waited for after each way. */
const SHOWS_MS = 1_000;

/** A combo box named after its current option, and the list the option is in. */
export interface Combo {
  ref: Ref;
  list: Ref;
  /** The option it shows now. */
  shows: string;
}

const nameOf = async (client: AtspiClient, ref: Ref, limits: CallLimits): Promise<string> =>
  String(await client.prop(ref, "Accessible", "Name", limits) ?? "");

/**
 * The combo box that option `ref` belongs to (its list's parent), when the combo's name is
 * one of its options' names; undefined for any other option.
 */
export async function comboOf(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<Combo | undefined> {
  const list = await parentOf(client, ref, limits);
  const combo = list && await parentOf(client, list, limits);
  if (!list || !combo) return undefined;
  const [role] = await client.call(combo, "Accessible", "GetRole", limits);
  if (role !== COMBO_BOX) return undefined;
  const [shows, count] = await Promise.all([
    nameOf(client, combo, limits),
    client.prop(list, "Accessible", "ChildCount", limits).then(Number),
  ]);
  if (shows === "" || !(count <= MAX_OPTIONS)) return undefined;
  const names = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const option = await childAt(client, list, i, limits);
      return option ? await nameOf(client, option, limits) : "";
    }),
  );
  return names.includes(shows) ? { ref: combo, list, shows } : undefined;
}

/** Reads the combo's name until it is `want` or `ms` pass; the last name read. */
const showsBack = (client: AtspiClient, combo: Ref, want: string, limits: CallLimits, ms: number) =>
  pollUntil(() => nameOf(client, combo, limits), (shows) => shows === want, ms);

/**
 * Opens the combo, waits for option `ref` on screen, and clicks it inside its list: Qt
 * gives a popup's row the width of the list's contents (182 px in a 67 px popup), so its
 * centre was outside the popup, and the click closed it. False if it never showed.
 */
async function openAndClick(
  client: AtspiClient,
  input: Input,
  combo: Combo,
  ref: Ref,
  limits: CallLimits,
): Promise<boolean> {
  // Qt's open toggles the popup: an open one (show_menu before) would be closed.
  const open = await popupShows(client, combo.ref, limits) ||
    await startOpen(client, combo.ref, limits);
  if (!open) return false;
  // The option's part inside the list, once it shows: no area until then.
  const target = async (): Promise<Rect> => {
    const [states, row, list] = await Promise.all([
      client.states(ref, limits),
      client.extents(ref, limits),
      client.extents(combo.list, limits),
    ]);
    return states.has(STATE.SHOWING) ? intersect(row, list) : [0, 0, 0, 0];
  };
  const hasArea = ([, , w, h]: Rect) => w > 0 && h > 0;
  const [x, y, w, h] = await pollUntil(target, hasArea, OPEN_MS);
  if (!hasArea([x, y, w, h])) return false;
  await input({
    kind: "click",
    x: Math.round(x + w / 2),
    y: Math.round(y + h / 2),
    button: "left",
    count: 1,
  });
  return true;
}

type Rect = [number, number, number, number];

/** The part of `a` inside `b` (no area when they do not meet). */
function intersect([ax, ay, aw, ah]: Rect, [bx, by, bw, bh]: Rect): Rect {
  const x = Math.max(ax, bx);
  const y = Math.max(ay, by);
  return [x, y, Math.min(ax + aw, bx + bw) - x, Math.min(ay + ah, by + bh) - y];
}

/**
 * Selects option `ref` (`node`) of `combo`: through the list (`selectInList`, which answers
 * whether the list took it), then by opening the combo and clicking the option. Done when
 * the combo shows the option's name; otherwise `found` is what it shows.
 */
export async function selectOption(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  combo: Combo,
  selectInList: () => Promise<boolean>,
  limits: CallLimits,
): Promise<ActOutcome> {
  if (combo.shows === node.name) return { via: "action", already: true };
  if (await selectInList()) {
    const shows = await showsBack(client, combo.ref, node.name, limits, SHOWS_MS / 4);
    if (shows === node.name) return { via: "action" };
  }
  if (await openAndClick(client, input, combo, ref, limits)) {
    const shows = await showsBack(client, combo.ref, node.name, limits, SHOWS_MS);
    return shows === node.name ? { via: "pixel" } : { via: "pixel", found: shows };
  }
  return { via: "action", found: await nameOf(client, combo.ref, limits) };
}
