import assert from "node:assert/strict";
import { DBusProtocolError } from "./errors.ts";
import { marshal, unmarshal, Variant } from "./marshal.ts";
import { parseSignature } from "./signature.ts";

function roundTrip(signature: string, values: unknown[]): unknown[] {
  return unmarshal(signature, marshal(signature, values));
}

Deno.test("marshal: every basic type round-trips at its limits", () => {
  const cases: [string, unknown[]][] = [
    ["y", [0]],
    ["y", [255]],
    ["b", [true]],
    ["b", [false]],
    ["n", [-0x8000]],
    ["n", [0x7fff]],
    ["q", [0xffff]],
    ["i", [-0x80000000]],
    ["i", [0x7fffffff]],
    ["u", [0xffffffff]],
    ["h", [3]],
    ["x", [-(1n << 63n)]],
    ["x", [(1n << 63n) - 1n]],
    ["t", [(1n << 64n) - 1n]],
    ["d", [Math.PI]],
    ["d", [-0]],
    ["d", [Infinity]],
    ["s", [""]],
    ["s", ["héllo ✓ \u{1F600}"]],
    ["s", ["\uFEFFbom kept"]],
    ["s", ["x".repeat(100_000)]],
    ["o", ["/"]],
    ["o", ["/org/a11y/atspi/accessible/root_1"]],
    ["g", [""]],
    ["g", ["a{sv}(iu)"]],
  ];
  for (const [sig, values] of cases) assert.deepEqual(roundTrip(sig, values), values, sig);
  assert.ok(Number.isNaN(roundTrip("d", [NaN])[0]));
});

Deno.test("marshal: x and t accept safe-integer numbers and decode as bigint", () => {
  assert.deepEqual(roundTrip("xt", [-5, 7]), [-5n, 7n]);
});

Deno.test("marshal: containers, nesting and variants round-trip", () => {
  const cases: [string, unknown[]][] = [
    ["ai", [[]]],
    ["a(t)", [[]]],
    ["aai", [[[], [1, 2], []]]],
    ["a{sv}", [new Map()]],
    ["a{sv}", [new Map([["a", new Variant("s", "x")], ["b", new Variant("ai", [1])]])]],
    ["a{ia{s(vb)}}", [new Map([[1, new Map([["k", [new Variant("y", 9), true]]])]])]],
    ["a{ot}", [new Map([["/a", 1n], ["/b", 2n]])]],
    ["(y(yt)a(yd))", [[1, [2, 3n], [[4, 0.5], [5, -1.5]]]]],
    ["v", [new Variant("v", new Variant("(sv)", ["deep", new Variant("as", ["z"])]))]],
    ["yv", [1, new Variant("a{sv}", new Map([["t", new Variant("t", 9n)]]))]],
    ["a((so)(so)(so)iiassusau)", [[[
      [":1.2", "/a"],
      [":1.2", "/"],
      [":1.2", "/p"],
      0,
      3,
      [
        "org.a11y.atspi.Accessible",
      ],
      "OK",
      43,
      "",
      [1, 2],
    ]]]],
    ["ay", [[0, 1, 255]]],
  ];
  for (const [sig, values] of cases) assert.deepEqual(roundTrip(sig, values), values, sig);
});

Deno.test("marshal: a plain object and a Uint8Array are accepted for a{..} and ay", () => {
  assert.deepEqual(roundTrip("a{si}", [{ a: 1 }]), [new Map([["a", 1]])]);
  assert.deepEqual(roundTrip("ay", [new Uint8Array([7, 8])]), [[7, 8]]);
});

