import assert from "node:assert/strict";
import type { PatchScope, RawNode } from "../model/engine.ts";
import { applyPatch, containersToCheck } from "./patch.ts";

function n(handle: string, children: RawNode[] = [], name = handle): RawNode {
  return {
    handle,
    role: "AXGroup",
    name,
    bounds: { x: 0, y: 0, w: 10, h: 10 },
    enabled: true,
    focused: false,
    actions: [],
    children,
  };
}

const tree = () => n("w", [n("a", [n("a1"), n("a2")]), n("b")]);
const names = (r: RawNode): string[] => [r.name, ...r.children.flatMap(names)];

Deno.test("applyPatch() replaces a node's attributes and keeps its children", () => {
  const root = tree();
  const read = { ...n("a", [], "A!"), value: "v" };
  const p = applyPatch(root, new Map([["a", read]]), new Map([["a", "node" as const]]));
  assert.deepEqual(names(p.root), ["w", "A!", "a1", "a2", "b"]);
  assert.equal(p.root.children[0]!.value, "v");
  assert.equal(p.nodes, 5);
});

Deno.test("applyPatch() takes every field of a node read, and drops those it lacks", () => {
  const root = tree();
  root.children[1] = { ...n("b"), checked: false, truncated: true, value: "old" };
  const read = { ...n("b"), checked: true, expanded: false };
  const p = applyPatch(root, new Map([["b", read]]), new Map([["b", "node" as const]]));
  const b = p.root.children[1]!;
  assert.equal(b.checked, true);
  assert.equal(b.expanded, false);
  assert.equal("truncated" in b, false);
  assert.equal("value" in b, false);
});

Deno.test("applyPatch() swaps in a subtree read and removes a node that is gone", () => {
  const root = tree();
  const p = applyPatch(
    root,
    new Map<string, RawNode | null>([["a", n("a", [n("a9")])], ["b", null]]),
    new Map([["a", "subtree" as const], ["b", "node" as const]]),
  );
  assert.deepEqual(names(p.root), ["w", "a", "a9"]);
  assert.equal(p.nodes, 3);
});

Deno.test("applyPatch() lets an ancestor's subtree read win over a child's attribute read", () => {
  const p = applyPatch(
    tree(),
    new Map([["a1", n("a1", [], "stale")], ["a", n("a", [n("a1", [], "fresh")])]]),
    new Map([["a1", "node" as const], ["a", "subtree" as const]]),
  );
  assert.deepEqual(names(p.root), ["w", "a", "fresh", "b"]);
});

Deno.test("applyPatch() reports unknown handles and a window that is gone", () => {
  const p = applyPatch(tree(), new Map([["zz", n("zz")]]), new Map([["zz", "node" as const]]));
  assert.deepEqual(p.unknown, ["zz"]);
  assert.equal(p.windowGone, false);
  const gone = applyPatch(tree(), new Map([["w", null]]), new Map([["w", "node" as const]]));
  assert.equal(gone.windowGone, true);
});

Deno.test("applyPatch() moves a node on a bounds read and keeps everything else", () => {
  const moved = { ...n("", [], "ignored"), bounds: { x: 5, y: 6, w: 7, h: 8 } };
  const p = applyPatch(tree(), new Map([["b", moved]]), new Map([["b", "bounds" as const]]));
  const b = p.root.children[1]!;
  assert.deepEqual(b.bounds, { x: 5, y: 6, w: 7, h: 8 });
  assert.equal(b.name, "b");
  assert.equal(b.handle, "b");
});

Deno.test("widerScope() keeps the widest of two scopes", async () => {
  const { widerScope } = await import("./patch.ts");
  assert.equal(widerScope(undefined, "bounds"), "bounds");
  assert.equal(widerScope("bounds", "node"), "node");
  assert.equal(widerScope("subtree", "bounds"), "subtree");
});

Deno.test("containersToCheck() takes the read nodes' ancestors below the window, once each", () => {
  const leaf = (handle: string): RawNode => ({ ...n(handle), childCount: 0 });
  const list: RawNode = { ...n("list", [leaf("row1"), leaf("row2")]), childCount: 2 };
  const panel: RawNode = { ...n("panel", [list, leaf("label")]), childCount: 2 };
  const win: RawNode = { ...n("win", [panel]), childCount: 1 };
  const got = (scopes: [string, PatchScope][], limit = 16) =>
    containersToCheck(win, new Map(scopes), limit).map((n) => n.handle);
  assert.deepEqual(got([["row1", "node"], ["row2", "bounds"]]), ["list", "panel"]);
  assert.deepEqual(got([["label", "node"]]), ["panel"], "a leaf is no container");
  assert.deepEqual(got([["list", "subtree"]]), ["panel"], "a subtree read needs no count");
  assert.deepEqual(got([["row1", "node"]], 1), ["list"], "nearest first, up to the limit");
  assert.deepEqual(got([["win", "node"]]), [], "the window is the probe's");
});
