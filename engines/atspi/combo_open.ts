/**
 * Opening a combo box's popup: `show_menu` on a combo, and the first step of clicking one
 * of its options (combo_option.ts). GTK 3 and Qt give a combo no HAS_POPUP state, yet its
 * list is what `show_menu` means there, and a right click (the context menu, which other
 * elements get when they name no menu action) opens nothing on it. Qt answers the open
 * only once its popup closes (the popup runs its own event loop), so the popup is looked
 * for while that answer is still on its way.
 *
 * @module
 */
import type { ActOutcome } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { childAt } from "./managed.ts";
import { doActionNamed } from "./named_action.ts";
import { ATSPI_ROLES } from "./roles.ts";
import { STATE } from "./states.ts";
import { pollUntil } from "../../util/poll.ts";

/** What opens a combo box, by the names toolkits give the action (Qt: "ShowMenu"). */
const OPEN = ["showmenu", "show menu", "open", "press", "click", "activate"];
/** How long the open's answer is waited for before looking for the popup anyway. */
const OPEN_ANSWER_MS = 100;
/** How long an opened popup is waited for. */
export const OPEN_MS = 1_000;
/** Most children of a combo looked at for its popup (an editable one has its entry too). */
const MAX_KIDS = 4;
/** The roles of a combo's popup: GTK 3's menu, Qt's list. */
const POPUP_ROLES = new Set(
  ["menu", "list", "list_box", "tree", "tree_table", "table", "window"].map((r) =>
    ATSPI_ROLES.indexOf(r as (typeof ATSPI_ROLES)[number])
  ),
);

/**
 * Asks combo `ref` to open; false when it names no way to, or refused. Does not wait for
 * an answer longer than {@link OPEN_ANSWER_MS}: Qt's comes when the popup closes.
 */
export async function startOpen(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<boolean> {
  const opening = doActionNamed(client, ref, OPEN, limits);
  opening.catch(() => {}); // Its failure shows as a popup that never shows.
  const pending = new Promise<"pending">((r) => setTimeout(() => r("pending"), OPEN_ANSWER_MS));
  return await Promise.race([opening, pending]) !== false;
}

/**
 * Whether combo `ref`'s popup shows: the combo EXPANDED when it is EXPANDABLE (browsers),
 * else a popup child SHOWING with an area on screen (GTK 3, Qt).
 */
export async function popupShows(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<boolean> {
  const [states, count] = await Promise.all([
    client.states(ref, limits),
    client.prop(ref, "Accessible", "ChildCount", limits).then(Number),
  ]);
  // A combo that says whether it is expanded is believed: Gecko's keeps its closed list
  // SHOWING, with an area.
  if (states.has(STATE.EXPANDABLE) || states.has(STATE.EXPANDED)) {
    return states.has(STATE.EXPANDED);
  }
  const kids = await Promise.all(
    Array.from(
      { length: Math.min(Math.max(count, 0), MAX_KIDS) },
      (_, i) => childAt(client, ref, i, limits),
    ),
  );
  for (const kid of kids) {
    if (!kid) continue;
    const [[role], kidStates, [, , w, h]] = await Promise.all([
      client.call(kid, "Accessible", "GetRole", limits),
      client.states(kid, limits),
      client.extents(kid, limits),
    ]);
    // Qt's closed popup list says SHOWING, at (0, 0) with no area.
    if (POPUP_ROLES.has(Number(role)) && kidStates.has(STATE.SHOWING) && w > 0 && h > 0) {
      return true;
    }
  }
  return false;
}

/**
 * `show_menu` on combo `ref`: `already` when its popup shows; else it is opened through
 * its own action, or, naming none, by `click` (a left click at its point); done when the
 * popup shows within {@link OPEN_MS}, else `found: "menu not shown"`. With `readable`
 * false (Gecko, whose page combos never say they are open), the popup is looked for in
 * the browser's own frame ({@link geckoPopup}): a second open would close it.
 */
export async function showComboMenu(
  client: AtspiClient,
  ref: Ref,
  click: () => Promise<void>,
  limits: CallLimits,
  readable = true,
): Promise<ActOutcome> {
  const shows = readable
    ? () => popupShows(client, ref, limits)
    : async () => await popupShows(client, ref, limits) || !!await geckoPopup(client, ref, limits);
  if (await shows()) return { via: "action", already: true };
  let via: ActOutcome["via"] = "action";
  if (!await startOpen(client, ref, limits)) {
    await click();
    via = "pixel";
  }
  const shown = await pollUntil(shows, Boolean, OPEN_MS);
  return shown ? { via } : { via, found: "menu not shown" };
}

const APPLICATION_ROOT = "/org/a11y/atspi/accessible/root";
const FRAME_COMBO = ATSPI_ROLES.indexOf("combo_box");
/** Most children of a browser frame looked through for its drop-down. */
const MAX_FRAME_KIDS = 64;

/**
 * The drop-down Gecko shows for a page's combo, when one shows: the browser draws it in
 * its own process, as an expanded combo box straight under its frame (its list holds the
 * page's options again, with places on screen), while the page's combo says neither
 * EXPANDED nor anything else. Only one drop-down shows at a time, so the one of the app of
 * `ref` is the one `ref` opened.
 */
export async function geckoPopup(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<Ref | undefined> {
  const mine = (refs: Ref[]) => refs.map((r) => ({ bus: r.bus || ref.bus, path: r.path }));
  const frames = mine(await client.children({ bus: ref.bus, path: APPLICATION_ROOT }, limits));
  for (const frame of frames.filter((f) => f.bus === ref.bus)) {
    const kids = mine(await client.children(frame, limits)).slice(0, MAX_FRAME_KIDS);
    const found = await Promise.all(kids.map(async (kid) => {
      const [[role], states] = await Promise.all([
        client.call(kid, "Accessible", "GetRole", limits),
        client.states(kid, limits),
      ]).catch(() => [[0], new Set<number>()] as const);
      return role === FRAME_COMBO && states.has(STATE.EXPANDED) ? kid : undefined;
    }));
    const popup = found.find((k) => k !== undefined);
    if (popup) return popup;
  }
  return undefined;
}
