/**
 * Turns a skeleton into the engine's {@link RawNode} tree for one window: prunes what is
 * not showing, applies the element budget, then reads bounds, text and values for the
 * kept nodes in one pipelined pass.
 *
 * @module
 */
import type { ActionName } from "../../protocol/element.ts";
import type { RawNode } from "../../model/engine.ts";
import { type AtspiClient, type CallLimits, handleOf, type Ref } from "./client.ts";
import { atspiRoleName, axRole } from "./roles.ts";
import { shownIn, type Skeleton, type SkeletonNode, visibilityState } from "./skeleton.ts";
import { STATE } from "./states.ts";
import { mapLimit } from "../../util/pool.ts";
import { Known } from "./known.ts";
import { type DropDownCandidate, dropDownCandidate, markDropDowns } from "./drop_down.ts";
import { LABELLED_ROLES, labelOf } from "./label.ts";
import { showChoice } from "./combo_value.ts";
import { actionNames } from "./named_action.ts";

/** Pending replies per app at once; stays under the bus's per-connection reply limit. */
const PIPELINE = 64;
/**
 * Longest text read into `value`; a longer one is cut there and marked `truncated`. Only
 * that much is ever asked for: the count comes first (Gecko answers nothing, not a clamped
 * text, for a range past the end).
 */
export const MAX_TEXT_CHARS = 10_000;

/** Roles whose text is their value as typed, kept verbatim (even when empty). */
const EDITABLE_VALUE = new Set([
  "text",
  "entry",
  "terminal",
  "document_text",
  "spin_button",
  "combo_box",
  "editbar",
  "autocomplete",
]);

/**
 * Roles whose Text interface holds what they show, read into `value`. Gecko and
 * LibreOffice put a paragraph's words in its text, not its name; a spreadsheet cell is
 * named by its address and holds its value as text; a web container's text is its own
 * inline words, each child element in it only a mark (so no text is read twice).
 */
const TEXT_ROLES = new Set([
  ...EDITABLE_VALUE,
  "paragraph",
  "heading",
  "label",
  "static",
  "caption",
  "table_cell",
  "list_item",
  "tree_item",
  "block_quote",
  "section",
  // A document viewer's page (evince: a PDF page's words, in reading order).
  "page",
  "link",
  // Web containers (hypertext): their own inline text, with their children as marks.
  "panel",
  "form",
  "article",
  "landmark",
  "document_web",
]);

/**
 * Roles whose Value interface is what they show. LibreOffice gives every menu a Value of
 * 0, which would only be noise in the map.
 */
const VALUE_ROLES = new Set([
  "scroll_bar",
  "slider",
  "spin_button",
  "progress_bar",
  "level_bar",
  "dial",
  "split_pane",
  "separator",
]);

/** Gecko and Chromium mark an embedded child inside a text with this character. */
const EMBEDDED = /\uFFFC/g;

/** The kept nodes of a window in document order, with parent links. */
interface Kept {
  node: SkeletonNode;
  raw: RawNode;
}

/** What the walk produced. */
export interface TreeResult {
  /** The window node. */
  root: RawNode;
  /** Nodes kept. */
  nodes: number;
  /** The budget cut the walk short. */
  truncated: boolean;
}

