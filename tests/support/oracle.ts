/**
 * An independent reading of an app: pyatspi (python3-pyatspi, the screen readers' own
 * library) walks the app's windows in a separate process, so a test checks an effect by
 * what the app itself publishes, never by the driver's answer.
 *
 * @module
 */

/** One node as pyatspi reads it. */
export interface OracleNode {
  /** pyatspi's role name (`push button`, `text`, ...). */
  role: string;
  /** Accessible name. */
  name: string;
  /** Text contents (Text interface), when the node has them. */
  text?: string;
  /** Current value (Value interface), when the node has one. */
  value?: number;
  /** The first selected range of its text, when some is selected. */
  selected?: string;
  /** It has the keyboard focus. */
  focused?: boolean;
}

const SCRIPT = `
import json, sys
import pyatspi
pid, limit, max_depth = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
out = []
def walk(node, depth):
    if node is None or len(out) >= limit or depth > max_depth:
        return
    entry = {"role": node.getRoleName(), "name": node.name or ""}
    if node.getState().contains(pyatspi.STATE_FOCUSED):
        entry["focused"] = True
    try:
        t = node.queryText()
        entry["text"] = t.getText(0, min(t.characterCount, 4096))
        if t.getNSelections() > 0:
            start, end = t.getSelection(0)
            entry["selected"] = t.getText(start, end)
    except Exception:
        pass
    try:
        entry["value"] = node.queryValue().currentValue
    except Exception:
        pass
    out.append(entry)
    for i in range(min(node.childCount, 1000)):
        walk(node.getChildAtIndex(i), depth + 1)
desktop = pyatspi.Registry.getDesktop(0)
for app in desktop:
    if app is not None and app.get_process_id() == pid:
        for window in app:
            walk(window, 0)
print(json.dumps(out))
`;

/**
 * The nodes of process `pid`'s windows, depth first, at most `limit`, at most `maxDepth`
 * below each window (0: the windows alone). Throws with pyatspi's error output when the
 * walk fails.
 */
export async function oracleNodes(
  pid: number,
  limit = 5_000,
  maxDepth = 64,
): Promise<OracleNode[]> {
  return await pyatspiJson<OracleNode[]>(SCRIPT, [pid, limit, maxDepth], 30_000);
}

/** Runs pyatspi `script` with `args` in the system Python; its stdout is JSON. */
async function pyatspiJson<T>(
  script: string,
  args: readonly (string | number)[],
  timeoutMs: number,
): Promise<T> {
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script, ...args.map(String)],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  }).output();
  const text = new TextDecoder();
  if (!out.success) throw new Error(`pyatspi walk failed: ${text.decode(out.stderr)}`);
  return JSON.parse(text.decode(out.stdout)) as T;
}

/** One showing node of a window, as pyatspi reads it. */
export interface ShownNode {
  /** AtspiRole number. */
  role: number;
  /** pyatspi's role name. */
  roleName: string;
  /** Accessible name. */
  name: string;
  /** Text contents (Text interface), at most 10,000 characters. */
  text: string;
}

const SHOWN_SCRIPT = `
import json, re, sys
import pyatspi
pid, title, limit = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
shown = pyatspi.STATE_VISIBLE if sys.argv[4] == "visible" else pyatspi.STATE_SHOWING
DESCRIBED = {"push_button", "push_button_menu", "toggle_button", "check_box", "radio_button",
    "menu_item", "check_menu_item", "radio_menu_item", "combo_box", "link", "image", "icon",
    "slider", "spin_button", "text", "entry", "password_text"}
ROWS = {"table_row", "table_cell", "list_item", "tree_item"}
out = []
def sized(node):
    try:
        e = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        return e.width > 0 and e.height > 0
    except Exception:
        return False
def walk(node, top):
    if node is None or len(out) >= limit:
        return
    st = node.getState()
    if not top and not st.contains(shown):
        return
    name = node.name or ""
    # A screen reader reads an unnamed widget by its description (a tooltip), and GTK 4.8's
    # type-name fallback ("GtkImage") is no name: the driver's rule, said the same way.
    described = node.getRoleName().replace(" ", "_") in DESCRIBED
    if described and (name == "" or re.fullmatch(r"Gtk[A-Z][A-Za-z]+", name)) and (node.description or "").strip():
        name = node.description.strip()
    # GTK 4.8 names every row and cell of a list by its type ("GtkListItemWidget"): no name.
    if node.getRoleName().replace(" ", "_") in ROWS and re.fullmatch(r"Gtk[A-Z][A-Za-z]+", name):
        name = ""
    entry = {"role": int(node.getRole()), "roleName": node.getRoleName(), "name": name, "text": ""}
    try:
        t = node.queryText()
        entry["text"] = t.getText(0, min(t.characterCount, 10000))
    except Exception:
        pass
    at = len(out)
    out.append(entry)
    # A container that manages its descendants is not walked (a sheet has a billion cells).
    if st.contains(pyatspi.STATE_MANAGES_DESCENDANTS) or node.childCount > 5000:
        return
    for i in range(node.childCount):
        walk(node.getChildAtIndex(i), False)
    # GTK 4 says VISIBLE of what a hidden page or an unused list row holds: a subtree of no
    # size anywhere shows nothing.
    if shown == pyatspi.STATE_VISIBLE and not top and len(out) == at + 1 and not sized(node):
        out.pop()
for app in pyatspi.Registry.getDesktop(0):
    if app is not None and app.get_process_id() == pid:
        for window in app:
            if window is not None and title in (window.name or ""):
                walk(window, True)
                print(json.dumps(out))
                sys.exit(0)
print(json.dumps(out))
`;

