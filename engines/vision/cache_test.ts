import assert from "node:assert/strict";
import { canvas, fill } from "./_testing.ts";
import { captureKey, LruCache } from "./cache.ts";

Deno.test("captureKey() depends on the pixels and size, not where they are", () => {
  const a = canvas(20, 10, 200, { x: 0, y: 0 });
  const moved = canvas(20, 10, 200, { x: 300, y: 40 });
  assert.match(captureKey(a), /^[0-9a-f]{16}$/);
  assert.equal(captureKey(a), captureKey(moved));
  assert.notEqual(captureKey(a), captureKey(canvas(10, 20, 200)));
  const changed = canvas(20, 10, 200);
  fill(changed, { x: 19, y: 9, w: 1, h: 1 }, 201);
  assert.notEqual(captureKey(a), captureKey(changed));
});

Deno.test("captureKey() reads unaligned pixels", () => {
  const a = canvas(3, 1, 9);
  const buf = new Uint8Array(a.rgba.length + 1);
  buf.set(a.rgba, 1);
  assert.equal(captureKey({ ...a, rgba: buf.subarray(1) }), captureKey(a));
});

Deno.test("LruCache drops the least recently used entry", () => {
  const cache = new LruCache<number>(2);
  cache.set("a", 1);
  cache.set("b", 2);
  assert.equal(cache.get("a"), 1); // a is now the most recent
  cache.set("c", 3);
  assert.equal(cache.get("b"), undefined);
  assert.equal(cache.get("a"), 1);
  assert.equal(cache.get("c"), 3);
  assert.equal(cache.size, 2);
});

Deno.test("LruCache of size 0 keeps nothing", () => {
  const cache = new LruCache<number>(0);
  cache.set("a", 1);
  assert.equal(cache.get("a"), undefined);
  assert.equal(cache.size, 0);
});
