import assert from "node:assert/strict";
import type { Element } from "../protocol/element.ts";
import {
  clip,
  diffOutline,
  elementLine,
  header,
  MAX_TEXT,
  outline,
  shortIds,
  styleFor,
  treeOrder,
} from "./outline.ts";

function el(id: string, parent?: string, extra: Partial<Element> = {}): Element {
  return {
    id,
    role: "AXButton",
    name: id.toUpperCase(),
    bounds: { x: 1.4, y: 2.6, w: 30, h: 20 },
    enabled: true,
    focused: false,
    actions: ["press"],
    ...(parent === undefined ? {} : { parent }),
    ...extra,
  };
}

Deno.test("elementLine() shows id, role, quoted name, value, rounded bounds and flags", () => {
  assert.equal(elementLine(el("a")), 'a AXButton "A"');
  assert.equal(
    elementLine(el("t", undefined, { role: "AXTextArea", value: "7", focused: true }), 2),
    '    t AXTextArea "T" [7] focused',
  );
  assert.equal(
    elementLine(el("d", undefined, { enabled: false })),
    'd AXButton "D" disabled',
  );
});

Deno.test("elementLine() escapes quotes and newlines and clips long text", () => {
  const line = elementLine(el("q", undefined, { name: 'say "hi"\nnow', value: "x".repeat(500) }));
  assert.ok(line.startsWith('q AXButton "say \\"hi\\"\\nnow" ['), line);
  assert.ok(line.includes(`…(+${500 - MAX_TEXT} chars)]`), line);
  assert.equal(clip("short"), "short");
});

Deno.test("treeOrder() puts children under their parents, depth first", () => {
  const order = treeOrder([el("b1", "root"), el("root"), el("c1", "b1"), el("b2", "root")]);
  assert.deepEqual(order.map(([e, d]) => `${e.id}:${d}`), ["root:0", "b1:1", "c1:2", "b2:1"]);
});

Deno.test("treeOrder() treats a missing parent as a root and keeps elements in a cycle", () => {
  const order = treeOrder([el("orphan", "gone"), el("x", "y"), el("y", "x")]);
  assert.deepEqual(order.map(([e]) => e.id).sort(), ["orphan", "x", "y"]);
  assert.equal(order[0]![0].id, "orphan");
});

Deno.test("outline() indents by depth and counts what the budget left out", () => {
  const o = outline([el("root"), el("b1", "root"), el("c1", "b1")], 2);
  assert.deepEqual(o.lines, ['root AXButton "ROOT"', '  b1 AXButton "B1"']);
  assert.equal(o.omitted, 1);
});

Deno.test("diffOutline() marks added, changed and removed", () => {
  const o = diffOutline({ added: [el("n")], changed: [el("c")], removed: ["gone"] }, 10);
  assert.deepEqual(o.lines, [
    '+ n AXButton "N"',
    '~ c AXButton "C"',
    "- gone",
  ]);
  assert.equal(diffOutline({ added: [], changed: [], removed: ["a", "b"] }, 1).omitted, 1);
});

Deno.test("header() writes flags bare, quotes text with spaces and skips empty fields", () => {
  assert.equal(
    header({
      app: "gnome-calculator",
      title: "My doc",
      version: 3,
      cached: true,
      gone: false,
      x: undefined,
    }),
    'app=gnome-calculator title="My doc" version=3 cached',
  );
});

Deno.test("outline() leaves out hollow containers and echoed text runs, keeping their content", () => {
  const group = (id: string, parent?: string, extra: Partial<Element> = {}) =>
    el(id, parent, { role: "AXGroup", name: "", actions: ["press", "click"], ...extra });
  const text = (id: string, parent: string, name: string) =>
    el(id, parent, { role: "AXStaticText", name, actions: [] });
  const o = outline([
    el("win", undefined, { role: "AXWindow", name: "Page" }),
    group("g1", "win"),
    group("g2", "g1"),
    el("h", "g2", { role: "AXHeading", name: "Sign in" }),
    text("ht", "h", "Sign in"),
    group("p", "g2", { value: "Not signed in" }),
    text("pt", "p", "Not signed in"),
    el("li", "g2", { role: "AXRow", name: "", value: "• First item" }),
    text("b", "li", "• "),
    text("t", "li", "First item"),
    el("a", "li", { role: "AXLink", name: "more" }),
    group("empty", "g2"),
    group("named", "g2", { name: "Toolbar" }),
    group("checked", "g2", { checked: true }),
  ], 100);
  assert.deepEqual(o.lines, [
    'win AXWindow "Page"',
    '  h AXHeading "Sign in"',
    '  pt AXStaticText "Not signed in"',
    "  li AXRow [• First item]",
    '    a AXLink "more"',
    '  named AXGroup "Toolbar"',
    "  checke AXGroup checked",
  ]);
  assert.equal(o.omitted, 0);
});