/**
 * The showing nodes of process `pid`'s window whose title contains `title`, depth first,
 * at most `limit`: what a screen reader would walk. Containers that manage their
 * descendants are listed but not walked. GTK 4 marks its widgets VISIBLE, never SHOWING:
 * for it, `state` is `visible`, and a subtree with no size anywhere (a hidden stack page, a
 * list row not in use) is left out.
 */
export async function oracleShown(
  pid: number,
  title: string,
  state: "showing" | "visible" = "showing",
  limit = 5_000,
): Promise<ShownNode[]> {
  return await pyatspiJson<ShownNode[]>(SHOWN_SCRIPT, [pid, title, limit, state], 60_000);
}

/** One node's states and place, as pyatspi reads them. */
export interface OracleState {
  /** pyatspi's state names (`checked`, `expanded`, `selected`, `showing`, ...). */
  states: string[];
  /** Screen extents `[x, y, w, h]`. */
  extents: [number, number, number, number];
  /** Text contents, when it has a Text interface. */
  text?: string;
  /** Its actions' names, when it has an Action interface. */
  actions?: string[];
}

/**
 * Python shared by the scripts that look for one node: its screen box, the first node
 * depth first below a node that passes a test (bounded in depth and children), and the
 * first window of process `pid` in which `find(window)` answers a node, with that window.
 */
const FIRST_NODE = `
import json, sys
import pyatspi
def box(node):
    e = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return [e.x, e.y, e.width, e.height]
def first_where(node, test, max_depth, max_children, depth=0):
    if node is None or depth > max_depth:
        return None
    if test(node):
        return node
    for i in range(min(node.childCount, max_children)):
        found = first_where(node.getChildAtIndex(i), test, max_depth, max_children, depth + 1)
        if found is not None:
            return found
    return None
def first_in_windows(pid, find):
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.get_process_id() == pid:
            for window in app:
                node = find(window)
                if node is not None:
                    return window, node
    return None, None
`;

const STATE_SCRIPT = `${FIRST_NODE}
pid, roles, name, nth = int(sys.argv[1]), set(sys.argv[2].split("|")), sys.argv[3], int(sys.argv[4])
deep = sys.argv[5] == "1"
seen = [0, 0]
def walk(node):
    if node is None or seen[0] > 20000:
        return None
    seen[0] += 1
    if node.getRoleName() in roles and (node.name or "") == name:
        if seen[1] == nth:
            return node
        seen[1] += 1
    manager = node.getState().contains(pyatspi.STATE_MANAGES_DESCENDANTS)
    if (manager and not deep) or node.childCount > 5000:
        return None
    for i in range(node.childCount):
        found = walk(node.getChildAtIndex(i))
        if found is not None:
            return found
    return None
_, node = first_in_windows(pid, walk)
if node is None:
    print("null")
    sys.exit(0)
entry = {
    "states": [pyatspi.stateToString(s) for s in node.getState().getStates()],
    "extents": box(node),
}
try:
    t = node.queryText()
    entry["text"] = t.getText(0, min(t.characterCount, 4096))
except Exception:
    pass
try:
    a = node.queryAction()
    entry["actions"] = [a.getName(i) for i in range(a.nActions)]
except Exception:
    pass
print(json.dumps(entry))
`;

/**
 * The states and extents of the `nth` (0-based, document order, hidden ones too) node of
 * process `pid` with pyatspi role name `role` (or one of `a|b`) and accessible name
 * `name`, or null. With `deep`, lists that manage their descendants are walked too (up to
 * 5,000 children: a Qt list of a few hundred rows).
 */
export async function oracleState(
  pid: number,
  role: string,
  name: string,
  nth = 0,
  deep = false,
): Promise<OracleState | null> {
  const args = [pid, role, name, nth, deep ? 1 : 0];
  return await pyatspiJson<OracleState | null>(STATE_SCRIPT, args, 30_000);
}