/** Builds the window's tree from `skeleton`, reading the extra attributes it needs. */
export async function buildTree(
  client: AtspiClient,
  skeleton: Skeleton,
  windowPath: string,
  max: number,
  limits: CallLimits,
  shown: number = visibilityState(skeleton, windowPath),
  known: Known = new Known(),
): Promise<TreeResult | undefined> {
  const top = skeleton.get(windowPath);
  if (!top) return undefined;
  const kept: Kept[] = [];
  let truncated = false;
  // Pre-order walk with an explicit stack (children pushed in reverse so they come out in
  // order). A cache caught mid-change can list a node under its own descendant or under
  // two parents: each path is kept once, at its first place in document order, so the
  // result is always a tree and no recursion depth depends on the app's data.
  const placed = new Set<string>();
  const dropDowns: DropDownCandidate[] = [];
  const stack: { node: SkeletonNode; parent: RawNode | undefined }[] = [{
    node: top,
    parent: undefined,
  }];
  while (stack.length > 0) {
    const { node, parent } = stack.pop()!;
    if (placed.has(node.ref.path)) continue;
    if (kept.length >= max) {
      truncated = true;
      break;
    }
    placed.add(node.ref.path);
    const raw = shell(node);
    // Its list is the menu of the combo box the toggle stands for. Remembered: a read of
    // the toggle alone (after it changed) does not see the combo beside it.
    if (known.get(node.ref)?.dropDown) raw.actions.push("show_menu");
    kept.push({ node, raw });
    parent?.children.push(raw);
    const candidate = dropDownCandidate(skeleton, node, shown, known);
    if (candidate) dropDowns.push(candidate);
    for (let i = node.children.length - 1; i >= 0; i--) {
      const path = node.children[i]!;
      const child = placed.has(path) ? undefined : skeleton.get(path);
      // Hidden pages (stacks, collapsed menus) would show an agent things it can't reach.
      if (child && shownIn(skeleton, child, shown, node)) stack.push({ node: child, parent: raw });
    }
  }
  // Most windows have no drop-down to look into: no index of the kept nodes for them.
  const marking = dropDowns.length === 0 ? undefined : markDropDowns(
    client,
    dropDowns,
    new Map(kept.map((k) => [k.node.ref.path, k.raw])),
    known,
    limits,
  );
  await Promise.all([mapLimit(kept, PIPELINE, (k) => enrich(client, k, limits, known)), marking]);
  const root = kept[0]!.raw;
  for (const k of kept) {
    withoutFieldValue(k.raw);
    withoutTypeName(k.node.role, k.raw);
    namedByLabel(k.raw);
  }
  if (shown !== STATE.VISIBLE) return { root, nodes: kept.length, truncated };
  const hidden = await dropStackedAway(client, kept, limits);
  return { root, nodes: kept.length - hidden - pruneUnshown(root), truncated };
}

/**
 * GTK 4: drops the pages a stack does not show, answering how many nodes went. A page is
 * a node without extents (GtkStackPage) over its content; a page shown once keeps its
 * size and VISIBLE after the stack flips away from it, but no longer contains its own
 * middle (`Component.Contains`, which asks GTK where it is drawn).
 */
async function dropStackedAway(
  client: AtspiClient,
  kept: readonly Kept[],
  limits: CallLimits,
): Promise<number> {
  const byRaw = new Map(kept.map((k) => [k.raw, k]));
  const checks: { parent: RawNode; child: Kept }[] = [];
  for (const k of kept) {
    if (k.node.ifaces.has("Component")) continue;
    for (const c of k.raw.children) {
      const child = byRaw.get(c);
      if (child?.node.ifaces.has("Component") && !noArea(c.bounds)) {
        checks.push({ parent: k.raw, child });
      }
    }
  }
  let dropped = 0;
  await mapLimit(checks, PIPELINE, async ({ parent, child }) => {
    const { x, y, w, h } = child.raw.bounds;
    const [inside] = await client.call(child.node.ref, "Component", "Contains", limits, "iiu", [
      Math.round(x + w / 2),
      Math.round(y + h / 2),
      0,
    ]).catch((err: { code?: string }) => {
      if (err.code === "timeout" || err.code === "app_not_running") throw err;
      return [true]; // a node gone, or no answer: kept, as the read found it
    });
    if (inside !== false) return;
    parent.children = parent.children.filter((c) => c !== child.raw);
    dropped += count(child.raw);
  });
  return dropped;
}

/** Coordinates past this are a toolkit's "no place" (GTK 3 answers INT_MIN, -2147483648). */
const NO_PLACE = 2 ** 30;

/**
 * `b`, or an empty box at 0,0 when the toolkit says the node has no place on screen (a
 * closed menu's item, a row scrolled out): such numbers are never put in the map.
 */
export function placeOf(b: RawNode["bounds"]): RawNode["bounds"] {
  const nowhere =
    [b.x, b.y, b.w, b.h].some((v) => !Number.isFinite(v) || Math.abs(v) >= NO_PLACE) ||
    // A hidden file-chooser cell said x -99466696 with no size: an empty box is placed nowhere.
    (b.w <= 0 && b.h <= 0 && (b.x !== 0 || b.y !== 0));
  return nowhere ? { x: 0, y: 0, w: 0, h: 0 } : b;
}

/** Has `b` no area to show anything in? */
const noArea = (b: RawNode["bounds"]) => b.w <= 0 || b.h <= 0;

