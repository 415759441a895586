import assert from "node:assert/strict";
import { DriverError } from "../protocol/errors.ts";
import { ReadPages } from "./paging.ts";
import { CLOSE, OPEN } from "./untrusted.ts";

const meta = { window: "w1", version: 3 };
const read = ["app=x window=w1 version=3", ...Array.from({ length: 10 }, (_, i) => `l${i}`)]
  .join("\n");

Deno.test("ReadPages answers a read that fits as it is, and holds nothing", () => {
  const pages = new ReadPages();
  const [head, ...lines] = read.split("\n");
  assert.equal(
    pages.first("w1", read, { lines: 10, bytes: 10_000 }, meta),
    [head, OPEN, ...lines, CLOSE].join("\n"),
    "the app's lines come fenced",
  );
  assert.throws(() => pages.next("w1~1", { lines: 10, bytes: 10_000 }), DriverError);
});

Deno.test("ReadPages cuts by lines, and the cursor answers the rest without a gap", () => {
  const pages = new ReadPages();
  const limits = { lines: 4, bytes: 10_000 };
  const one = pages.first("w1", read, limits, meta).split("\n");
  assert.equal(one[0], "app=x window=w1 version=3 lines=1-4 of 10");
  assert.deepEqual(one.slice(1, 7), [OPEN, "l0", "l1", "l2", "l3", CLOSE]);
  const cursor = /cursor=(\S+)$/.exec(one.at(-1)!)![1]!;
  assert.match(one.at(-1)!, /^… 6 more lines: read_ui cursor=/);
  const two = pages.next(cursor, limits);
  assert.deepEqual(two.meta, meta);
  const lines = two.text.split("\n");
  assert.equal(lines[0], "app=x window=w1 version=3 lines=5-8 of 10");
  assert.deepEqual(lines.slice(1, 7), [OPEN, "l4", "l5", "l6", "l7", CLOSE]);
  // A cursor is answered once: asking again is refused, the next one goes on.
  assert.throws(() => pages.next(cursor, limits), /not held/);
  const next = /cursor=(\S+)$/.exec(lines.at(-1)!)![1]!;
  const three = pages.next(next, limits).text.split("\n");
  assert.deepEqual(three, ["app=x window=w1 version=3 lines=9-10 of 10", OPEN, "l8", "l9", CLOSE]);
});

Deno.test("ReadPages cuts by bytes, at least one line a page", () => {
  const pages = new ReadPages();
  const long = ["head", "x".repeat(200), "y".repeat(200), "z"].join("\n");
  const one = pages.first("w2", long, { lines: 100, bytes: 340 }, meta).split("\n");
  assert.deepEqual(one.slice(1, 4), [OPEN, "x".repeat(200), CLOSE]);
  assert.equal(one.length, 5);
  const big = pages.first("w2", long, { lines: 100, bytes: 1 }, meta).split("\n");
  assert.equal(big[2], "x".repeat(200), "a line over the budget still comes");
});

Deno.test("a new read of a window drops its held rest; other windows keep theirs", () => {
  const pages = new ReadPages();
  const limits = { lines: 2, bytes: 10_000 };
  const first = pages.first("w1", read, limits, meta);
  const other = pages.first("w9", read, limits, { window: "w9", version: 1 });
  pages.first("w1", read, limits, meta);
  const old = /cursor=(\S+)$/.exec(first)![1]!;
  assert.throws(() => pages.next(old, limits), /replaced by a newer read/);
  assert.ok(pages.next(/cursor=(\S+)$/.exec(other)![1]!, limits).text.includes("l2"));
});
