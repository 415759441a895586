import assert from "node:assert/strict";
import type { Element } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import { recordBatch, replayBatch } from "./replay.ts";

const el = (
  id: string,
  name: string,
  x: number,
  y: number,
  crop: string | undefined,
  role = "AXButton",
): Element => ({
  id,
  role,
  name,
  bounds: { x, y, w: 42, h: 28 },
  enabled: true,
  focused: false,
  actions: ["press"],
  parent: "win",
  ...(crop === undefined ? {} : { crop }),
});
const win = (x: number, y: number): Element => ({
  id: "win",
  role: "AXWindow",
  name: "Calculator",
  bounds: { x, y, w: 226, h: 394 },
  enabled: true,
  focused: false,
  actions: [],
  crop: "0000000000000000",
});
// "E" and "F" hash alike on xcalc: equal crops told apart only by where they are.
const E = "007e666e6e7e7e00", SEVEN = "007e66766e7e7e00", EIGHT = "007e6666667e7e00";
const map = (x: number, y: number, ids = ["e", "f", "seven", "eight"]) => [
  win(x, y),
  el(ids[0]!, "E", x + 92, y + 212, E),
  el(ids[1]!, "F", x + 136, y + 212, E),
  el(ids[2]!, "7", x + 48, y + 272, SEVEN),
  el(ids[3]!, "8", x + 92, y + 272, EIGHT),
];
const steps = ["seven", "f", "eight"].map((id) => ({ id, action: "press" as const }));

Deno.test("recordBatch() keeps each step's role, crop, bounds and the window's corner", () => {
  const batch = recordBatch("x1", map(0, 0), [{ id: "f", action: "type_text", value: "1" }]);
  assert.deepEqual(batch, {
    window: "x1",
    origin: { x: 0, y: 0 },
    steps: [{
      id: "f",
      action: "type_text",
      value: "1",
      role: "AXButton",
      crop: E,
      bounds: { x: 136, y: 212, w: 42, h: 28 },
    }],
  });
  assert.throws(() => recordBatch("x1", map(0, 0), [{ id: "nope", action: "press" }]), (e) => {
    assert.ok(e instanceof DriverError);
    assert.equal(e.code, "element_not_found");
    return true;
  });
});

Deno.test("replayBatch() finds steps by id on the same window, moved or not", () => {
  const batch = recordBatch("x1", map(0, 0), steps);
  const out = replayBatch(batch, "x1", map(300, 200));
  assert.deepEqual(out.map((s) => [s.step, s.found, s.distance, s.element?.name]), [
    [0, "id", 0, "7"],
    [1, "id", 0, "F"],
    [2, "id", 0, "8"],
  ]);
});

Deno.test("replayBatch() re-finds gone ids by crop, twins by where they were in the window", () => {
  const batch = recordBatch("x1", map(0, 0), steps);
  const out = replayBatch(batch, "x1", map(300, 200, ["e2", "f2", "seven2", "eight2"]));
  assert.deepEqual(out.map((s) => [s.id, s.found, s.distance, s.element?.id]), [
    ["seven", "crop", 0, "seven2"],
    ["f", "crop", 0, "f2"],
    ["eight", "crop", 0, "eight2"],
  ]);
});

Deno.test("replayBatch() on another window trusts no id", () => {
  const batch = recordBatch("x1", map(0, 0), steps);
  const out = replayBatch(batch, "x2", map(500, 10));
  assert.deepEqual(out.map((s) => [s.found, s.element?.id]), [
    ["crop", "seven"],
    ["crop", "f"],
    ["crop", "eight"],
  ]);
});

Deno.test("replayBatch() leaves an id whose crop changed beyond the threshold to the crops", () => {
  const batch = recordBatch("x1", map(0, 0), [{ id: "seven", action: "press" }]);
  const later = map(0, 0);
  later[3] = { ...later[3]!, crop: "ff818181818181ff" }; // "seven" now looks different
  later.push(el("moved7", "7", 180, 300, SEVEN));
  const [s] = replayBatch(batch, "x1", later);
  assert.equal(s!.found, "crop");
  assert.equal(s!.element?.id, "moved7");
});

Deno.test("replayBatch() answers none when nothing is near enough, and honours the threshold", () => {
  const batch = recordBatch("x1", map(0, 0), [{ id: "seven", action: "press" }]);
  const far = [win(0, 0), el("other", "X", 10, 10, "ffffffff00000000")];
  assert.deepEqual(replayBatch(batch, "x1", far), [{ step: 0, id: "seven", found: "none" }]);
  const near = [win(0, 0), el("near", "7?", 10, 10, "007e66766e7e7e01")];
  assert.equal(replayBatch(batch, "x1", near)[0]!.found, "crop");
  assert.equal(replayBatch(batch, "x1", near, { maxDistance: 0 })[0]!.found, "none");
});

Deno.test("replayBatch() prefers the recorded role among equally near crops", () => {
  const batch = recordBatch("x1", map(0, 0), [{ id: "seven", action: "press" }]);
  const later = [
    win(0, 0),
    el("text7", "7", 48, 272, SEVEN, "AXStaticText"),
    el("b7", "7", 0, 0, SEVEN),
  ];
  assert.equal(replayBatch(batch, "x9", later)[0]!.element?.id, "b7");
});

Deno.test("replayBatch() finds steps without crops by id only", () => {
  const batch = recordBatch("x1", [win(0, 0), el("a", "A", 0, 0, undefined)], [{
    id: "a",
    action: "press",
  }]);
  assert.equal(
    replayBatch(batch, "x1", [win(0, 0), el("a", "A", 0, 0, undefined)])[0]!.found,
    "id",
  );
  assert.equal(replayBatch(batch, "x1", [win(0, 0)])[0]!.found, "none");
});