/**
 * Drops, below `root`, every subtree whose nodes all have no area; answers how many nodes
 * went. GTK 4 says VISIBLE of what a hidden page holds (a Gtk.Stack's other pages: "Could
 * Not Open File" in a text editor) and never says SHOWING, so only the size it allocated
 * tells: nothing at all. A container of no size keeps a child that has one (GTK 4 does
 * not clip by default).
 */
export function pruneUnshown(root: RawNode): number {
  let dropped = 0;
  // Post-order without recursion: a node is judged once its children are.
  const empty = new Map<RawNode, boolean>();
  const stack: { node: RawNode; seen: boolean }[] = [{ node: root, seen: false }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (!top.seen) {
      stack.push({ node: top.node, seen: true });
      for (const c of top.node.children) stack.push({ node: c, seen: false });
      continue;
    }
    const n = top.node;
    const kept = n.children.filter((c) => !empty.get(c));
    for (const c of n.children) if (empty.get(c)) dropped += count(c);
    n.children = kept;
    empty.set(n, kept.length === 0 && noArea(n.bounds));
  }
  return dropped;
}

function count(n: RawNode): number {
  let total = 0;
  const stack = [n];
  while (stack.length > 0) {
    const m = stack.pop()!;
    total++;
    stack.push(...m.children);
  }
  return total;
}

function shell(node: SkeletonNode): RawNode {
  const s = node.states;
  return {
    handle: handleOf(node.ref),
    role: axRole(node.role, {
      multiLine: s.has(STATE.MULTI_LINE),
      editable: s.has(STATE.EDITABLE),
    }),
    // Menus pad their names to align accelerators ("Save      " in mousepad, LibreOffice).
    name: node.name.trim(),
    bounds: { x: 0, y: 0, w: 0, h: 0 },
    enabled: s.has(STATE.SENSITIVE) || s.has(STATE.ENABLED),
    focused: s.has(STATE.FOCUSED) || (s.has(STATE.ACTIVE) && atspiRoleName(node.role) === "frame"),
    actions: actionsOf(node),
    children: [],
    // -1: a manager that keeps its children out of the cache; its count means nothing.
    ...(node.childCount >= 0 ? { childCount: node.childCount } : {}),
    ...(node.table ? { table: node.table } : {}),
    ...statesOf(node),
  };
}

/** Roles that are on or off whether or not the toolkit says CHECKABLE (GTK 3 does not). */
const CHECKABLE_ROLES = new Set([
  "check_box",
  "radio_button",
  "check_menu_item",
  "radio_menu_item",
  "toggle_button",
  "switch",
]);

/**
 * Roles whose Value interface holds a state, not a quantity: LibreOffice gives every
 * toolbar item (its "New" button, its separators) one that holds whether it is checked.
 * Setting it is `check`'s job; offering `set_value` there only misleads.
 */
const VALUE_IS_STATE = new Set([
  "push_button",
  "push_button_menu",
  "toggle_button",
  "check_box",
  "radio_button",
  "menu_item",
  "check_menu_item",
  "radio_menu_item",
  "separator",
  // LibreOffice's menus and menu bars carry one too: no agent sets a menu's value.
  "menu",
  "menu_bar",
]);

/** Roles of fields whose value a label around them must not be named by. */
const FIELD_ROLES = new Set([
  "AXTextField",
  "AXTextArea",
  "AXPopUpButton",
  "AXComboBox",
  "AXIncrementor",
  "AXSlider",
]);

/**
 * A label that holds its field is named by its own words: Gecko names `<label>Fruit
 * <select></label>` "Fruit Apple", by the option shown, so the label's name, and every id
 * below it, followed the field's value.
 */
export function withoutFieldValue(raw: RawNode): void {
  if (raw.role !== "AXStaticText" || raw.name === "") return;
  for (const c of raw.children) {
    const value = (c.value ?? "").trim();
    if (!FIELD_ROLES.has(c.role) || value === "" || !raw.name.endsWith(value)) continue;
    const own = raw.name.slice(0, raw.name.length - value.length).trim();
    if (own !== "") raw.name = own;
    return;
  }
}

/**
 * Leaves the element's own value out of its label: a page's `<label>` holding its field
 * reads "Name Ann" once the field holds "Ann" (Gecko flattens the field into the label's
 * text), and "Fruit Apple" for a `<select>`. The label keys the element's id (map/ids.ts):
 * it must not follow the value.
 */
