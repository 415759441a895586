import assert from "node:assert/strict";
import type { RawNode } from "../model/engine.ts";
import { computeIds, visitIds } from "./ids.ts";
import { moved, node, syntheticWindow } from "./_fixtures.ts";

const WIN = { x: 200, y: 100, w: 600, h: 400 };

function row(name: string, y: number): RawNode {
  return node("AXRow", name, { x: 210, y, w: 580, h: 20 }, [
    node("AXStaticText", name, { x: 212, y, w: 300, h: 20 }),
    node("AXButton", "Delete", { x: 700, y, w: 60, h: 20 }),
  ]);
}

function idsByName(root: RawNode): Map<string, string> {
  const out = new Map<string, string>();
  visitIds(root, (n, id, parent) => out.set(`${parent ?? "-"}/${n.role}/${n.name}`, id));
  return out;
}

Deno.test("computeIds() gives the same ids for the same tree read twice", () => {
  const read = () =>
    node("AXWindow", "Notes", WIN, [
      node("AXList", "", WIN, [row("Alpha", 110), row("Beta", 130)]),
    ]);
  assert.deepEqual(computeIds(read()), computeIds(read()));
});

Deno.test("computeIds() matches recorded ids, so they agree across processes", () => {
  // Recorded once; a change here means every stored id and replay changes too.
  const t = node("AXWindow", "Untitled", { x: 0, y: 0, w: 400, h: 300 }, [
    node("AXButton", "OK", { x: 10, y: 10, w: 80, h: 24 }),
    node("AXButton", "OK", { x: 100, y: 10, w: 80, h: 24 }),
    node("AXStaticText", "Hello", { x: 10, y: 40, w: 200, h: 20 }),
  ]);
  assert.deepEqual(computeIds(t), ["nw8xxy9bqp04", "0vv31adnhk1q", "cn7qxmcjeqn7", "fh935ypvrryj"]);
});

Deno.test("computeIds() gives 12-character lowercase base32 ids, all distinct", () => {
  const ids = computeIds(syntheticWindow(5000, 7));
  assert.equal(ids.length, 5000);
  assert.equal(new Set(ids).size, 5000);
  for (const id of ids) assert.match(id, /^[0-9a-hjkmnp-tv-z]{12}$/);
});

Deno.test("computeIds() shifts no id when a sibling with another name is inserted", () => {
  const before = node("AXWindow", "Notes", WIN, [
    node("AXList", "", WIN, [row("Alpha", 110), row("Beta", 130), row("Gamma", 150)]),
  ]);
  const after = node("AXWindow", "Notes", WIN, [
    node("AXToolbar", "Tools", WIN),
    node("AXList", "", WIN, [
      row("Zeta", 90),
      row("Alpha", 110),
      row("Beta", 130),
      row("Aleph", 140),
      row("Gamma", 150),
    ]),
  ]);
  const was = idsByName(before);
  const now = idsByName(after);
  for (const [key, id] of was) assert.equal(now.get(key), id, key);
  assert.equal(now.size, was.size + 7);
});

Deno.test("computeIds() gives same-named children of different rows different ids", () => {
  const ids = computeIds(
    node("AXWindow", "Notes", WIN, [row("Alpha", 110), row("Beta", 130)]),
  );
  // [window, row A, text A, delete A, row B, text B, delete B]
  assert.notEqual(ids[3], ids[6]);
});

Deno.test("computeIds() keeps twin ids when the whole window moves or reflows", () => {
  const tree = (dy: number) =>
    node("AXWindow", "Dialog", WIN, [
      node("AXButton", "OK", { x: 210, y: 300 + dy, w: 80, h: 24 }),
      node("AXButton", "OK", { x: 400, y: 300 + dy, w: 80, h: 24 }),
      node("AXButton", "Cancel", { x: 500, y: 300, w: 80, h: 24 }),
    ]);
  const ids = computeIds(tree(0));
  assert.equal(new Set(ids).size, 4);
  assert.deepEqual(computeIds(moved(tree(0), 333, -57.5)), ids);
  // A status text reflowing the pane moves twins by a few points: FeatherPad's editor.
  assert.deepEqual(computeIds(tree(13)), ids);
});

