/**
 * Selecting an option of a combo box that shows its current option as its own name (Qt's
 * do). Qt's popup list takes a row selection through its `Table`, and a row's own
 * action, as a highlight it never commits: the driver answered ok for "South" while the
 * combo still said "North". So such a select is done only when the combo, read back, shows
 * the option. When the list's own ways leave the combo as it was, the combo is opened and
 * the option clicked, as a user does; failing that, the answer says what the combo shows.
 * A combo named otherwise (a web page's drop-down keeps its label) is a web combo: an
 * option of its open drop-down is clicked (the browser commits it and closes the list; a
 * selection through `Selection` only moved the highlight), and in Gecko an option of a
 * closed one is chosen by the arrow keys on the focused combo, as a user does without
 * opening it: Gecko's `SelectChild` marks the option selected and the page never hears of
 * it (no `change` event). A labelled combo with a `Selection` of its own (GTK 3's) is
 * given the option through it, which commits it, and read back by it: the option's list
 * takes a selection as a highlight only. Other combos are left to the option's own
 * selected state.
 *
 * @module
 */
import type { ActOutcome, RawNode } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { childAt, parentOf } from "./managed.ts";
import type { Input } from "./named_action.ts";
import { geckoPopup, OPEN_MS, popupShows, startOpen } from "./combo_open.ts";
import { grabFocus } from "./named_action.ts";
import { ATSPI_ROLES } from "./roles.ts";
import { selectedIn } from "./combo_value.ts";
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
  /**
   * A web page's combo, keeping its label: `click` while its drop-down shows (the option
   * is clicked in it), `keys` when Gecko's is closed (the option is chosen by arrow keys).
   */
  web?: "click" | "keys";
  /**
   * A labelled combo that says its choice through its own `Selection` (GTK 3's: its
   * `SelectChild` makes an option the active one, committed as a user's choice is).
   */
  own?: true;
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
  const [shows, count, states] = await Promise.all([
    nameOf(client, combo, limits),
    client.prop(list, "Accessible", "ChildCount", limits).then(Number),
    client.states(combo, limits),
  ]);
  if (!(count <= MAX_OPTIONS)) return undefined;
  const options = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const option = await childAt(client, list, i, limits);
      if (!option) return { name: "", selected: false };
      const [name, states] = await Promise.all([
        nameOf(client, option, limits),
        client.states(option, limits),
      ]);
      return { name, selected: states.has(STATE.SELECTED) };
    }),
  );
  if (shows !== "" && options.some((o) => o.name === shows)) return { ref: combo, list, shows };
  const web = states.has(STATE.EXPANDED)
    ? "click"
    : await isGecko(client, combo, limits)
    ? "keys"
    : undefined;
  if (web) return { ref: combo, list, shows: options.find((o) => o.selected)?.name ?? "", web };
  const [ifaces] = (await client.call(combo, "Accessible", "GetInterfaces", limits)) as [string[]];
  if (!ifaces.includes("org.a11y.atspi.Selection")) return undefined;
  const own: Combo = { ref: combo, list, shows: "", own: true };
  return { ...own, shows: await choiceOf(client, own, limits) };
}

/** The option `combo` shows: its name, or for an `own` combo its selected child's. */
async function choiceOf(client: AtspiClient, combo: Combo, limits: CallLimits): Promise<string> {
  if (!combo.own) return await nameOf(client, combo.ref, limits);
  return await selectedIn(client, combo.ref, limits) ?? "";
}

/** Is `ref`'s app Gecko (Firefox, Thunderbird)? */
const isGecko = async (client: AtspiClient, ref: Ref, limits: CallLimits): Promise<boolean> =>
  String(
    await client.prop(
      { bus: ref.bus, path: "/org/a11y/atspi/accessible/root" },
      "Application",
      "ToolkitName",
      limits,
    ).catch(() => ""),
  ) === "Gecko";

/** Reads the combo's choice until it is `want` or `ms` pass; the last choice read. */
const showsBack = (
  client: AtspiClient,
  combo: Combo,
  want: string,
  limits: CallLimits,
  ms: number,
) => pollUntil(() => choiceOf(client, combo, limits), (shows) => shows === want, ms);

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
  if (combo.web === "click") {
    // Gecko's drop-down takes no click from XTest: its highlight is moved and committed.
    return await isGecko(client, ref, limits)
      ? await enterInOpenList(client, input, ref, combo, limits)
      : await clickInOpenList(client, input, ref, combo, limits);
  }
  if (combo.web === "keys") return await chooseByKeys(client, input, ref, combo, limits);
  if (combo.shows === node.name) return { via: "action", already: true };
  const chosen = combo.own
    ? async () => {
      const [i] = await client.call(ref, "Accessible", "GetIndexInParent", limits);
      const [ok] = await client.call(combo.ref, "Selection", "SelectChild", limits, "i", [i]);
      return ok === true;
    }
    : selectInList;
  if (await chosen()) {
    const shows = await showsBack(client, combo, node.name, limits, SHOWS_MS / 4);
    if (shows === node.name) return { via: "action" };
  }
  if (await openAndClick(client, input, combo, ref, limits)) {
    const shows = await showsBack(client, combo, node.name, limits, SHOWS_MS);
    return shows === node.name ? { via: "pixel" } : { via: "pixel", found: shows };
  }
  return { via: "action", found: await choiceOf(client, combo, limits) };
}