export function keyLabel(raw: RawNode): void {
  const label = raw.label ?? "";
  const value = (raw.value ?? "").trim();
  const at = value === "" ? -1 : label.lastIndexOf(value);
  const own = at < 0 ? label : (label.slice(0, at) + label.slice(at + value.length)).trim();
  if (own === "") delete raw.label;
  else raw.label = own.replace(/\s+/g, " ");
}

/**
 * GTK 4.8 names a widget nobody named by its type ("GtkImage" for an icon button,
 * "GtkToggleButton"): that is no name, and a description (its tooltip) names it instead.
 * Without one the type name stays (gnome-calculator's display is "GtkSourceView").
 */
const TYPE_NAME = /^Gtk[A-Z][A-Za-z]+$/;

/** Is `name` no name: empty, or a toolkit's type name, which a description replaces? */
export function unnamed(name: string): boolean {
  return name === "" || TYPE_NAME.test(name);
}

/**
 * Names a nameless field by its label, as a screen reader announces it: GTK's file
 * chooser leaves its Name entry unnamed, labelled by "Name:". The colon that ends a
 * label's words is punctuation, not a name's part.
 */
export function namedByLabel(raw: RawNode): void {
  if (raw.name !== "" || raw.label === undefined) return;
  raw.name = raw.label.replace(/\s*:\s*$/, "");
}

/**
 * Rows and cells, whose type name GTK 4.8 gives every one of a list or column view alike
 * ("GtkListItemWidget", "GtkColumnViewCell"): the map then told them apart by their order
 * alone, and a row inserted above took the next row's id. Nameless, a row is keyed by
 * what it shows (map/ids.ts), as GTK 3's are.
 */
const ROW_ROLES = new Set(["table_row", "table_cell", "list_item", "tree_item"]);

/** Leaves a row's or cell's type name out (see {@link ROW_ROLES}): it names nothing. */
export function withoutTypeName(role: number, raw: RawNode): void {
  if (TYPE_NAME.test(raw.name) && ROW_ROLES.has(atspiRoleName(role))) raw.name = "";
}

/**
 * Roles an agent acts on by name: one with an empty name is named by its description (the
 * tooltip of an icon button: "Replace all (F10)"), as a screen reader reads it.
 */
const DESCRIBED_ROLES = new Set([
  "push_button",
  "push_button_menu",
  "toggle_button",
  "check_box",
  "radio_button",
  "menu_item",
  "check_menu_item",
  "radio_menu_item",
  "combo_box",
  "link",
  "image",
  "icon",
  "slider",
  "spin_button",
  "text",
  "entry",
  "password_text",
]);

/** Is an unnamed node of AtspiRole `role` named by its description? */
export const namedByDescription = (role: number): boolean =>
  DESCRIBED_ROLES.has(atspiRoleName(role));

/** Checkable roles that only a sibling's check unchecks. */
const RADIO_ROLES = new Set(["radio_button", "radio_menu_item"]);

/**
 * Is `node` on or off: checkable by its states or role, or a push button that says
 * PRESSED? GTK 4.8 gives a toggle button a push button's role, PRESSED only while on (off,
 * nothing on the bus tells it from a plain button): while on it is known for a toggle.
 */
function checkable(node: SkeletonNode): boolean {
  const role = atspiRoleName(node.role);
  return node.states.has(STATE.CHECKABLE) || CHECKABLE_ROLES.has(role) ||
    (role === "push_button" && node.states.has(STATE.PRESSED));
}

/** The on/off, open/closed and selected states an agent checks an action by. */
function statesOf(node: SkeletonNode): Pick<RawNode, "checked" | "expanded" | "selected"> {
  const s = node.states;
  const out: Pick<RawNode, "checked" | "expanded" | "selected"> = {};
  if (checkable(node)) {
    // Gecko marks an ARIA toggle button (aria-pressed) PRESSED, not CHECKED.
    out.checked = s.has(STATE.INDETERMINATE)
      ? "mixed"
      : s.has(STATE.CHECKED) || s.has(STATE.PRESSED);
  }
  if (s.has(STATE.EXPANDABLE)) out.expanded = s.has(STATE.EXPANDED);
  if (s.has(STATE.SELECTABLE)) out.selected = s.has(STATE.SELECTED);
  return out;
}

