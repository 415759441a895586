import assert from "node:assert/strict";
import { parseTsv } from "./tsv.ts";

const TSV = [
  "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
  "1\t1\t0\t0\t0\t0\t0\t0\t400\t100\t-1\t",
  "4\t1\t1\t1\t1\t0\t10\t20\t200\t30\t-1\t",
  "5\t1\t1\t1\t1\t1\t10\t20\t60\t30\t96.5\tHello",
  "5\t1\t1\t1\t1\t2\t80\t22\t40\t28\t91\tworld ",
  "5\t1\t1\t1\t2\t1\t10\t60\t20\t30\t12\t   ",
  "5\t1\t1\t1\t2\t2\tx\t60\t20\t30\t50\tbad",
  "5\t1\t2\t1\t1\t1\t300\t60\t20\t30\t88\t=",
].join("\n");

Deno.test("parseTsv() answers words with their boxes, confidence and line", () => {
  assert.deepEqual(parseTsv(TSV), [
    { text: "Hello", conf: 96.5, rect: { x: 10, y: 20, w: 60, h: 30 }, line: "1.1.1" },
    { text: "world", conf: 91, rect: { x: 80, y: 22, w: 40, h: 28 }, line: "1.1.1" },
    { text: "=", conf: 88, rect: { x: 300, y: 60, w: 20, h: 30 }, line: "2.1.1" },
  ]);
});

Deno.test("parseTsv() divides boxes by the enlargement", () => {
  const [w] = parseTsv("5\t1\t1\t1\t1\t1\t10\t20\t60\t30\t90\tx", 2);
  assert.deepEqual(w!.rect, { x: 5, y: 10, w: 30, h: 15 });
});

Deno.test("parseTsv() of nothing is no words", () => {
  assert.deepEqual(parseTsv(""), []);
});
