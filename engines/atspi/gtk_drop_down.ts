/**
 * GTK 4.8's drop-down (`GtkDropDown`): a combo box holding a toggle button that shows the
 * current option, and, only while it shows, a popover with the options' list (a second
 * child). GTK 4 never says SHOWING, and says VISIBLE of what is hidden, so the popover's
 * being a child at all is the one word that it shows.
 *
 * An option is committed only when its row is activated: the list's selection (and a
 * row's SELECTED) is a highlight the combo never takes, and a click cannot be aimed, since
 * the bridge places the popover's rows on the popover's own surface, not on the screen.
 * So an option is chosen as a user does by keys: the list takes the keyboard when the
 * popover opens, with the current option FOCUSED; arrow keys move that focus to the
 * option's row and Enter activates it. The option is done when the combo's button shows
 * it.
 *
 * @module
 */
import type { ActOutcome, RawNode } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { childAt, parentOf } from "./managed.ts";
import { doActionNamed, type Input } from "./named_action.ts";
import { atspiRoleName } from "./roles.ts";
import { STATE } from "./states.ts";
import { pollUntil } from "../../util/poll.ts";

/** How many ancestors of an option are looked through for its combo box. */
const COMBO_DEPTH = 6;
/** How long the popover is waited for after the combo is asked to open. */
const OPEN_MS = 1_000;
/** How long one arrow key is waited for to move the list's focus. */
const KEY_MS = 500;
/** How long the combo's button is waited for to show the option after Enter. */
const SHOWS_MS = 1_000;
/** Most labels under the combo's button looked at for the option it shows. */
const MAX_LABELS = 8;
/** How deep under the button its label is looked for (button, box, stack, page, row…). */
const LABEL_DEPTH = 6;

type Rect = [number, number, number, number];

/** What a label under the drop-down's button says, and whether it has an area. */
export interface ButtonLabel {
  name: string;
  w: number;
  h: number;
}

/**
 * The option a drop-down's button shows: its one label with an area. The button's stack
 * keeps the page it does not show (GTK's "(None)" placeholder) with no size.
 */
export function shownLabel(labels: readonly ButtonLabel[]): string | undefined {
  return labels.find((l) => l.w > 0 && l.h > 0 && l.name.trim() !== "")?.name.trim();
}

/**
 * The arrow key that moves the list's focus from row `lit` towards row `target`, both in
 * the bridge's own coordinates (wrong for the screen, right between rows of one list); no
 * key when they are the same row. A list with no focused row starts from its top.
 */
export function stepKey(lit: Rect | undefined, target: Rect): "Down" | "Up" | undefined {
  if (!lit) return "Down";
  if (lit[1] === target[1]) return undefined;
  return lit[1] < target[1] ? "Down" : "Up";
}

