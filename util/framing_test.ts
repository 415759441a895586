import assert from "node:assert/strict";
import { type Frame, LineBudget, LineSplitter } from "./framing.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const text = (f: Frame) =>
  "line" in f ? new TextDecoder().decode(f.line) : `${f.busy ? "BUSY" : "TOO LONG"} ${f.tooLong}`;

Deno.test("LineSplitter joins lines split across chunks and splits many in one", () => {
  const s = new LineSplitter();
  assert.deepEqual(s.push(enc('{"a":')).map(text), []);
  assert.deepEqual(s.push(enc('1}\n{"b":2}\n{"c"')).map(text), ['{"a":1}', '{"b":2}']);
  assert.deepEqual(s.end().map(text), ['{"c"']);
});

Deno.test("LineSplitter refuses an over-long line the moment it passes the limit, once, and resumes after it", () => {
  const s = new LineSplitter(8);
  assert.deepEqual(s.push(enc("0123")).map(text), []);
  // Refused before any newline came: a peer that never ends the line is told at once.
  assert.deepEqual(s.push(enc("456789")).map(text), ["TOO LONG 10"]);
  assert.equal(s.pendingBytes, 0, "none of its bytes kept");
  assert.deepEqual(s.push(enc("more and more")).map(text), []);
  assert.equal(s.pendingBytes, 0, "the rest is skipped, not held");
  assert.deepEqual(s.push(enc("abc\nok\n")).map(text), ["ok"]);
});

Deno.test("LineSplitter shares a budget: a partial line the budget cannot hold is refused busy and let go", () => {
  const budget = new LineBudget(10);
  const [a, b] = [new LineSplitter(8, budget), new LineSplitter(8, budget)];
  assert.deepEqual(a.push(enc("123456")).map(text), []);
  assert.equal(budget.held, 6);
  assert.deepEqual(b.push(enc("12345")).map(text), ["BUSY 5"], "6 + 5 passes the budget of 10");
  assert.equal(budget.held, 6, "the refused line holds nothing");
  assert.deepEqual(b.push(enc("678\n")).map(text), [], "the rest of it is skipped");
  assert.deepEqual(b.push(enc("1234\n")).map(text), ["1234"], "a line that fits goes through");
  assert.equal(budget.held, 6, "a finished line gives its bytes back");
  assert.deepEqual(a.push(enc("\n")).map(text), ["123456"]);
  assert.equal(budget.held, 0);
  a.push(enc("abc"));
  a.release(); // the connection went away mid-line
  assert.equal(budget.held, 0, "release() gives an unfinished line's bytes back");
});

Deno.test("LineSplitter skips empty lines", () => {
  assert.deepEqual(new LineSplitter().push(enc("\n\nx\n")).map(text), ["x"]);
});
