import assert from "node:assert/strict";
import { LineSplitter } from "./framing.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const text = (f: { line: Uint8Array } | { tooLong: number }) =>
  "line" in f ? new TextDecoder().decode(f.line) : `TOO LONG ${f.tooLong}`;

Deno.test("LineSplitter joins lines split across chunks and splits many in one", () => {
  const s = new LineSplitter();
  assert.deepEqual(s.push(enc('{"a":')).map(text), []);
  assert.deepEqual(s.push(enc('1}\n{"b":2}\n{"c"')).map(text), ['{"a":1}', '{"b":2}']);
  assert.deepEqual(s.end().map(text), ['{"c"']);
});

Deno.test("LineSplitter reports an over-long line once and resumes after it", () => {
  const s = new LineSplitter(8);
  const frames = [...s.push(enc("0123456789")), ...s.push(enc("abc\nok\n"))].map(text);
  assert.deepEqual(frames, ["TOO LONG 13", "ok"]);
});

Deno.test("LineSplitter skips empty lines", () => {
  assert.deepEqual(new LineSplitter().push(enc("\n\nx\n")).map(text), ["x"]);
});