/** What {@link AtspiEngine.act} can do with a node, from its interfaces and states. */
export function actionsOf(node: SkeletonNode): ActionName[] {
  const s = node.states;
  const out: ActionName[] = [];
  if (node.ifaces.has("Action")) out.push("press", "click");
  if (s.has(STATE.FOCUSABLE)) out.push("focus");
  // Chromium's inputs have no EditableText: their text is typed (act.ts).
  const editable = (node.ifaces.has("EditableText") || node.ifaces.has("Text")) &&
    s.has(STATE.EDITABLE) && !s.has(STATE.READ_ONLY);
  const role = atspiRoleName(node.role);
  const ranged = node.ifaces.has("Value") && !VALUE_IS_STATE.has(role);
  if (editable || ranged) out.push("set_value");
  if (editable) out.push("type_text");
  if (s.has(STATE.SELECTABLE)) out.push("select");
  if (s.has(STATE.EXPANDABLE)) out.push("expand", "collapse");
  // A combo box's list is its menu, though GTK 3 and Qt do not say it has a popup.
  if (s.has(STATE.HAS_POPUP) || (role === "combo_box" && node.ifaces.has("Action"))) {
    out.push("show_menu");
  }
  if (s.has(STATE.SELECTABLE) && node.ifaces.has("Component")) out.push("scroll_into_view");
  if (checkable(node)) {
    // A radio button is unchecked by checking another.
    out.push(...(RADIO_ROLES.has(role) ? ["check" as const] : ["check", "uncheck"] as const));
  }
  // A disabled element takes no input (a disabled combo offered `press`): it can only be
  // scrolled to. Its actions come back with the state change that enables it.
  if (!s.has(STATE.SENSITIVE) && !s.has(STATE.ENABLED)) {
    return out.filter((a) => a === "scroll_into_view");
  }
  return out;
}

/** Reads the node's text, at most {@link MAX_TEXT_CHARS}, into `raw.value`. */
async function readText(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
  role: string,
  raw: RawNode,
): Promise<void> {
  const count = Number(await client.prop(ref, "Text", "CharacterCount", limits));
  const end = Math.min(Math.max(count, 0), MAX_TEXT_CHARS);
  const [t] = end > 0 ? await client.call(ref, "Text", "GetText", limits, "ii", [0, end]) : [""];
  const text = String(t ?? "");
  if (EDITABLE_VALUE.has(role)) {
    raw.value = text;
  } else {
    // Static content: its words without the marks of embedded children, and only when
    // they say more than the name already does.
    const words = text.replace(EMBEDDED, " ").replace(/\s+/g, " ").trim();
    // Gecko names a label by all it holds, a field's value inside it too ("User name
    // alice"): its name, and the ids of everything in it, would change with each key
    // typed into the field. The label is named by its own words instead.
    if (role === "label" && words && text.includes("\uFFFC") && raw.name.startsWith(words)) {
      raw.name = words;
      return;
    }
    if (words === "" || words === raw.name) return;
    raw.value = words;
  }
  if (count > MAX_TEXT_CHARS) raw.truncated = true;
}