Deno.test("marshal: alignment padding is exact, including empty arrays", () => {
  // Empty array of 8-aligned elements: length, then padding to 8 even with no element.
  assert.deepEqual([...marshal("a(t)", [[]])], [0, 0, 0, 0, 0, 0, 0, 0]);
  // The length counts element bytes only, not the padding before the first element.
  assert.deepEqual([...marshal("a(t)", [[[1n]]])], [
    8,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ]);
  assert.deepEqual([...marshal("yq", [1, 2])], [1, 0, 2, 0]);
  assert.deepEqual([...marshal("yu", [1, 2])], [1, 0, 0, 0, 2, 0, 0, 0]);
  assert.deepEqual([...marshal("yt", [1, 2n])], [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual([...marshal("ys", [1, "a"])], [1, 0, 0, 0, 1, 0, 0, 0, 0x61, 0]);
  assert.deepEqual([...marshal("yg", [1, "i"])], [1, 1, 0x69, 0]);
  assert.deepEqual([...marshal("yv", [1, new Variant("y", 2)])], [1, 1, 0x79, 0, 2]);
  // A variant holding a struct pads to 8 after its signature.
  assert.deepEqual([...marshal("v", [new Variant("(y)", [5])]).slice(0, 9)], [
    3,
    0x28,
    0x79,
    0x29,
    0,
    0,
    0,
    0,
    5,
  ]);
  // Dict entries align to 8 inside the array.
  assert.deepEqual([...marshal("a{yy}", [new Map([[1, 2], [3, 4]])])], [
    10,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    1,
    2,
    0,
    0,
    0,
    0,
    0,
    0,
    3,
    4,
  ]);
});

Deno.test("unmarshal: alignment counts from bytes[0] when reading at an offset", () => {
  const bytes = new Uint8Array([9, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(unmarshal("t", bytes, { offset: 1 }), [5n]);
});

Deno.test("unmarshal: big-endian values", () => {
  // deno-fmt-ignore
  const bytes = new Uint8Array([
    0xff, 0xfe, 0x12, 0x34, // n = -2, q = 0x1234
    0, 0, 0, 2, 0x68, 0x69, 0, // s = "hi"
    0, 0, 0, 0, 0, // padding to 16
    0x3f, 0xf8, 0, 0, 0, 0, 0, 0, // d = 1.5
    0, 0, 0, 16, 0, 0, 0, 0, // ax: length 16, padding to 32
    0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
  ]);
  assert.deepEqual(unmarshal("nqsd", bytes, { littleEndian: false }), [-2, 0x1234, "hi", 1.5]);
  assert.deepEqual(unmarshal("ax", bytes, { littleEndian: false, offset: 24 }), [[1n, -2n]]);
});

Deno.test("marshal: rejects values that do not fit their type", () => {
  const bad: [string, unknown[]][] = [
    ["y", [256]],
    ["y", [1.5]],
    ["b", [1]],
    ["n", [0x8000]],
    ["u", [-1]],
    ["i", ["1"]],
    ["x", [1n << 63n]],
    ["t", [-1n]],
    ["t", [2 ** 60]],
    ["d", [1n]],
    ["s", ["a\0b"]],
    ["s", [1]],
    ["o", ["no/slash"]],
    ["o", ["/trailing/"]],
    ["o", ["/a//b"]],
    ["g", ["a"]],
    ["ai", [{}]],
    ["a{si}", [[1]]],
    ["(ii)", [[1]]],
    ["v", ["not a Variant"]],
    ["v", [new Variant("ii", [1, 2])]],
    ["ii", [1]],
  ];
  for (const [sig, values] of bad) assert.throws(() => marshal(sig, values), TypeError, sig);
});

Deno.test("signature: rejects malformed signatures", () => {
  const bad = ["a", "(", "()", "(i", "i)", "a{vs}", "{ss}", "a{sss}", "a{s}", "z", "a{(i)s}"];
  for (const sig of bad) assert.throws(() => parseSignature(sig), TypeError, sig);
  assert.throws(() => parseSignature("i".repeat(256)), TypeError);
  assert.throws(() => parseSignature("a".repeat(33) + "i"), TypeError);
  assert.throws(() => parseSignature("(".repeat(33) + "i" + ")".repeat(33)), TypeError);
  assert.equal(parseSignature("a".repeat(32) + "i").length, 1);
  assert.equal(parseSignature("ia{sv}(yy)").length, 3);
});

Deno.test("unmarshal: malformed data raises DBusProtocolError", () => {
  const bad: [string, number[]][] = [
    ["u", [1, 0]],
    ["s", [5, 0, 0, 0, 0x61, 0]],
    ["s", [1, 0, 0, 0, 0x61, 0x62]],
    ["b", [2, 0, 0, 0]],
    ["ai", [8, 0, 0, 0, 1, 0, 0, 0]],
    ["ai", [3, 0, 0, 0, 1, 0, 0, 0]],
    ["v", [1, 0x7a, 0, 0]],
    ["g", [3, 0x69, 0]],
  ];
  for (const [sig, bytes] of bad) {
    assert.throws(() => unmarshal(sig, new Uint8Array(bytes)), DBusProtocolError, sig);
  }
});

Deno.test("unmarshal: variants nested past the depth limit are refused", () => {
  const bytes: number[] = [];
  for (let i = 0; i < 70; i++) bytes.push(1, 0x76, 0);
  bytes.push(1, 0x79, 0, 7);
  assert.throws(() => unmarshal("v", new Uint8Array(bytes)), DBusProtocolError);
});
