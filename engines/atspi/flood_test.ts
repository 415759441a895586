import assert from "node:assert/strict";
import { BoundsFilter } from "./flood.ts";

const clock = () => {
  let t = 0;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
};

Deno.test("BoundsFilter drops a rect a node already posted, per node and per app", () => {
  const c = clock();
  const f = new BoundsFilter(undefined, c.now);
  assert.equal(f.see(":1.5", "/a", "[1,2,3,4]"), "news");
  assert.equal(f.see(":1.5", "/a", "[1,2,3,4]"), "repeat");
  assert.equal(f.see(":1.5", "/b", "[1,2,3,4]"), "news");
  assert.equal(f.see(":1.6", "/a", "[1,2,3,4]"), "news");
  assert.equal(f.see(":1.5", "/a", "[9,2,3,4]"), "news");
  assert.equal(f.see(":1.5", "/a", "[1,2,3,4]"), "news", "a move back is news");
});

Deno.test("BoundsFilter forgets an app's rects, so a missed move cannot hide the next one", () => {
  const f = new BoundsFilter(undefined, clock().now);
  f.see(":1.5", "/a", "[1,2,3,4]");
  f.forget(":1.5");
  assert.equal(f.see(":1.5", "/a", "[1,2,3,4]"), "news");
});

Deno.test("BoundsFilter calls a flood after two seconds in a row over the rate, not one", () => {
  const c = clock();
  const f = new BoundsFilter({ perSecond: 10, seconds: 2, remember: 100 }, c.now);
  const second = () => {
    const out = new Set<string>();
    for (let i = 0; i < 20; i++) {
      out.add(f.see(":1.5", `/n${i % 3}`, "[0,0,1,1]"));
      c.advance(45);
    }
    return out;
  };
  assert.ok(!second().has("flood"), "first second: counted");
  assert.ok(!second().has("flood"), "one flooded second is a burst");
  assert.ok(second().has("flood"), "two in a row is a flood");
});

Deno.test("BoundsFilter: a quiet gap breaks the run", () => {
  const c = clock();
  const f = new BoundsFilter({ perSecond: 10, seconds: 2, remember: 100 }, c.now);
  for (let i = 0; i < 20; i++) (f.see(":1.5", "/n", `${i}`), c.advance(45));
  c.advance(5_000);
  for (let i = 0; i < 20; i++) {
    assert.notEqual(f.see(":1.5", "/n", `${i}`), "flood");
    c.advance(45);
  }
});

Deno.test("BoundsFilter keeps at most `remember` rects per app", () => {
  const f = new BoundsFilter({ perSecond: 1e9, seconds: 2, remember: 4 }, clock().now);
  for (let i = 0; i < 10; i++) f.see(":1.5", `/n${i}`, "r");
  assert.equal(f.see(":1.5", "/n9", "r"), "repeat", "the newest is kept");
  assert.equal(f.see(":1.5", "/n0", "r"), "news", "the oldest went");
});
