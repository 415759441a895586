import assert from "node:assert/strict";
import type { Element } from "../protocol/element.ts";
import { clip, diffOutline, elementLine, header, MAX_TEXT, outline, treeOrder } from "./outline.ts";

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
  assert.equal(elementLine(el("a")), 'a AXButton "A" @1,3,30,20');
  assert.equal(
    elementLine(el("t", undefined, { role: "AXTextArea", value: "7", focused: true }), 2),
    '    t AXTextArea "T" [7] @1,3,30,20 focused',
  );
  assert.equal(
    elementLine(el("d", undefined, { enabled: false })),
    'd AXButton "D" @1,3,30,20 disabled',
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
  assert.deepEqual(o.lines, ['root AXButton "ROOT" @1,3,30,20', '  b1 AXButton "B1" @1,3,30,20']);
  assert.equal(o.omitted, 1);
});

Deno.test("diffOutline() marks added, changed and removed", () => {
  const o = diffOutline({ added: [el("n")], changed: [el("c")], removed: ["gone"] }, 10);
  assert.deepEqual(o.lines, [
    '+ n AXButton "N" @1,3,30,20',
    '~ c AXButton "C" @1,3,30,20',
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
  assert.deepEqual(o.lines.map((l) => l.replace(/ @.*/, "")), [
    'win AXWindow "Page"',
    '  h AXHeading "Sign in"',
    '  pt AXStaticText "Not signed in"',
    '  li AXRow "" [• First item]',
    '    a AXLink "more"',
    '  named AXGroup "Toolbar"',
    '  checked AXGroup ""',
  ]);
  assert.equal(o.omitted, 0);
});

Deno.test("elementLine() says a value only when it differs from the name", () => {
  assert.equal(
    elementLine(el("s", undefined, { role: "AXStaticText", name: "Code ", value: "Code" })),
    's AXStaticText "Code " @1,3,30,20',
  );
  assert.equal(
    elementLine(el("f", undefined, { role: "AXTextField", name: "Code", value: "" })),
    'f AXTextField "Code" [] @1,3,30,20',
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
