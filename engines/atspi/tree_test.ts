import assert from "node:assert/strict";
import type { RawNode } from "../../model/engine.ts";
import {
  actionsOf,
  keyLabel,
  namedByLabel,
  placeOf,
  pruneUnshown,
  withoutTypeName,
} from "./tree.ts";
import { visitIds } from "../../map/ids.ts";
import { refused } from "./named_action.ts";
import type { SkeletonNode } from "./skeleton.ts";
import { STATE, StateSet } from "./states.ts";
import { ATSPI_ROLES } from "./roles.ts";

function raw(handle: string, w: number, h: number, children: RawNode[] = []): RawNode {
  return {
    handle,
    role: "AXGroup",
    name: handle,
    bounds: { x: 0, y: 0, w, h },
    enabled: true,
    focused: false,
    actions: [],
    children,
  };
}

const handles = (n: RawNode): string[] => [n.handle, ...n.children.flatMap(handles)];

Deno.test("pruneUnshown() drops subtrees of no size and keeps sized children of empty nodes", () => {
  const root = raw("window", 400, 300, [
    raw("page", 0, 0, [raw("shown", 400, 20)]),
    raw("hidden page", 0, 0, [raw("could not open", 0, 0), raw("retry", 0, 0, [raw("l", 0, 0)])]),
    raw("line", 400, 0),
  ]);
  assert.equal(pruneUnshown(root), 5);
  assert.deepEqual(handles(root), ["window", "page", "shown"]);
});

Deno.test("pruneUnshown() never drops the root", () => {
  const root = raw("window", 0, 0, [raw("a", 0, 0)]);
  assert.equal(pruneUnshown(root), 1);
  assert.deepEqual(handles(root), ["window"]);
});

Deno.test("placeOf() turns a toolkit's no-place extents into an empty box", () => {
  const min = -2147483648;
  assert.deepEqual(placeOf({ x: min, y: min, w: 1, h: 1 }), { x: 0, y: 0, w: 0, h: 0 });
  assert.deepEqual(placeOf({ x: 10, y: 20, w: 30, h: 40 }), { x: 10, y: 20, w: 30, h: 40 });
  assert.deepEqual(placeOf({ x: -50, y: 0, w: 30, h: 40 }), { x: -50, y: 0, w: 30, h: 40 });
  // A hidden GTK file-chooser cell: no size, somewhere far off.
  const far = { x: -99466696, y: 32764, w: 0, h: 0 };
  assert.deepEqual(placeOf(far), { x: 0, y: 0, w: 0, h: 0 });
});

Deno.test("keyLabel() leaves the element's own value out of its label", () => {
  const field = (label: string, value?: string): RawNode => ({
    ...raw("field", 10, 10),
    label,
    ...(value === undefined ? {} : { value }),
  });
  const cases: [string, string | undefined, string | undefined][] = [
    ["Name Ann", "Ann", "Name"],
    ["Fruit Apple", "Apple", "Fruit"],
    ["Volume 50", "50", "Volume"],
    ["Name", "", "Name"],
    ["Size", undefined, "Size"],
    ["Ann", "Ann", undefined],
  ];
  for (const [label, value, want] of cases) {
    const node = field(label, value);
    keyLabel(node);
    assert.equal(node.label, want, `${label} / ${value}`);
  }
});

/** A skeleton node of AT-SPI role `role` with `states` and `ifaces`. */
function skeletonNode(role: string, states: number[], ifaces: string[]): SkeletonNode {
  const lo = states.filter((s) => s < 32).reduce((w, s) => w | (1 << s), 0) >>> 0;
  const hi = states.filter((s) => s >= 32).reduce((w, s) => w | (1 << (s - 32)), 0) >>> 0;
  return {
    ref: { bus: ":1.1", path: "/n" },
    role: ATSPI_ROLES.indexOf(role as (typeof ATSPI_ROLES)[number]),
    name: "n",
    states: new StateSet([lo, hi]),
    ifaces: new Set(ifaces),
    children: [],
    childCount: 0,
  };
}

Deno.test("actionsOf() offers a disabled element nothing but scroll_into_view", () => {
  const enabled = skeletonNode("combo_box", [STATE.ENABLED, STATE.SENSITIVE, STATE.SELECTABLE], [
    "Action",
    "Component",
  ]);
  assert.ok(actionsOf(enabled).includes("press"));
  const disabled = skeletonNode("combo_box", [STATE.SELECTABLE], ["Action", "Component"]);
  assert.deepEqual(actionsOf(disabled), ["scroll_into_view"]);
});