/** The option's part inside its list while it shows; no area otherwise. */
async function shownPartOf(
  client: AtspiClient,
  ref: Ref,
  list: Ref,
  limits: CallLimits,
): Promise<Rect> {
  const [states, row, box] = await Promise.all([
    client.states(ref, limits),
    client.extents(ref, limits),
    client.extents(list, limits),
  ]);
  if (!states.has(STATE.SHOWING)) return [0, 0, 0, 0];
  // Chromium's list keeps the closed combo's box while its drop-down shows elsewhere.
  const inside = intersect(row, box);
  return inside[2] > 0 && inside[3] > 0 ? inside : row;
}

/** Is `combo` expanded still? A drop-down gone from the bus is not. */
const expanded = (client: AtspiClient, combo: Ref, limits: CallLimits): Promise<boolean> =>
  client.states(combo, limits).then((s) => s.has(STATE.EXPANDED), () => false);

/**
 * Clicks option `ref` in the open drop-down of web combo `combo`, as a user does: the
 * browser commits it and closes the list. Done when the list closed; an option with no
 * place in the list (scrolled out of it) is `found: "not selected"`.
 */
async function clickInOpenList(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  combo: Combo,
  limits: CallLimits,
): Promise<ActOutcome> {
  const [x, y, w, h] = await shownPartOf(client, ref, combo.list, limits);
  if (!(w > 0 && h > 0)) return { via: "action", found: "not selected" };
  await input({
    kind: "click",
    x: Math.round(x + w / 2),
    y: Math.round(y + h / 2),
    button: "left",
    count: 1,
  });
  const open = await pollUntil(() => expanded(client, combo.ref, limits), (o) => !o, OPEN_MS);
  return open ? { via: "pixel", found: "not selected" } : { via: "pixel" };
}

/** How long one arrow key is waited for to move the combo's option. */
const KEY_MS = 500;

/**
 * Did a key move the list's option from index `was` to `now`? Gecko's options pass through
 * a moment with none selected (or lit) while one takes over from another: that -1 is no
 * place, and read as one it sent the next key the wrong way (Up, Down, Up, Down: Banana,
 * Cherry, Banana, Cherry, for Apple).
 */
export const movedFrom = (was: number): (now: number) => boolean => (now) =>
  now >= 0 && now !== was;

/**
 * Chooses option `ref` of Gecko's closed page combo `combo` by arrow keys on the focused
 * combo: the page hears a `change` per key, as from a user. An open drop-down (a
 * `show_menu` before) is closed first by Escape, which keeps the option it had. Done when
 * the option is selected; otherwise `found` is the option the combo shows.
 */
async function chooseByKeys(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  combo: Combo,
  limits: CallLimits,
): Promise<ActOutcome> {
  const selected = () => client.states(ref, limits).then((s) => s.has(STATE.SELECTED));
  if (await geckoPopup(client, combo.ref, limits)) {
    await input({ kind: "key", keys: "Escape" });
    await pollUntil(() => geckoPopup(client, combo.ref, limits), (p) => !p, OPEN_MS);
  }
  if (await selected()) return { via: "action", already: true };
  if (await grabFocus(client, combo.ref, limits) === false) {
    return { via: "action", found: combo.shows };
  }
  const count = Number(await client.prop(combo.list, "Accessible", "ChildCount", limits));
  const indexOf = async (option: Ref) =>
    Number((await client.call(option, "Accessible", "GetIndexInParent", limits))[0]);
  const current = async (): Promise<number> => {
    for (let i = 0; i < count; i++) {
      const option = await childAt(client, combo.list, i, limits);
      if (option && (await client.states(option, limits)).has(STATE.SELECTED)) return i;
    }
    return -1;
  };
  const target = await indexOf(ref);
  let at = await current();
  for (let step = 0; step <= count && at !== target; step++) {
    await input({ kind: "key", keys: at < target ? "Down" : "Up" });
    const was = at;
    at = await pollUntil(current, movedFrom(was), KEY_MS);
    // A key that moved nothing (a disabled option at the end): the keys can do no more.
    if (!movedFrom(was)(at)) break;
  }
  if (await selected()) return { via: "keys" };
  const shown = await childAt(client, combo.list, await current(), limits).catch(() => undefined);
  return { via: "keys", found: shown ? await nameOf(client, shown, limits) : "" };
}

/**
 * Chooses option `ref` in Gecko's open drop-down `combo` as a user does by keys: the
 * highlight (the FOCUSED option) moved by arrow keys, then Enter, which commits it and
 * closes the list. Done when the list closed with the option highlighted.
 */
async function enterInOpenList(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  combo: Combo,
  limits: CallLimits,
): Promise<ActOutcome> {
  const count = Number(await client.prop(combo.list, "Accessible", "ChildCount", limits));
  const lit = async (): Promise<number> => {
    for (let i = 0; i < count; i++) {
      const option = await childAt(client, combo.list, i, limits);
      if (option && (await client.states(option, limits)).has(STATE.FOCUSED)) return i;
    }
    return -1;
  };
  const target = Number((await client.call(ref, "Accessible", "GetIndexInParent", limits))[0]);
  let at = await lit();
  for (let step = 0; step <= count && at !== target; step++) {
    await input({ kind: "key", keys: at < target ? "Down" : "Up" });
    const was = at;
    at = await pollUntil(lit, movedFrom(was), KEY_MS);
    if (!movedFrom(was)(at)) break;
  }
  if (at !== target) return { via: "keys", found: "not selected" };
  await input({ kind: "key", keys: "Return" });
  const open = await pollUntil(() => expanded(client, combo.ref, limits), (o) => !o, OPEN_MS);
  return open ? { via: "keys", found: "not selected" } : { via: "keys" };
}
