/**
 * Actions that leave an element in a state: `check`, `uncheck`, `expand`, `collapse`,
 * `select`, and `focus` ({@link focusAction}). The state is read first (an element
 * already in it is left alone, so a repeated `check` never unchecks), the element's own
 * way is tried (its parent's `Selection`, or `Table` for a row, for `select`, then its
 * named action; a pixel click only when it offers neither), and the state is read back:
 * when it did not come, the outcome says what the element is (`found`), never a silent
 * success. A combo box's option is done when the combo shows it (combo_option.ts).
 *
 * @module
 */
import type { ActOutcome, RawNode } from "../../model/engine.ts";
import { type AtspiClient, type CallLimits, handleOf, type Ref } from "./client.ts";
import { centre, doNamedAction, grabFocus, type Input, refused } from "./named_action.ts";
import { STATE, type StateSet } from "./states.ts";
import { pollUntil } from "../../util/poll.ts";
import { comboOf, selectOption } from "./combo_option.ts";
import { dropDownOf, isDropDown, selectInDropDown } from "./gtk_drop_down.ts";
import { inPopupList, pickFromPopup } from "./popup_list.ts";
import { discloseByKeys, rowSelectionUnseen } from "./page_rows.ts";

/** The actions this module performs. */
export type StateActionName = "check" | "uncheck" | "expand" | "collapse" | "select";

interface Want {
  /** Is the element in the asked state? */
  reached(s: StateSet): boolean;
  /** What the element is when it is not. */
  otherwise(s: StateSet): string;
  /**
   * Action names toolkits use for it, preferred first. The opposite's name is on the list
   * too: the state was read first, so either toggles the right way, and Gecko keeps the
   * name it had when first asked ("check" on a box that is checked now).
   */
  names: readonly string[];
  /** The element field that says the element has this state at all. */
  field: "checked" | "expanded" | "selected";
}

const isMixed = (s: StateSet) => s.has(STATE.INDETERMINATE);
const isChecked = (s: StateSet) => (s.has(STATE.CHECKED) || s.has(STATE.PRESSED)) && !isMixed(s);
/** A check box's state in words: a mixed box is neither checked nor unchecked. */
const checkWord = (s: StateSet) => isMixed(s) ? "mixed" : isChecked(s) ? "checked" : "unchecked";

const WANT: Record<StateActionName, Want> = {
  check: {
    reached: isChecked,
    otherwise: checkWord,
    // A radio button's (Gecko, Chromium) is "select".
    names: ["check", "uncheck", "toggle", "click", "press", "activate", "select"],
    field: "checked",
  },
  uncheck: {
    reached: (s) => !isChecked(s) && !isMixed(s),
    otherwise: checkWord,
    names: ["uncheck", "check", "toggle", "click", "press", "activate"],
    field: "checked",
  },
  expand: {
    reached: (s) => s.has(STATE.EXPANDED),
    otherwise: () => "collapsed",
    names: [
      "expand or contract",
      "expand",
      "collapse",
      "toggle",
      "open",
      "activate",
      "click",
      "press",
    ],
    field: "expanded",
  },
  collapse: {
    reached: (s) => !s.has(STATE.EXPANDED),
    otherwise: () => "expanded",
    names: ["expand or contract", "collapse", "expand", "toggle", "activate", "click", "press"],
    field: "expanded",
  },
  select: {
    reached: (s) => s.has(STATE.SELECTED),
    otherwise: () => "not selected",
    // Not "activate": a file manager's row opens by it (Thunar opened the folder).
    names: ["select", "click", "press", "jump"],
    field: "selected",
  },
};

/** The map's roles of a list or tree row and of a table cell. */
const ROW_ROLES = new Set(["AXRow", "AXCell"]);

/** How long the state is waited for: Gecko and Chromium change it from another process. */
const READ_BACK_MS = 1_000;
/**
 * How long a `select` waits before trying its next way: a list's `Selection` answers true
 * for ARIA tabs whose page keeps its own state, and nothing changes.
 */
const TRY_NEXT_MS = 300;

/** Polls the state until `reached` or `ms` pass; the last state read. */
const readBack = (
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
  reached: (s: StateSet) => boolean,
  ms: number,
): Promise<StateSet> => pollUntil(() => client.states(ref, limits), reached, ms);

/**
 * Selects the element through its parent's `Selection` (list rows, tabs, options), or
 * selects its row through its parent's `Table`: the ways screen readers select, with no
 * pointer and no side effect of a click. GTK 3's tree view refuses `SelectChild` when it
 * has more than one column, and takes `AddRowSelection`. Both add to a list that selects
 * many, and few lists say they do (GTK's never say MULTISELECTABLE): so the selection is
 * counted after. Unless `extend`, others still selected are cleared and the element
 * selected again; with `extend`, a list that dropped the others selects one at a time,
 * which is a refusal, not a success. False when the parent has neither interface or
 * refuses.
 */
