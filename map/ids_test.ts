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
  assert.deepEqual(computeIds(t), ["nw8xxy9bqp04", "k42x0a3gv2kp", "zk5cs0z6sdvq", "t0560f8qj4ny"]);
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

Deno.test("computeIds() keeps twin ids when the whole window moves", () => {
  const tree = node("AXWindow", "Dialog", WIN, [
    node("AXButton", "OK", { x: 210, y: 300, w: 80, h: 24 }),
    node("AXButton", "OK", { x: 400, y: 300, w: 80, h: 24 }),
    node("AXButton", "Cancel", { x: 500, y: 300, w: 80, h: 24 }),
  ]);
  const ids = computeIds(tree);
  assert.equal(new Set(ids).size, 4);
  assert.deepEqual(computeIds(moved(tree, 333, -57.5)), ids);
});

Deno.test("computeIds() tells twins apart by bounds, not by order", () => {
  const a = node("AXButton", "OK", { x: 210, y: 300, w: 80, h: 24 });
  const b = node("AXButton", "OK", { x: 400, y: 300, w: 80, h: 24 });
  const c = node("AXButton", "OK", { x: 600, y: 300, w: 80, h: 24 });
  const [, ia, ib] = computeIds(node("AXWindow", "D", WIN, [a, b]));
  const [, ic2, ib2, ia2] = computeIds(node("AXWindow", "D", WIN, [c, b, a]));
  assert.equal(ia2, ia);
  assert.equal(ib2, ib);
  assert.notEqual(ic2, ia);
  assert.notEqual(ic2, ib);
});

Deno.test("computeIds() gives a lone element a new twin id once a twin appears", () => {
  // The rule: every sibling whose (role, name) is shared mixes in bounds, the first too.
  const a = node("AXButton", "OK", { x: 210, y: 300, w: 80, h: 24 });
  const b = node("AXButton", "OK", { x: 400, y: 300, w: 80, h: 24 });
  const [, alone] = computeIds(node("AXWindow", "D", WIN, [a]));
  const [, twin] = computeIds(node("AXWindow", "D", WIN, [a, b]));
  assert.notEqual(twin, alone);
});

Deno.test("computeIds() keeps ids when the window title changes", () => {
  const kids = () => [row("Alpha", 110), row("Beta", 130)];
  assert.deepEqual(
    computeIds(node("AXWindow", "Untitled", WIN, kids())),
    computeIds(node("AXWindow", "Untitled — Edited", WIN, kids())),
  );
});

Deno.test("computeIds() still makes distinct ids for twins on the same 8-pt cell", () => {
  const at = (x: number) => node("AXGroup", "", { x, y: 120, w: 10, h: 10 });
  const ids = computeIds(node("AXWindow", "D", WIN, [at(300), at(301), at(302)]));
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
