/**
 * Element actions through AT-SPI's Action, EditableText, Value and Component interfaces.
 * Where an element offers no interface for an action, a pointer click at its centre is
 * used and the outcome says `via: "pixel"`, never silently; text that the element's
 * interface did not enter is typed (`via: "keys"`, text_entry.ts).
 *
 * @module
 */
import type { ActionName, Bounds } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { ActOptions, ActOutcome, RawNode } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { DBusError } from "../../platform/dbus/mod.ts";
import { hasValue, inBrowser, MAX_STEPS, setNumber, stepByKeys } from "./range_value.ts";
import { enterText } from "./text_entry.ts";
import { commitEnter } from "./commit.ts";
import type { Known } from "./known.ts";
import { alive, centre, doNamedAction, type Input, refused } from "./named_action.ts";
import { focusAction, GTK4, stateAction } from "./state_action.ts";
import { scrollIntoView } from "./scroll.ts";
import { clickText } from "./text_click.ts";
import { showComboMenu } from "./combo_open.ts";
import { isDropDown, showDropDown } from "./gtk_drop_down.ts";
import { isEmpty } from "./uncover.ts";
import { STATE } from "./states.ts";

export type { Input } from "./named_action.ts";

/** The map's roles of a combo box, whose menu is its list (combo_open.ts). */
const COMBO_ROLES = new Set(["AXPopUpButton", "AXComboBox"]);

/** Action names AT-SPI toolkits use, in the order we prefer them per driver action. */
const PREFERRED: Partial<Record<ActionName, string[]>> = {
  // Qt's menu bar items offer "ShowMenu" alone: pressing one opens its menu.
  // Gecko names an action by what it will do: a check box's is "check" or "uncheck", a
  // radio button's "select"; each is what a press does. Not an ARIA tab's "switch": it
  // answers true and the page's handler (on the tab's link) never hears of it.
  press: [
    "click",
    "press",
    "activate",
    "toggle",
    "check",
    "uncheck",
    "select",
    "jump",
    "open",
    "showmenu",
  ],
  // Not "activate": Gecko's text fields only take the focus by it, GTK's entries take it
  // as Enter; neither is a click, so those get a pixel click instead.
  click: [
    "click",
    "press",
    "toggle",
    "check",
    "uncheck",
    "select",
    "jump",
    "open",
    "showmenu",
  ],
  show_menu: ["menu", "showmenu", "show menu", "popup", "context menu"],
};

/**
 * Performs `action` on `node`; `ref` is the node's object, `window` the extents of its
 * window (what `scroll_into_view` brings it into).
 */
export async function performAction(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  window: Bounds,
  action: ActionName,
  value: string | undefined,
  limits: CallLimits,
  known: Known,
  options: ActOptions = {},
): Promise<ActOutcome> {
  if (action !== "scroll_into_view") await enabledNow(client, ref, node, action, limits);
  const prefs = PREFERRED[action];
  // The last resort clicks where the element is: only if it is still there.
  const pixelClick = async (button: "left" | "right"): Promise<ActOutcome> => {
    await alive(client, ref, limits);
    await input({ kind: "click", ...centre(node), button, count: 1 });
    return { via: "pixel" };
  };
  switch (action) {
    case "check":
    case "uncheck":
    case "select":
    case "expand":
    case "collapse":
      return await stateAction(
        client,
        input,
        ref,
        node,
        action,
        limits,
        options.extend === true,
        known.windowRelative.has(ref.bus) ? GTK4 : known.toolkits.get(ref.bus),
      );
    case "click":
      // Words inside the element's text: the page made them clickable, not an element.
      if (value !== undefined) {
        return await clickText(client, input, ref, node, value, window, limits);
      }
      if (clickFirst(ref, node, known)) return await pixelClick("left");
      if (await doNamedAction(client, ref, node, prefs!, limits)) return { via: "action" };
      return await pixelClick("left");
    case "press":
      if (clickFirst(ref, node, known)) return await pixelClick("left");
      if (await doNamedAction(client, ref, node, prefs!, limits)) return { via: "action" };
      return await pixelClick("left");
    case "show_menu":
      if (known.get(ref)?.dropDown) {
        // A combo's drop-down toggle (drop_down.ts) is on while the list shows: a right
        // click would ask for another menu.
        const out = await stateAction(client, input, ref, node, "check", limits);
        return out.found === undefined ? out : { ...out, found: "menu not shown" };
      }
      if (COMBO_ROLES.has(node.role)) {
        // GTK 4's drop-down says its popover shows only by holding it (gtk_drop_down.ts).
        if (known.windowRelative.has(ref.bus) && await isDropDown(client, ref, limits)) {
          return await showDropDown(client, ref, limits);
        }
        const click = () => pixelClick("left").then(() => {});
        const gecko = known.popupUnseen.has(ref.bus);
        // The pointer rests on the combo, as a user's does to open it. With no window
        // manager X gives the keyboard to the window under the pointer: Gecko's drop-down,
        // mapped under a pointer left below the combo (on the field typed into last), took
        // the keyboard from the browser's window, which rolls its drop-down up at once.
        if (gecko && !isEmpty(node.bounds)) await input({ kind: "move", ...centre(node) });
        return await showComboMenu(client, ref, click, limits, !gecko);
      }
      if (await doNamedAction(client, ref, node, prefs!, limits)) return { via: "action" };
      return await pixelClick("right");
    case "focus":
      return await focusAction(client, input, ref, node, limits, !known.focusUnseen.has(ref.bus));
    case "scroll_into_view":
      return await scrollIntoView(client, input, ref, window, limits);
    case "set_value": {
      const commit = options.commit === "enter";
      const secret = options.secret === true;
      const out = await setValue(client, input, ref, node, value, limits, known, commit, secret);
      return commit ? await commitEnter(client, input, ref, node, out, limits) : out;
    }
    case "type_text":
      return await typeText(
        client,
        input,
        ref,
        node,
        value,
        limits,
        known,
        options.secret === true,
      );
  }
}