/** The combo box above `ref` within a few levels (an option in its popover), if any. */
export async function dropDownOf(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<Ref | undefined> {
  let at: Ref | undefined = ref;
  for (let i = 0; i < COMBO_DEPTH && at; i++) {
    at = await parentOf(client, at, limits);
    if (!at) return undefined;
    const [role] = await client.call(at, "Accessible", "GetRole", limits);
    if (atspiRoleName(Number(role)) === "combo_box") return at;
  }
  return undefined;
}

/** The drop-down's button: combo `combo`'s first child, when it is a button. */
async function buttonOf(
  client: AtspiClient,
  combo: Ref,
  limits: CallLimits,
): Promise<Ref | undefined> {
  const first = await childAt(client, combo, 0, limits);
  if (!first) return undefined;
  const [role] = await client.call(first, "Accessible", "GetRole", limits);
  const name = atspiRoleName(Number(role));
  return name === "push_button" || name === "toggle_button" ? first : undefined;
}

/** Is `combo` a GTK 4 drop-down (its first child a button)? */
export async function isDropDown(
  client: AtspiClient,
  combo: Ref,
  limits: CallLimits,
): Promise<boolean> {
  return await buttonOf(client, combo, limits) !== undefined;
}

/** Does drop-down `combo`'s popover show: a child after its button, with an area? */
export async function popoverShows(
  client: AtspiClient,
  combo: Ref,
  limits: CallLimits,
): Promise<boolean> {
  const count = Number(await client.prop(combo, "Accessible", "ChildCount", limits));
  for (let i = 1; i < Math.min(count, 4); i++) {
    const kid = await childAt(client, combo, i, limits);
    if (!kid) continue;
    const [states, [, , w, h]] = await Promise.all([
      client.states(kid, limits),
      client.extents(kid, limits),
    ]);
    if (states.has(STATE.VISIBLE) && w > 0 && h > 0) return true;
  }
  return false;
}

/** The option drop-down `combo`'s button shows now ("" when it shows none). */
export async function choiceShown(
  client: AtspiClient,
  combo: Ref,
  limits: CallLimits,
): Promise<string> {
  const button = await buttonOf(client, combo, limits);
  if (!button) return "";
  const labels: ButtonLabel[] = [];
  const visit = async (ref: Ref, depth: number): Promise<void> => {
    if (labels.length >= MAX_LABELS) return;
    const [[role], name] = await Promise.all([
      client.call(ref, "Accessible", "GetRole", limits),
      client.prop(ref, "Accessible", "Name", limits),
    ]);
    if (atspiRoleName(Number(role)) === "label") {
      const [, , w, h] = await client.extents(ref, limits);
      labels.push({ name: String(name ?? ""), w, h });
      return;
    }
    if (depth === 0) return;
    const kids = await client.children(ref, limits);
    for (const kid of kids.slice(0, MAX_LABELS)) {
      await visit({ bus: kid.bus || ref.bus, path: kid.path }, depth - 1);
    }
  };
  await visit(button, LABEL_DEPTH);
  return shownLabel(labels) ?? "";
}

/**
 * Opens drop-down `combo` by its button's own action (a click, pointer-free), unless its
 * popover shows already. GTK 4.8 leaves the button on in a few paths while the popover is
 * gone: a press then only turns it off, so one more press opens. True once it shows.
 */
async function opened(client: AtspiClient, combo: Ref, limits: CallLimits): Promise<boolean> {
  const shows = () => popoverShows(client, combo, limits);
  if (await shows()) return true;
  const button = await buttonOf(client, combo, limits);
  if (!button) return false;
  for (let i = 0; i < 2; i++) {
    if (!await doActionNamed(client, button, ["click", "press", "activate"], limits)) return false;
    if (await pollUntil(shows, Boolean, OPEN_MS)) return true;
    if ((await client.states(button, limits)).has(STATE.PRESSED)) return false;
  }
  return false;
}

/**
 * `show_menu` on GTK 4 drop-down `combo`: `already` when its popover shows, else opened
 * by its button; `found: "menu not shown"` when the popover never came.
 */
export async function showDropDown(
  client: AtspiClient,
  combo: Ref,
  limits: CallLimits,
): Promise<ActOutcome> {
  if (await popoverShows(client, combo, limits)) return { via: "action", already: true };
  return await opened(client, combo, limits) ? { via: "action" } : {
    via: "action",
    found: "menu not shown",
  };
}

/** The words a row shows: its own name, else its first named label a few levels down. */
async function rowText(client: AtspiClient, ref: Ref, limits: CallLimits): Promise<string> {
  const own = String(await client.prop(ref, "Accessible", "Name", limits) ?? "").trim();
  if (own !== "" && !/^Gtk[A-Z]/.test(own)) return own;
  for (const kid of await client.children(ref, limits)) {
    const text = await rowText(client, { bus: kid.bus || ref.bus, path: kid.path }, limits);
    if (text !== "") return text;
  }
  return "";
}

/** The row of `list` that has the keyboard focus, with its extents. */
async function litRow(
  client: AtspiClient,
  list: Ref,
  limits: CallLimits,
): Promise<{ ref: Ref; box: Rect } | undefined> {
  const kids = await client.children(list, limits);
  for (const kid of kids) {
    const ref = { bus: kid.bus || list.bus, path: kid.path };
    if ((await client.states(ref, limits)).has(STATE.FOCUSED)) {
      return { ref, box: await client.extents(ref, limits) };
    }
  }
  return undefined;
}

/**
 * Selects option row `ref` (`node`) of GTK 4 drop-down `combo`: opens it when closed,
 * moves the list's focus to the row by arrow keys and presses Enter. Done when the combo
 * shows the option (`already` when it did before); otherwise `found` is what it shows, or
 * `menu not shown` when the popover never opened.
 */
export async function selectInDropDown(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  combo: Ref,
  limits: CallLimits,
): Promise<ActOutcome> {
  const [want, before] = await Promise.all([
    node.name.trim() !== "" ? Promise.resolve(node.name.trim()) : rowText(client, ref, limits),
    choiceShown(client, combo, limits),
  ]);
  if (want !== "" && before === want) return { via: "action", already: true };
  if (!await opened(client, combo, limits)) return { via: "action", found: "menu not shown" };
  const list = await parentOf(client, ref, limits);
  if (!list) return { via: "action", found: before };
  const count = Number(await client.prop(list, "Accessible", "ChildCount", limits));
  const focused = () => client.states(ref, limits).then((s) => s.has(STATE.FOCUSED));
  for (let step = 0; step <= count && !await focused(); step++) {
    const [lit, target] = await Promise.all([
      litRow(client, list, limits),
      client.extents(ref, limits),
    ]);
    const key = stepKey(lit?.box, target);
    if (!key) break;
    await input({ kind: "key", keys: key });
    const was = lit?.ref.path;
    const now = await pollUntil(
      () => litRow(client, list, limits),
      (r) => r?.ref.path !== was,
      KEY_MS,
    );
    // A key that moved nothing (the list's end): the keys can do no more.
    if (now?.ref.path === was) break;
  }
  if (!await focused()) return { via: "keys", found: before };
  await input({ kind: "key", keys: "Return" });
  const shows = await pollUntil(
    () => choiceShown(client, combo, limits),
    (s) => want === "" ? s !== before : s === want,
    SHOWS_MS,
  );
  return (want === "" ? shows !== before : shows === want)
    ? { via: "keys" }
    : { via: "keys", found: shows };
}