Deno.test("actionsOf() offers no set_value on a menu whose Value holds a state (LibreOffice)", () => {
  for (const role of ["menu", "menu_bar", "menu_item", "push_button"]) {
    const node = skeletonNode(role, [STATE.ENABLED, STATE.SENSITIVE], ["Action", "Value"]);
    assert.ok(!actionsOf(node).includes("set_value"), role);
  }
  const slider = skeletonNode("slider", [STATE.ENABLED, STATE.SENSITIVE], ["Value"]);
  assert.ok(actionsOf(slider).includes("set_value"));
});

Deno.test("refused() ends its sentence with what the element offers", () => {
  const node = {
    ...raw("Terminal", 10, 10),
    name: "Terminal",
    actions: ["press", "focus"] as const,
  };
  assert.equal(
    refused({ ...node, actions: [...node.actions] }, "type into").message,
    'Cannot type into "Terminal": its actions are press, focus',
  );
  assert.equal(
    refused({ ...node, actions: [] }, "type into").message,
    'Cannot type into "Terminal": it offers no action',
  );
});

const roleCode = (name: string) => (ATSPI_ROLES as readonly string[]).indexOf(name);

/** A GTK 4.8 column view's list as its bridge names it, then as the tree keeps it. */
function columnView(people: readonly [string, string][]): RawNode {
  const node = (role: string, atspi: string, name: string, children: RawNode[] = []) => {
    const n: RawNode = { ...raw(name, 10, 10, children), role, name };
    withoutTypeName(roleCode(atspi), n);
    return n;
  };
  const cell = (text: string) =>
    node("AXCell", "table_cell", "GtkColumnViewCell", [node("AXStaticText", "label", text)]);
  return node("AXList", "list", "GtkColumnListView", [
    ...people.map(([name, age]) =>
      node("AXRow", "table_row", "GtkListItemWidget", [cell(name), cell(age)])
    ),
  ]);
}

Deno.test("withoutTypeName() leaves out a row's or cell's type name, and only theirs", () => {
  const named = (atspi: string, name: string) => {
    const n = { ...raw(name, 10, 10), name };
    withoutTypeName(roleCode(atspi), n);
    return n.name;
  };
  assert.equal(named("table_row", "GtkListItemWidget"), "");
  assert.equal(named("table_cell", "GtkColumnViewCell"), "");
  assert.equal(named("list_item", "GtkListBoxRow"), "");
  assert.equal(named("table_row", "Bob"), "Bob");
  // An icon button keeps its type name: with no tooltip it is all that tells it.
  assert.equal(named("push_button", "GtkToggleButton"), "GtkToggleButton");
  assert.equal(named("panel", "GtkColumnViewTitle"), "GtkColumnViewTitle");
});

Deno.test("a GTK 4 column view's row keeps its cell ids when a row is inserted before it", () => {
  const idsOf = (root: RawNode) => {
    const out = new Map<string, string>();
    visitIds(root, (n, id) => {
      if (n.role === "AXCell") out.set(n.children[0]!.name, id);
    });
    return out;
  };
  const before = idsOf(columnView([["Ann", "31"], ["Bob", "25"], ["Cid", "40"]]));
  const after = idsOf(columnView([["Dee", "22"], ["Ann", "31"], ["Bob", "25"], ["Cid", "40"]]));
  for (const text of ["Ann", "31", "Bob", "25", "Cid", "40"]) {
    assert.equal(after.get(text), before.get(text), text);
  }
});

Deno.test("actionsOf() knows a push button that says PRESSED for a toggle (GTK 4.8's, while on)", () => {
  const on = skeletonNode("push_button", [STATE.ENABLED, STATE.SENSITIVE, STATE.PRESSED], [
    "Action",
  ]);
  assert.ok(actionsOf(on).includes("check") && actionsOf(on).includes("uncheck"));
  // Off, GTK 4.8's toggle says nothing a plain button does not: neither offers check.
  const off = skeletonNode("push_button", [STATE.ENABLED, STATE.SENSITIVE], ["Action"]);
  assert.ok(!actionsOf(off).includes("check"));
});

Deno.test("namedByLabel() names a nameless field by its label, without the colon", () => {
  const field = (name: string, label?: string): RawNode => ({
    handle: "h",
    role: "AXTextField",
    name,
    bounds: { x: 0, y: 0, w: 1, h: 1 },
    enabled: true,
    focused: false,
    actions: [],
    children: [],
    ...(label === undefined ? {} : { label }),
  });
  const chooser = field("", "Name:");
  namedByLabel(chooser);
  assert.equal(chooser.name, "Name");
  const own = field("Search", "Find:");
  namedByLabel(own);
  assert.equal(own.name, "Search", "its own name stays");
  const none = field("");
  namedByLabel(none);
  assert.equal(none.name, "");
});
