import assert from "node:assert/strict";
import type { Element } from "../protocol/element.ts";
import { inScreenOrder, pageOf, PageScope } from "./page_scope.ts";

const el = (id: string, role: string, parent?: string, offscreen = false): Element => ({
  id,
  role,
  name: id,
  bounds: { x: 0, y: 0, w: offscreen ? 0 : 10, h: 10 },
  enabled: true,
  focused: false,
  actions: [],
  ...(parent ? { parent } : {}),
  ...(offscreen ? { offscreen: true as const } : {}),
});

/** A browser window: bars, a hidden tab's document, the showing one with a form. */
const browser = [
  el("win", "AXWindow"),
  el("bar", "AXToolbar", "win"),
  el("back", "AXButton", "bar"),
  el("old", "AXWebArea", "win", true),
  el("oldText", "AXStaticText", "old"),
  el("doc", "AXWebArea", "win"),
  el("form", "AXGroup", "doc"),
  el("user", "AXTextField", "form"),
  el("go", "AXButton", "form"),
];

Deno.test("pageOf() is the showing web document's subtree; none without one", () => {
  assert.deepEqual(pageOf(browser)?.map((e) => e.id), ["doc", "form", "user", "go"]);
  assert.equal(pageOf([el("win", "AXWindow"), el("ok", "AXButton", "win")]), undefined);
});

Deno.test("PageScope cuts reads and the diffs after them to the page", () => {
  const scope = new PageScope();
  const read = scope.read("w1", browser);
  assert.deepEqual(read.shown.map((e) => e.id), ["doc", "form", "user", "go"]);
  assert.equal(read.chrome, 5);
  const cut = scope.diff("w1", {
    added: [
      el("err", "AXStaticText", "form"),
      el("errIcon", "AXImage", "err"),
      el("tab2", "AXButton", "bar"),
    ],
    changed: [el("user", "AXTextField", "form"), el("back", "AXButton", "bar")],
    removed: ["go", "back"],
  });
  assert.deepEqual(cut.shown.added.map((e) => e.id), ["err", "errIcon"]);
  assert.deepEqual(cut.shown.changed.map((e) => e.id), ["user"]);
  assert.deepEqual(cut.shown.removed, ["go"]);
  assert.equal(cut.chrome, 3);
  // A window read whole (or never read) is shown whole.
  scope.forget("w1");
  assert.equal(scope.diff("w1", { added: [], changed: [browser[2]!], removed: [] }).chrome, 0);
  const plain = scope.read("w2", [el("win", "AXWindow"), el("ok", "AXButton", "win")]);
  assert.deepEqual([plain.shown.length, plain.chrome], [2, 0]);
});

Deno.test("pageOf() with beyond takes parentless elements in the page's column below its top", () => {
  const doc = { ...el("doc", "AXWebArea", "win"), bounds: { x: 10, y: 150, w: 900, h: 500 } };
  const row = (id: string, x: number, y: number) => ({
    ...el(id, "AXButton"),
    bounds: { x, y, w: 50, h: 20 },
  });
  const found = [el("win", "AXWindow"), doc, row("row60", 20, 2400), row("menu", 20, 40)];
  assert.deepEqual(pageOf(found, true)?.map((e) => e.id), ["doc", "row60"]);
  assert.deepEqual(pageOf(found)?.map((e) => e.id), ["doc"]);
});

Deno.test("inScreenOrder() puts rows found beyond the map in their place", () => {
  const row = (id: string, y: number): Element => ({
    ...el(id, "AXRow", "table"),
    bounds: { x: 0, y, w: 9, h: 9 },
  });
  const list = [
    el("doc", "AXWebArea"),
    el("table", "AXTable", "doc"),
    row("r5", 50),
    row("r6", 60),
    row("r1", 10),
    el("c1", "AXCell", "r1"),
    row("r9", 90),
  ];
  const order = inScreenOrder(list, new Set(["doc", "table", "r5", "r6"]));
  assert.deepEqual(order.map((e) => e.id), ["doc", "table", "r1", "c1", "r5", "r6", "r9"]);
  // A map alone keeps its order.
  const map = inScreenOrder(list.slice(0, 4), new Set(["doc", "table", "r5", "r6"]));
  assert.deepEqual(map.map((e) => e.id), ["doc", "table", "r5", "r6"]);
});