async function selectInParent(
  client: AtspiClient,
  ref: Ref,
  node: RawNode,
  limits: CallLimits,
  extend: boolean,
): Promise<boolean> {
  const [parent, index] = await Promise.all([
    client.prop(ref, "Accessible", "Parent", limits) as Promise<[string, string]>,
    client.call(ref, "Accessible", "GetIndexInParent", limits).then(([i]) => Number(i)),
  ]);
  const up = { bus: parent[0] || ref.bus, path: parent[1] };
  if (!up.path || index < 0) return false;
  const [ifaces] = (await client.call(up, "Accessible", "GetInterfaces", limits)) as [string[]];
  const single = () => refused(node, "extend the selection with", "its list selects one at a time");
  if (ifaces.includes("org.a11y.atspi.Selection")) {
    const count = async () =>
      Number(await client.prop(up, "Selection", "NSelectedChildren", limits));
    const before = extend ? await count() : 0;
    const [ok] = await client.call(up, "Selection", "SelectChild", limits, "i", [index]);
    if (ok === true) {
      const after = await count();
      if (extend && before > 0 && after <= before) throw single();
      if (!extend && after > 1) {
        await client.call(up, "Selection", "ClearSelection", limits);
        await client.call(up, "Selection", "SelectChild", limits, "i", [index]);
      }
      return true;
    }
  }
  if (!ifaces.includes("org.a11y.atspi.Table")) return false;
  const [row] = await client.call(up, "Table", "GetRowAtIndex", limits, "i", [index]);
  if (typeof row !== "number" || row < 0) return false;
  const rows = async () =>
    ((await client.call(up, "Table", "GetSelectedRows", limits)) as [number[]])[0] ?? [];
  const before = extend ? (await rows()).filter((r) => r !== row).length : 0;
  const [ok] = await client.call(up, "Table", "AddRowSelection", limits, "i", [row]);
  if (ok !== true) return false;
  const others = (await rows()).filter((r) => r !== row);
  if (extend && before > 0 && others.length < before) throw single();
  if (!extend) {
    for (const other of others) {
      await client.call(up, "Table", "RemoveRowSelection", limits, "i", [other]);
    }
  }
  return true;
}

/**
 * Is the element the only one its list has selected? A list with no `Selection` to count
 * by (a tree view's rows, selected by its `Table`) is taken at its element's word.
 */
async function selectedAlone(client: AtspiClient, ref: Ref, limits: CallLimits): Promise<boolean> {
  const [bus, path] = (await client.prop(ref, "Accessible", "Parent", limits)) as [string, string];
  const up = { bus: bus || ref.bus, path };
  if (!path) return true;
  const [ifaces] = (await client.call(up, "Accessible", "GetInterfaces", limits)) as [string[]];
  if (!ifaces.includes("org.a11y.atspi.Selection")) return true;
  return Number(await client.prop(up, "Selection", "NSelectedChildren", limits)) <= 1;
}

/** The toolkit name {@link stateAction} is given for a GTK 4 app (its extents say so). */
export const GTK4 = "GTK 4";

