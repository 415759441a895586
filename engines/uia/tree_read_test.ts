import assert from "node:assert/strict";
import { ComPtr } from "../../ffi/windows/com.ts";
import type { RawNode } from "../../model/engine.ts";
import { type FakeNode, FakeUia } from "./_testing.ts";
import { WindowHandles } from "./handles.ts";
import { PATTERN } from "./ids.ts";
import { readCachedTree } from "./tree_read.ts";
import { walkBounded } from "./tree_walk.ts";

/** A Calculator-like window: a display, a keypad with digits, one offscreen pane. */
function calculator(): FakeNode {
  const words = ["Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"];
  const digit = (d: number): FakeNode => ({
    name: words[d]!,
    controlType: 50000,
    rect: [10 + d * 50, 300, 58 + d * 50, 340],
    focusable: true,
    patterns: [PATTERN.Invoke],
  });
  return {
    name: "Calculator",
    controlType: 50032,
    rect: [0, 0, 600, 800],
    children: [
      {
        name: "Display is 0",
        controlType: 50020,
        rect: [10, 100, 590, 180],
        value: "0",
        patterns: [PATTERN.Value],
        valueReadOnly: true,
      },
      {
        name: "Number pad",
        controlType: 50026,
        rect: [0, 290, 600, 700],
        children: [0, 1, 2, 7, 8].map(digit),
      },
      {
        name: "Memory",
        controlType: 50033,
        offscreen: true,
        children: [{ name: "MC", controlType: 50000 }],
      },
    ],
  };
}

function names(n: RawNode): string[] {
  return [n.name, ...n.children.flatMap(names)];
}

Deno.test("readCachedTree() walks the cached subtree through the element vtable", () => {
  const uia = new FakeUia(calculator());
  try {
    const table = new WindowHandles();
    const root = new ComPtr(uia.element(uia.root), "IUIAutomationElement");
    const tree = readCachedTree(uia.ole, root, 100, table);
    assert.equal(tree.nodes, 10);
    assert.equal(tree.truncated, false);
    assert.equal(tree.root.role, "AXWindow");
    assert.deepEqual(tree.root.bounds, { x: 0, y: 0, w: 600, h: 800 });
    const display = tree.root.children[0]!;
    assert.equal(display.role, "AXStaticText");
    assert.equal(display.value, "0");
    const seven = tree.root.children[1]!.children[3]!;
    assert.equal(seven.name, "Seven");
    assert.deepEqual(seven.actions, ["press", "click", "focus"]);
    assert.deepEqual(seven.bounds, { x: 360, y: 300, w: 48, h: 40 });
    assert.equal(
      seven.handle,
      uia.root.children![1]!.children![3]!.runtimeId!.map((n) => n.toString(36)).join("."),
    );
    assert.equal(table.get(seven.handle) !== undefined, true);
    assert.equal(table.root, tree.root.handle);
    // Every element the read took is held by the table; the arrays are gone.
    assert.deepEqual(uia.live(), { elements: 10, arrays: 0, patterns: 0 });
    assert.equal(uia.ole.live, 0, "every BSTR, SAFEARRAY and VARIANT was freed");
    table.release();
    assert.deepEqual(uia.live(), { elements: 0, arrays: 0, patterns: 0 });
  } finally {
    uia.close();
  }
});

Deno.test("readCachedTree() stops at the element budget and releases what it cut", () => {
  const uia = new FakeUia(calculator());
  try {
    const table = new WindowHandles();
    const tree = readCachedTree(uia.ole, new ComPtr(uia.element(uia.root), "E"), 4, table);
    assert.equal(tree.nodes, 4);
    assert.equal(tree.truncated, true);
    assert.deepEqual(names(tree.root), ["Calculator", "Display is 0", "Number pad", "Zero"]);
    assert.equal(uia.live().elements, 4);
    table.release();
    assert.deepEqual(uia.live(), { elements: 0, arrays: 0, patterns: 0 });
  } finally {
    uia.close();
  }
});

Deno.test("twins with one runtime id get distinct handles", () => {
  const root = calculator();
  const pad = root.children![1]!;
  pad.children![1]!.runtimeId = [42, 999];
  pad.children![2]!.runtimeId = [42, 999];
  const uia = new FakeUia(root);
  try {
    const table = new WindowHandles();
    const tree = readCachedTree(uia.ole, new ComPtr(uia.element(uia.root), "E"), 100, table);
    const [a, b] = [tree.root.children[1]!.children[1]!, tree.root.children[1]!.children[2]!];
    assert.equal(a.handle, "16.rr");
    assert.equal(b.handle, "16.rr~2");
    table.release();
  } finally {
    uia.close();
  }
});

Deno.test("walkBounded() fetches one element per call, skips what is off screen, honours max", () => {
  const uia = new FakeUia(calculator());
  try {
    let calls = 0;
    const setup = {
      ole: uia.ole,
      walker: new ComPtr(uia.walker(), "IUIAutomationTreeWalker"),
      request: new ComPtr(uia.walker(), "IUIAutomationCacheRequest"), // only passed through
      countCall: () => calls++,
    };
    const table = new WindowHandles();
    const full = walkBounded(setup, new ComPtr(uia.element(uia.root), "E"), 100, Infinity, table);
    assert.equal(full.truncated, false);
    assert.equal(full.nodes, 8, "the offscreen Memory pane and its child are not kept");
    assert.ok(!names(full.root).includes("Memory"));
    assert.deepEqual(names(full.root).slice(0, 4), [
      "Calculator",
      "Display is 0",
      "Number pad",
      "Zero",
    ]);
    assert.ok(calls >= 8);
    table.release();
    assert.equal(uia.live().elements, 0, "skipped and kept elements were all released");

    const small = new WindowHandles();
    const cut = walkBounded(setup, new ComPtr(uia.element(uia.root), "E"), 3, Infinity, small);
    assert.equal(cut.nodes, 3);
    assert.equal(cut.truncated, true);
    small.release();
    const late = new WindowHandles();
    const timed = walkBounded(setup, new ComPtr(uia.element(uia.root), "E"), 100, 0, late);
    assert.equal(timed.nodes, 1, "a passed deadline keeps only the root");
    assert.equal(timed.truncated, true);
    late.release();
    assert.equal(uia.live().elements, 0);
    setup.walker.release();
    setup.request.release();
  } finally {
    uia.close();
  }
});