/**
 * Refuses an action on an element gone (DEFUNCT) or disabled now (its state read at once:
 * the map may not have heard it change): a click on a disabled one does nothing, and
 * answering ok would say it did.
 * An empty state set (a toolkit that answers none) is no proof of anything.
 */
async function enabledNow(
  client: AtspiClient,
  ref: Ref,
  node: RawNode,
  action: ActionName,
  limits: CallLimits,
): Promise<void> {
  const s = await client.states(ref, limits);
  // A replaced object answers DEFUNCT (Gecko): nothing may be sent to what it was.
  if (s.has(STATE.DEFUNCT)) {
    throw new DriverError("element_not_found", `Element "${ref.path}" is gone`);
  }
  if (s.has(STATE.SENSITIVE) || s.has(STATE.ENABLED) || !s.has(STATE.VISIBLE)) return;
  throw refused({ ...node, actions: [] }, VERBS[action], "it is disabled");
}

/** How a refusal names each action (`Cannot <verb> "Save": ...`). */
const VERBS: Record<ActionName, string> = {
  press: "press",
  click: "click",
  focus: "focus",
  set_value: "set the value of",
  type_text: "type into",
  select: "select",
  expand: "expand",
  collapse: "collapse",
  scroll_into_view: "scroll to",
  show_menu: "show the menu of",
  check: "check",
  uncheck: "uncheck",
};

/** Roles whose press can open a modal dialog from its handler: a button, a menu item. */
const DIALOG_OPENERS = new Set(["AXButton", "AXMenuItem"]);

/**
 * Is `node` pressed by a click (known.ts, `clicksFirst`)? Only where it shows: an item of
 * a closed menu has no point to click, and gets its action.
 */
function clickFirst(ref: Ref, node: RawNode, known: Known): boolean {
  return known.clicksFirst.has(ref.bus) && DIALOG_OPENERS.has(node.role) && !isEmpty(node.bounds);
}

/** The protocol's schema already demands `value` for these; this keeps the engine honest. */
function required(value: string | undefined, action: string): string {
  if (value !== undefined) return value;
  throw new DriverError("invalid_params", `${action} needs "value"`, {
    issues: [{ path: ["value"], message: `Required for ${action}` }],
  });
}

async function setValue(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  value: string | undefined,
  limits: CallLimits,
  known: Known,
  commit = false,
  secret = false,
): Promise<ActOutcome> {
  value = required(value, "set_value");
  // A secret is never echoed, not even in a refusal.
  const said = secret ? "the secret value" : `"${value}"`;
  if (!node.actions.includes("set_value")) throw refused(node, "set the value of");
  const n = value.trim() === "" ? NaN : Number(value);
  // A spin box takes a number through its Value at once, committed (Qt and GTK emit their
  // value-changed): its typed text waits for Return, which a dialog takes as its default
  // button. Its shown text ("4 / 10") carries a suffix the number is compared without.
  const browser = inBrowser(known, ref);
  if (
    node.role === "AXIncrementor" && Number.isFinite(n) && !browser &&
    await hasValue(client, ref, limits, known)
  ) {
    // A Value that refuses to be set (a browser's, read-only) leaves the text to type.
    const out = await setNumber(client, ref, n, limits).catch((err) => {
      if (err instanceof DBusError && node.actions.includes("type_text")) return undefined;
      throw err;
    });
    if (out && (out.found === undefined || !node.actions.includes("type_text"))) return out;
  }
  // A page's number field hears typed digits as `input` only, and `change` once the focus
  // leaves: its arrow keys step it as a user does, and the page hears both.
  if (browser && node.role === "AXIncrementor" && Number.isFinite(n)) {
    const stepped = await stepByKeys(client, input, ref, node, n, limits);
    if (stepped) return stepped;
  }
  if (node.actions.includes("type_text")) {
    // Text to be committed is typed: an app that waits for Return reads the keys.
    const entry = { kind: "set" as const, value, byKeys: commit, secret };
    return await enterText(client, input, ref, node, entry, limits, known);
  }
  if (!Number.isFinite(n)) {
    throw new DriverError("invalid_params", `${said} is not a number for a ranged element`, {
      issues: [{ path: ["value"], message: "Expected a number" }],
    });
  }
  if (!browser) return await setNumber(client, ref, n, limits);
  const stepped = await stepByKeys(client, input, ref, node, n, limits);
  if (stepped) return stepped;
  throw refused(node, "set the value of", `it is more than ${MAX_STEPS} arrow keys from ${said}`);
}

async function typeText(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  value: string | undefined,
  limits: CallLimits,
  known: Known,
  secret: boolean,
): Promise<ActOutcome> {
  value = required(value, "type_text");
  if (!node.actions.includes("type_text")) throw refused(node, "type into");
  const entry = { kind: "type" as const, value, secret };
  return await enterText(client, input, ref, node, entry, limits, known);
}