/** Performs a state action on `node` (`ref`: its object) and reads the state back. */
export async function stateAction(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  action: StateActionName,
  limits: CallLimits,
  extend = false,
  toolkit = "",
): Promise<ActOutcome> {
  const gecko = toolkit === "Gecko";
  const page = gecko || toolkit === "Chromium";
  const want = WANT[action];
  // A GTK 4 combo's popup, whose rows the bridge does not place on the screen.
  const dropDown = toolkit === GTK4 && action === "select"
    ? await dropDownOf(client, ref, limits)
    : undefined;
  if (action === "select") {
    const combo = await comboOf(client, ref, limits);
    if (combo) {
      if (extend) throw refused(node, "extend the selection with", "a combo box shows one option");
      const inList = () => selectInParent(client, ref, node, limits, false);
      const out = await selectOption(client, input, ref, node, combo, inList, limits);
      // The combo shows the option now: Gecko says so a moment late, or not at all.
      return { ...out, alsoChanged: [handleOf(combo.ref)] };
    }
    // Before the row's own state is read: in GTK 4's drop-down a row's SELECTED is the
    // list's highlight, not the combo's choice (gtk_drop_down.ts).
    if (dropDown && await isDropDown(client, dropDown, limits)) {
      if (extend) throw refused(node, "extend the selection with", "a combo box shows one option");
      const out = await selectInDropDown(client, input, ref, node, dropDown, limits);
      return { ...out, alsoChanged: [handleOf(dropDown)] };
    }
    // A drop-down list in a window of its own, of no combo on the bus (LibreOffice's).
    if (!extend && !page && await inPopupList(client, ref, node, limits)) {
      return await pickFromPopup(client, input, ref, node, limits);
    }
  }
  const stateful = node[want.field] !== undefined;
  // Check boxes only: what would "check" mean on a button? Menu items and plain rows are
  // selected and expanded by their action, with no state to read back.
  if (!stateful && want.field === "checked") {
    throw toolkit === GTK4 && node.role === "AXButton"
      ? refused(
        node,
        action,
        "it says no on or off state: GTK 4.8 shows a toggle button as a plain button while " +
          `it is off, so \`press\` toggles it (its actions are ${node.actions.join(", ")})`,
      )
      : refused(node, action);
  }
  if (stateful && want.reached(await client.states(ref, limits))) {
    // Selected among others is not as asked when the selection is to be replaced.
    if (action !== "select" || extend || await selectedAlone(client, ref, limits)) {
      return { via: "action", already: true };
    }
  }
  // A row's "toggle" is no disclosure: Qt's toggles the row's selection, and Qt names no
  // action that expands. A row that names none is expanded as a user does it: clicked (its
  // tree takes the focus, the row becomes current) and the arrow key pressed.
  const row = ROW_ROLES.has(node.role) && (action === "expand" || action === "collapse");
  const names = row ? want.names.filter((n) => n !== "toggle") : want.names;
  // The ways to try, each answering how it went, or undefined when it did not apply.
  const ways: (() => Promise<ActOutcome["via"] | undefined>)[] = [
    async () => await doNamedAction(client, ref, node, names, limits) ? "action" : undefined,
    async () => {
      // A page's tree row by the keys alone (page_rows.ts): a click on it lands on its
      // open group's rows.
      if (row && page && await discloseByKeys(client, input, ref, action === "expand", limits)) {
        return "keys";
      }
      await input({ kind: "click", ...centre(node), button: "left", count: 1 });
      if (!row) return "pixel";
      await input({ kind: "key", keys: action === "expand" ? "Right" : "Left" });
      return "keys";
    },
  ];
  if (action === "select") {
    // With `extend`, a click holds Ctrl, as a user adds a row: Chromium's `SelectChild`
    // replaces a `<select multiple>`'s selection, and Gecko's is never heard by the page
    // (no `change`), so a page's list is clicked first. A row's named action could only
    // replace the selection.
    const click = async () => {
      await input({
        kind: "click",
        ...centre(node),
        button: "left",
        count: 1,
        ...(extend ? { holding: "ctrl" as const } : {}),
      });
      return "pixel" as const;
    };
    const inParent = async () =>
      await selectInParent(client, ref, node, limits, extend) ? "action" as const : undefined;
    // Another GTK 4 combo's popup (no drop-down's, taken above): its bridge places the
    // popover's rows on the popover's own surface, not the screen, so a click misses, and
    // its list's selection is a highlight the combo never takes. Refused rather than
    // answered ok for an option the combo does not show.
    if (dropDown) {
      throw refused(
        node,
        "select",
        "GTK 4's combo takes an option only from its popover, which its bridge does not " +
          "place on the screen",
      );
    }
    ways.splice(
      0,
      ways.length,
      ...(page && (extend || gecko) ? [click] : [inParent, ways[0]!, click]),
    );
    if (extend && !page) ways.splice(1, 1);
  }
  let via: ActOutcome["via"] = "action";
  let now: StateSet | undefined;
  for (const [i, way] of ways.entries()) {
    const went = await way();
    if (went === undefined) continue;
    via = went;
    if (!stateful) return { via };
    // Selecting twice is harmless, toggling twice undoes: only `select` tries on.
    const last = action !== "select" || i === ways.length - 1;
    now = await readBack(client, ref, limits, want.reached, last ? READ_BACK_MS : TRY_NEXT_MS);
    if (want.reached(now)) return { via };
    if (last) break;
  }
  // Gecko shows no selection of a grid's `<tr>` (page_rows.ts): the click went, unread.
  if (
    gecko && action === "select" && node.role === "AXCell" &&
    await rowSelectionUnseen(client, ref, limits)
  ) return { via, verified: false };
  return { via, found: want.otherwise(now ?? await client.states(ref, limits)) };
}

/**
 * Gives the element the keyboard focus (`Component.GrabFocus`) and reads it back: a
 * toolkit may answer true and put the focus elsewhere (LibreOffice focuses a toolbar, not
 * the toolbar's button), which is `found: "not focused"`, never a silent success. A page
 * in a browser is not read back (`readable` false): the page moves its focus, but the
 * browser says FOCUSED only while its content holds the window's keyboard, which a page
 * task that ended on the focus (MiniWoB's focus-text) never saw. GTK 4 takes no focus
 * request: a text field is clicked into, as a user does (`via: "pixel"`); anything else is
 * refused, since a click would press it.
 */
export async function focusAction(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  limits: CallLimits,
  readable: boolean,
): Promise<ActOutcome> {
  const grabbed = await grabFocus(client, ref, limits);
  if (grabbed === false) throw refused(node, "focus");
  let via: ActOutcome["via"] = "action";
  if (grabbed === "unsupported") {
    if (!node.actions.includes("type_text")) {
      throw refused(
        node,
        "focus",
        "its toolkit moves no focus on request (GTK 4), and a click would press it",
      );
    }
    await input({ kind: "click", ...centre(node), button: "left", count: 1 });
    via = "pixel";
  }
  if (!readable) return { via };
  const focused = (s: StateSet) => s.has(STATE.FOCUSED);
  const now = await readBack(client, ref, limits, focused, READ_BACK_MS);
  return focused(now) ? { via } : { via, found: "not focused" };
}