const CELL_SCRIPT = `${FIRST_NODE}
pid, row, column = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
manages = lambda n: n.getState().contains(pyatspi.STATE_MANAGES_DESCENDANTS)
window, t = first_in_windows(pid, lambda w: first_where(w, manages, 30, 200))
if t is None:
    print("null")
    sys.exit(0)
cell = t.queryTable().getAccessibleAt(row, column)
try:
    text = cell.queryText().getText(0, -1)
except NotImplementedError:
    text = None
print(json.dumps({"name": cell.name, "text": text, "extents": box(cell), "window": box(window)}))
`;

/** A cell of the first table that manages its descendants, as pyatspi reads it. */
export interface OracleCell {
  /** The cell's accessible name. */
  name: string;
  /** Its text (null when it has no Text interface). */
  text: string | null;
  /** Its screen extents `[x, y, w, h]`. */
  extents: [number, number, number, number];
  /** Its window's screen extents. */
  window: [number, number, number, number];
}

/**
 * Cell (`row`, `column`) (0-based) of the first table of process `pid` that manages its
 * descendants (a GTK tree view), asked by `Table.GetAccessibleAt` as a screen reader
 * would, or null when the app has no such table.
 */
export async function oracleCell(
  pid: number,
  row: number,
  column: number,
): Promise<OracleCell | null> {
  return await pyatspiJson<OracleCell | null>(CELL_SCRIPT, [pid, row, column], 30_000);
}

const FOCUSED_LENGTH_SCRIPT = `${FIRST_NODE}
pid = int(sys.argv[1])
focused = lambda n: n.getState().contains(pyatspi.STATE_FOCUSED)
_, node = first_in_windows(pid, lambda w: first_where(w, focused, 40, 500))
print("null" if node is None else node.queryText().characterCount)
`;

/** How many characters the focused text of process `pid` holds, or null without focus. */
export async function oracleFocusedLength(pid: number): Promise<number | null> {
  return await pyatspiJson<number | null>(FOCUSED_LENGTH_SCRIPT, [pid], 30_000);
}

const POPUP_SCRIPT = `${FIRST_NODE}
pid, name, nth = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
seen = [0]
def combo(node):
    if node.getRoleName() != "combo box" or (node.name or "") != name:
        return False
    seen[0] += 1
    return seen[0] == nth + 1
_, node = first_in_windows(pid, lambda w: first_where(w, combo, 40, 500))
if node is None:
    print("null")
    sys.exit(0)
shown = []
for i in range(min(node.childCount, 4)):
    kid = node.getChildAtIndex(i)
    x, y, w, h = box(kid)
    if kid.getState().contains(pyatspi.STATE_SHOWING) and w > 0 and h > 0:
        shown += [kid.getChildAtIndex(j).name for j in range(min(kid.childCount, 50))]
print(json.dumps(shown))
`;

/**
 * The names of the options that the `nth` combo box named `name` of process `pid` shows in
 * an open popup (a child showing with an area on screen: Qt's closed list says SHOWING at
 * (0, 0) with none), empty when its popup is closed; null when there is no such combo.
 */
export async function oraclePopup(pid: number, name: string, nth = 0): Promise<string[] | null> {
  return await pyatspiJson<string[] | null>(POPUP_SCRIPT, [pid, name, nth], 30_000);
}

/** One showing node of a window with its screen box, as pyatspi reads it. */
export interface BoxedNode {
  /** pyatspi's role name. */
  roleName: string;
  /** Accessible name. */
  name: string;
  /** Screen extents `[x, y, w, h]` (desktop coordinates). */
  extents: [number, number, number, number];
}

const BOXES_SCRIPT = `
import json, sys
import pyatspi
pid, title, limit = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
out = []
def walk(node, top):
    if node is None or len(out) >= limit:
        return
    st = node.getState()
    if not top and not st.contains(pyatspi.STATE_SHOWING):
        return
    e = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    out.append({"roleName": node.getRoleName(), "name": node.name or "",
                "extents": [e.x, e.y, e.width, e.height]})
    if st.contains(pyatspi.STATE_MANAGES_DESCENDANTS) or node.childCount > 5000:
        return
    for i in range(node.childCount):
        walk(node.getChildAtIndex(i), False)
for app in pyatspi.Registry.getDesktop(0):
    if app is not None and app.get_process_id() == pid:
        for window in app:
            if window is not None and title in (window.name or ""):
                walk(window, True)
                break
print(json.dumps(out))
`;

/**
 * The showing nodes of process `pid`'s window whose title contains `title` (the window
 * first), each with its screen box, depth first, at most `limit`: where the app itself
 * says its elements are.
 */
export async function oracleBoxes(pid: number, title: string, limit = 2_000): Promise<BoxedNode[]> {
  return await pyatspiJson<BoxedNode[]>(BOXES_SCRIPT, [pid, title, limit], 60_000);
}