async function enrich(
  client: AtspiClient,
  { node, raw }: Kept,
  limits: CallLimits,
  known: Known,
): Promise<void> {
  const ref = node.ref;
  const role = atspiRoleName(node.role);
  const jobs: Promise<void>[] = [];
  const named = node.nameUnsure
    ? client.prop(ref, "Accessible", "Name", limits).then((name) => {
      raw.name = String(name ?? "").trim();
    })
    : Promise.resolve();
  if (node.nameUnsure || (unnamed(raw.name) && DESCRIBED_ROLES.has(role))) {
    jobs.push(named.then(async () => {
      if (!unnamed(raw.name) || !DESCRIBED_ROLES.has(role)) return;
      const description = String(
        await client.prop(ref, "Accessible", "Description", limits) ?? "",
      ).trim();
      if (description !== "") raw.name = description;
    }));
  }
  // A list's tick box (GTK 3's toggle cell: zenity's checklist) says CHECKED only while on
  // and CHECKABLE never: its "toggle" action is what tells it from a plain cell.
  // Its actions are asked once: a list's cells are read again with every change of it.
  // A Qt cell's "Toggle" selects it, and Qt never says whether a cell is editable: each
  // offers set_value, which opens its editor or answers that none opened (cell_editor.ts).
  if (role === "table_cell" && known.toolkits.get(ref.bus) === "Qt") {
    if (raw.enabled && !node.ifaces.has("Text") && node.ifaces.has("Component")) {
      for (const a of ["set_value", "type_text"] as const) {
        if (!raw.actions.includes(a)) raw.actions.push(a);
      }
    }
  } else if (role === "table_cell" && node.ifaces.has("Action") && !node.ifaces.has("Text")) {
    const fixed = known.get(ref);
    const toggle = fixed?.toggle !== undefined
      ? Promise.resolve(fixed.toggle)
      : actionNames(client, ref, limits).then((names) => {
        const has = names.includes("toggle");
        if (fixed) fixed.toggle = has;
        return has;
      });
    jobs.push(
      toggle.then((has) => {
        if (!has) return;
        raw.checked = node.states.has(STATE.CHECKED);
        for (const a of ["check", "uncheck"] as const) {
          if (!raw.actions.includes(a)) raw.actions.push(a);
        }
      }),
    );
  }
  if (known.noFocusRequest.has(ref.bus) && !raw.actions.includes("type_text")) {
    raw.actions = raw.actions.filter((a) => a !== "focus");
  }
  if (node.ifaces.has("Action")) {
    // GTK 4 puts the Action interface on every widget; only a non-zero count means the
    // element really can be pressed. Qt lists no action on a disabled widget, so a count
    // is remembered, and used, only while the node is enabled: a button enabled later
    // (FeatherPad's Save after a key) is asked again and offers `press`.
    const fixed = known.get(ref);
    const count = fixed?.actions !== undefined && raw.enabled
      ? Promise.resolve(fixed.actions)
      : client.prop(ref, "Action", "NActions", limits).then((n) => {
        if (!raw.enabled) return Number(n);
        known.set(ref, {
          ...known.get(ref),
          role: node.role,
          ifaces: node.ifaces,
          actions: Number(n),
        });
        return Number(n);
      });
    jobs.push(count.then((n) => {
      if (n === 0) raw.actions = raw.actions.filter((a) => a !== "press" && a !== "click");
    }));
  }
  if (node.ifaces.has("Component")) {
    jobs.push(
      client.extents(ref, limits).then(([x, y, w, h]) => {
        raw.bounds = placeOf({ x, y, w, h });
      }),
    );
  }
  // A field whose name may be its value is keyed by its label instead (map/ids.ts).
  if (LABELLED_ROLES.has(role)) {
    jobs.push(
      labelOf(client, ref, limits).then((label) => {
        if (label !== undefined) raw.label = label;
      }),
    );
  }
  // Password fields never have their text read.
  if (node.ifaces.has("Text") && TEXT_ROLES.has(role) && role !== "password_text") {
    const read = readText(client, ref, limits, role, raw);
    // A page's <select> has no text that says its option (combo_value.ts).
    const text = role === "combo_box"
      ? read.then(() => showChoice(client, ref, raw, limits))
      : read;
    // Chromium leaves a spin button's text as it was while its Value follows the keys:
    // a number shown that is not the Value is out of date. Gecko's is the other way round:
    // a date's part shows "06" and says a Value of 0.
    jobs.push(
      role === "spin_button" && node.ifaces.has("Value") && known.toolkits.get(ref.bus) !== "Gecko"
        ? Promise.all([text, client.prop(ref, "Value", "CurrentValue", limits)]).then(([, v]) => {
          const shown = Number(raw.value);
          if (typeof v === "number" && raw.value?.trim() && Number.isFinite(shown) && shown !== v) {
            raw.value = String(Math.round(v * 1e6) / 1e6);
          }
        })
        : text,
    );
  } else if (role === "combo_box") {
    jobs.push(showChoice(client, ref, raw, limits));
  } else if (node.ifaces.has("Value") && VALUE_ROLES.has(role)) {
    jobs.push(
      client.prop(ref, "Value", "CurrentValue", limits).then((v) => {
        if (typeof v === "number") raw.value = String(Math.round(v * 1e6) / 1e6);
      }),
    );
  }
  // One vanished node must not fail the whole read: it keeps its skeleton data.
  const results = await Promise.allSettled(jobs);
  if (raw.label !== undefined) keyLabel(raw);
  const failed = results.find((r) => r.status === "rejected");
  if (failed && failed.status === "rejected") {
    const err = failed.reason as { code?: string };
    if (err.code === "timeout" || err.code === "app_not_running") throw failed.reason;
  }
}