Deno.test("computeIds() tells twins apart by order: one added after shifts nobody", () => {
  const a = node("AXButton", "OK", { x: 210, y: 300, w: 80, h: 24 });
  const b = node("AXButton", "OK", { x: 400, y: 300, w: 80, h: 24 });
  const c = node("AXButton", "OK", { x: 600, y: 300, w: 80, h: 24 });
  const [, ia, ib] = computeIds(node("AXWindow", "D", WIN, [a, b]));
  const [, ia2, ib2, ic2] = computeIds(node("AXWindow", "D", WIN, [a, b, c]));
  assert.equal(ia2, ia);
  assert.equal(ib2, ib);
  assert.notEqual(ic2, ia);
  assert.notEqual(ic2, ib);
});

Deno.test("computeIds() keeps a lone element's id once a twin appears after it", () => {
  // LibreOffice Calc: editing a cell adds an unnamed group beside the sheet's own one;
  // the old rule then hashed both by bounds and every cell below changed id.
  const sheet = () => node("AXTable", "Sheet Items", WIN, [node("AXCell", "A1", WIN)]);
  const group = (kids: RawNode[]) => node("AXGroup", "", WIN, kids);
  const before = node("AXWindow", "Calc", WIN, [group([sheet()])]);
  const after = node("AXWindow", "Calc", WIN, [group([sheet()]), group([])]);
  assert.deepEqual(computeIds(after).slice(0, 4), computeIds(before));
});

Deno.test("computeIds() keeps ids when the window title changes", () => {
  const kids = () => [row("Alpha", 110), row("Beta", 130)];
  assert.deepEqual(
    computeIds(node("AXWindow", "Untitled", WIN, kids())),
    computeIds(node("AXWindow", "Untitled — Edited", WIN, kids())),
  );
});

Deno.test("computeIds() still makes distinct ids for identical twins", () => {
  const at = (x: number) => node("AXGroup", "", { x, y: 120, w: 10, h: 10 });
  const ids = computeIds(node("AXWindow", "D", WIN, [at(300), at(300), at(300)]));
  assert.equal(new Set(ids).size, 4);
});

Deno.test("computeIds() gives a renamed element a new id", () => {
  const [, before] = computeIds(node("AXWindow", "D", WIN, [node("AXButton", "Save", WIN)]));
  const [, after] = computeIds(node("AXWindow", "D", WIN, [node("AXButton", "Save As", WIN)]));
  assert.notEqual(after, before);
});

Deno.test("visitIds() gives the same ids when the visitor hashes another tree", () => {
  const tree = () => node("AXWindow", "D", WIN, [row("Alpha", 110), row("Beta", 130)]);
  const nested: string[] = [];
  visitIds(tree(), (_n, id) => {
    nested.push(id);
    computeIds(tree());
  });
  assert.deepEqual(nested, computeIds(tree()));
});

/** The ids of `root`'s nodes by the handle each was given (not the fixture's own `h<n>`). */
function idsByHandle(root: RawNode): Map<string, string> {
  const out = new Map<string, string>();
  visitIds(root, (n, id) => {
    if (!/^h\d+$/.test(n.handle)) out.set(n.handle, id);
  });
  return out;
}

Deno.test("computeIds() keeps a field's id, and its children's, as its value is typed", () => {
  const field = (text: string) =>
    node("AXTextField", text, { x: 210, y: 110, w: 200, h: 24 }, [
      node("AXButton", "Clear", { x: 390, y: 112, w: 16, h: 16 }, [], { handle: "clear" }),
    ], { value: text, handle: "field" });
  const before = idsByHandle(node("AXWindow", "Find", WIN, [field("")]));
  const after = idsByHandle(node("AXWindow", "Find — hello", WIN, [field("hello")]));
  assert.deepEqual(after, before);
});

Deno.test("computeIds() keeps a combo's id, and its list's, when its shown option changes", () => {
  const combo = (shown: string) =>
    node("AXPopUpButton", shown, { x: 210, y: 110, w: 200, h: 24 }, [
      node("AXMenu", "", WIN, [
        node("AXMenuItem", "Small", WIN, [], { handle: "small" }),
        node("AXMenuItem", "Large", WIN, [], { handle: "large" }),
      ], { handle: "menu" }),
    ], { handle: "combo" });
  const before = idsByHandle(node("AXWindow", "Prefs", WIN, [combo("Small")]));
  assert.deepEqual(idsByHandle(node("AXWindow", "Prefs", WIN, [combo("Large")])), before);
});

