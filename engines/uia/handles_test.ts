import assert from "node:assert/strict";
import type { ComPtr } from "../../ffi/windows/com.ts";
import { HandleTable, WindowHandles } from "./handles.ts";

function fakePtr(log: string[], name: string): ComPtr {
  return { release: () => log.push(name) } as unknown as ComPtr;
}

Deno.test("WindowHandles releases replaced entries and dropped descendants", () => {
  const log: string[] = [];
  const w = new WindowHandles();
  w.set("root", fakePtr(log, "root"));
  w.set("a", fakePtr(log, "a"));
  w.set("a1", fakePtr(log, "a1"));
  w.setChildren("root", ["a"]);
  w.setChildren("a", ["a1"]);
  assert.equal(w.root, "root");
  assert.equal(w.unique("a"), "a~2");
  assert.equal(w.unique("b"), "b");
  w.set("a", fakePtr(log, "a'"));
  assert.deepEqual(log, ["a"]);
  w.dropDescendants("root");
  assert.deepEqual(log, ["a", "a'", "a1"]);
  assert.equal(w.size, 1);
  w.release();
  assert.deepEqual(log.at(-1), "root");
  assert.equal(w.root, undefined);
});

Deno.test("HandleTable keeps the most recently read windows and releases the rest", () => {
  const log: string[] = [];
  const t = new HandleTable(2);
  for (const name of ["w1", "w2", "w3"]) {
    const h = new WindowHandles();
    h.set("x", fakePtr(log, name));
    const evicted = t.replace(name, h);
    if (name === "w3") assert.deepEqual(evicted, ["w1"]);
  }
  assert.deepEqual(log, ["w1"]);
  assert.equal(t.window("w1"), undefined);
  const again = new WindowHandles();
  again.set("x", fakePtr(log, "w2'"));
  t.replace("w2", again);
  assert.deepEqual(log, ["w1", "w2"]);
  t.drop("w3");
  t.clear();
  assert.deepEqual(log, ["w1", "w2", "w3", "w2'"]);
});
