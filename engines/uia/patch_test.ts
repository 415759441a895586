import assert from "node:assert/strict";
import { ComPtr } from "../../ffi/windows/com.ts";
import { FakeUia } from "./_testing.ts";
import type { CacheRequests } from "./cache.ts";
import { WindowHandles } from "./handles.ts";
import { readPatch } from "./patch.ts";
import { readCachedTree } from "./tree_read.ts";

Deno.test("readPatch() re-reads bounds, a node, or a subtree, keeping handles", () => {
  const root = {
    name: "Notepad",
    controlType: 50032,
    rect: [0, 0, 800, 600] as [number, number, number, number],
    children: [{
      name: "Text editor",
      controlType: 50030,
      rect: [0, 50, 800, 600] as [number, number, number, number],
      value: "a",
      patterns: [10002],
      children: [{ name: "old", controlType: 50020 }],
    }],
  };
  const uia = new FakeUia(root);
  try {
    const table = new WindowHandles();
    const tree = readCachedTree(uia.ole, new ComPtr(uia.element(root), "E"), 100, table);
    const editor = tree.root.children[0]!;
    const request = new ComPtr(uia.walker(), "IUIAutomationCacheRequest"); // passed through only
    const requests = {
      subtree: request,
      element: request,
      bounds: request,
      events: request,
    } as CacheRequests;
    let calls = 0;
    const setup = { ole: uia.ole, requests, countCall: () => calls++ };

    root.children[0]!.rect = [0, 60, 800, 600];
    const moved = readPatch(
      setup,
      table,
      { handle: editor.handle, scope: "bounds" },
      table.get(editor.handle)!,
      100,
    );
    assert.deepEqual(moved?.bounds, { x: 0, y: 60, w: 800, h: 540 });

    root.children[0]!.value = "ab";
    const node = readPatch(
      setup,
      table,
      { handle: editor.handle, scope: "node" },
      table.get(editor.handle)!,
      100,
    );
    assert.equal(node?.value, "ab");
    assert.equal(node?.handle, editor.handle);
    assert.deepEqual(node?.children, []);

    root.children[0]!.children = [{ name: "new", controlType: 50020 }, {
      name: "newer",
      controlType: 50020,
    }];
    const sub = readPatch(
      setup,
      table,
      { handle: editor.handle, scope: "subtree" },
      table.get(editor.handle)!,
      100,
    );
    assert.equal(sub?.handle, editor.handle, "the patched root keeps its handle");
    assert.deepEqual(sub?.children.map((c) => c.name), ["new", "newer"]);
    assert.equal(calls, 3, "one BuildUpdatedCache per request");
    assert.equal(table.size, 4, "the old child was released, the new ones are held");
    table.release();
    request.release();
    assert.deepEqual(uia.live(), { elements: 0, arrays: 0, patterns: 0 });
    assert.equal(uia.ole.live, 0);
  } finally {
    uia.close();
  }
});