Deno.test("elementLine() says a value only when it differs from the name", () => {
  assert.equal(
    elementLine(el("s", undefined, { role: "AXStaticText", name: "Code ", value: "Code" })),
    's AXStaticText "Code "',
  );
  assert.equal(
    elementLine(el("f", undefined, { role: "AXTextField", name: "Code", value: "" })),
    'f AXTextField "Code" []',
  );
});

Deno.test("outline() folds empty text runs and labels a control beside them is named by", () => {
  const e = (id: string, role: string, name: string, parent?: string, value?: string) => ({
    id,
    role,
    name,
    bounds: { x: 0, y: 0, w: 1, h: 1 },
    enabled: true,
    focused: false,
    actions: [],
    ...(parent ? { parent } : {}),
    ...(value !== undefined ? { value } : {}),
  });
  const o = outline([
    e("form", "AXWebArea", "Form"),
    e("gap", "AXStaticText", "", "form"),
    e("label", "AXStaticText", "", "form", "Region:"),
    e("region", "AXPopUpButton", "Region", "form", "Europe"),
    e("note", "AXStaticText", "", "form", "Pick one"),
  ], 100);
  assert.deepEqual(o.lines.map((l) => l.trim().split(" ").slice(0, 3).join(" ")), [
    'form AXWebArea "Form"',
    'region AXPopUpButton "Region"',
    'note AXStaticText "Pick',
  ]);
  assert.equal(o.folded, 2);
});

Deno.test("shortIds() shows 6 characters, more only to tell ids apart", () => {
  const short = shortIds(["abcdefghijkl", "abcdefxyzxyz", "abcdefxyQQQQ", "zzzzzz000000", "ab"]);
  assert.equal(short("zzzzzz000000"), "zzzzzz");
  assert.equal(short("abcdefghijkl"), "abcdefg");
  assert.equal(short("abcdefxyzxyz"), "abcdefxyz");
  assert.equal(short("abcdefxyQQQQ"), "abcdefxyQ");
  assert.equal(short("ab"), "ab");
});

Deno.test("elementLine() shows bounds only when the style asks", () => {
  const e = el("a1b2c3d4e5f6");
  assert.equal(elementLine(e), 'a1b2c3 AXButton "A1B2C3D4E5F6"');
  assert.equal(
    elementLine(e, 1, styleFor([e], true)),
    '  a1b2c3 AXButton "A1B2C3D4E5F6" @1,3,30,20',
  );
});

Deno.test("outline() says a name its children say once, and offscreen once per subtree", () => {
  const cell = (id: string, parent: string, name: string, extra: Partial<Element> = {}) =>
    el(id, parent, { role: "AXCell", name, actions: [], ...extra });
  const far = { offscreen: true as const };
  const o = outline([
    el("table", undefined, { role: "AXTable", name: "" }),
    el("row", "table", { role: "AXRow", name: "web-001 stopped Restart", ...far }),
    cell("c1", "row", "web-001", far),
    cell("c2", "row", "stopped", far),
    cell("c3", "row", "Restart", far),
    el("go", "c3", { name: "Restart", ...far }),
    // A button's name is said by the text run inside it, which is left out instead.
    el("ok", "table", { name: "OK" }),
    el("okText", "ok", { role: "AXStaticText", name: "OK", actions: [] }),
  ], 100);
  assert.deepEqual(o.lines, [
    "table AXTable",
    "  row AXRow offscreen",
    '    c1 AXCell "web-001"',
    '    c2 AXCell "stopped"',
    "    c3 AXCell",
    '      go AXButton "Restart"',
    '  ok AXButton "OK"',
  ]);
});

Deno.test("outline() folds a legend's text under a hollow wrapper of the group it names", () => {
  const o = outline([
    el("set", undefined, { role: "AXGroup", name: "Notifications", actions: [] }),
    el("legend", "set", { role: "AXGroup", name: "", actions: [] }),
    el("legendText", "legend", { role: "AXStaticText", name: "Notifications", actions: [] }),
    el("box", "set", { role: "AXCheckBox", name: "Email alerts", checked: true }),
  ], 100);
  assert.deepEqual(o.lines, [
    'set AXGroup "Notifications"',
    '  box AXCheckBox "Email alerts" checked',
  ]);
});