Deno.test("computeIds() keys value-named elements by their label, when the engine gives one", () => {
  const field = (label: string, handle: string) => {
    const n = node("AXTextField", "", WIN, [], { handle });
    n.label = label;
    return n;
  };
  const before = idsByHandle(node("AXWindow", "Form", WIN, [field("Last name", "last")]));
  const after = idsByHandle(
    node("AXWindow", "Form", WIN, [field("First name", "first"), field("Last name", "last")]),
  );
  // An unlabelled field would have become the second of two twins.
  assert.equal(after.get("last"), before.get("last"));
  assert.notEqual(after.get("first"), after.get("last"));
});

Deno.test("computeIds() keys a cell by its coordinates, not its contents", () => {
  const cell = (row: number, column: number, text: string) => {
    const n = node("AXCell", text, WIN, [], { value: text, handle: `c${row}.${column}` });
    n.cell = { row, column };
    return n;
  };
  const sheet = (a2: string) =>
    node("AXWindow", "Calc", WIN, [
      node("AXTable", "Sheet", WIN, [cell(0, 0, "Item"), cell(1, 0, a2), cell(1, 1, a2)]),
    ]);
  const before = idsByHandle(sheet("Row 1"));
  const after = idsByHandle(sheet("Changed"));
  assert.deepEqual(after, before);
  // Twin contents do not make twin cells: ids stay distinct and need no order.
  assert.equal(new Set(after.values()).size, after.size);
});

Deno.test("computeIds() names an unnamed row by its contents: one inserted above shifts nobody", () => {
  // Thunar (GTK 3 tree view): each row's first cell is an unnamed container holding an
  // icon cell and the file name's cell; the size cells beside them are twins.
  const row = (file: string, y: number) =>
    node("AXCell", "", { x: 171, y, w: 300, h: 24 }, [
      node("AXCell", "", { x: 171, y, w: 24, h: 24 }, [], { handle: `${file}/icon` }),
      node("AXCell", file, { x: 200, y, w: 270, h: 24 }, [], { handle: `${file}/name` }),
    ], { handle: file });
  const list = (files: string[]) =>
    node("AXWindow", "Thunar", WIN, [
      node("AXTable", "", WIN, files.map((f, i) => row(f, 120 + 26 * i)), { handle: "table" }),
    ]);
  const before = idsByHandle(list(["draft.txt", "notes.txt"]));
  const after = idsByHandle(list(["alpha.txt", "draft.txt", "notes.txt"]));
  for (const [handle, id] of before) assert.equal(after.get(handle), id, handle);
});

Deno.test("computeIds() names unnamed items by their contents, leaving values out", () => {
  const item = (value: string) =>
    node("AXRow", "", WIN, [
      node("AXTextField", "", WIN, [], { value }),
      node("AXStaticText", "Due date", WIN),
    ], { handle: "row" });
  const before = idsByHandle(
    node("AXWindow", "Tasks", WIN, [node("AXList", "", WIN, [item("a")])]),
  );
  const after = idsByHandle(node("AXWindow", "Tasks", WIN, [node("AXList", "", WIN, [item("b")])]));
  assert.equal(after.get("row"), before.get("row"));
});

Deno.test("computeIds() keeps paragraph ids when its document is retitled or a twin is added", () => {
  // LibreOffice Writer: paragraphs are unnamed groups whose words are their value; the
  // document body is named by the document's title.
  const para = (text: string, handle: string) =>
    node("AXGroup", "", WIN, [], { value: text, handle });
  const doc = (title: string, paras: RawNode[]) =>
    node("AXWindow", title, WIN, [node("AXTextArea", title, WIN, paras)]);
  const before = idsByHandle(doc("Untitled 1", [para("Alpha", "p1"), para("Beta", "p2")]));
  const after = idsByHandle(
    doc("notes.odt", [para("Alpha", "p1"), para("Beta", "p2"), para("Beta", "p3")]),
  );
  for (const [handle, id] of before) assert.equal(after.get(handle), id, handle);
});
