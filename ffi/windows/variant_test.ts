import assert from "node:assert/strict";
import { OwnedBstr, readBstr, takeBstr, takeBstrOut, wideString } from "./bstr.ts";
import { FakeOleAut } from "./_testing.ts";
import { readSafeArray, takeSafeArray, VT } from "./safearray.ts";
import { boolVariant, decodeVariant, newVariant, receiveVariant, takeVariant } from "./variant.ts";

Deno.test("takeBstr() reads UTF-16 (astral and embedded NUL too) and frees the string", () => {
  const ole = new FakeOleAut();
  const text = "Résumé 🙂\u0000tail";
  const b = ole.bstr(text);
  assert.equal(readBstr(ole, b), text);
  assert.equal(ole.live, 1);
  assert.equal(takeBstr(ole, b), text);
  assert.equal(ole.live, 0);
  assert.equal(takeBstr(ole, null), "");
  const out = new BigUint64Array([Deno.UnsafePointer.value(ole.bstr("x"))]);
  assert.equal(takeBstrOut(ole, out), "x");
  assert.equal(ole.live, 0);
});

Deno.test("OwnedBstr frees what it allocated, once", () => {
  const ole = new FakeOleAut();
  {
    using b = OwnedBstr.from(ole, "7 + 8");
    assert.equal(readBstr(ole, b.ptr), "7 + 8");
    assert.equal(ole.live, 1);
  }
  assert.equal(ole.live, 0);
  assert.deepEqual([...wideString("ab")], [0x61, 0x62, 0]);
});

Deno.test("readSafeArray() honours the lower bound; takeSafeArray() destroys the array", () => {
  const ole = new FakeOleAut();
  const ids = ole.safeArray(VT.I4, [42, 0x3b0a12, -7], 1);
  assert.deepEqual(readSafeArray(ole, ids, VT.I4), [42, 0x3b0a12, -7]);
  assert.deepEqual(takeSafeArray(ole, ids, VT.I4), [42, 0x3b0a12, -7]);
  assert.equal(ole.live, 0);
  const names = ole.safeArray(VT.BSTR, ["Invoke", "Value"]);
  assert.deepEqual(takeSafeArray(ole, names, VT.BSTR), ["Invoke", "Value"]);
  assert.equal(ole.live, 0, "the array's BSTRs go with it");
  assert.deepEqual(readSafeArray(ole, null, VT.I4), []);
});

Deno.test("takeVariant() decodes scalars, strings and arrays, then clears what they own", () => {
  const ole = new FakeOleAut();
  const cases: [number, bigint | Deno.PointerValue, unknown][] = [
    [VT.EMPTY, 0n, undefined],
    [VT.I4, 0xffff_ffd6n, -42],
    [VT.BOOL, 0xffffn, true],
    [VT.BOOL, 0n, false],
    [VT.R8, new BigUint64Array(new Float64Array([2.5]).buffer)[0]!, 2.5],
    [VT.BSTR, ole.bstr("Display is 15"), "Display is 15"],
    [VT.ARRAY | VT.R8, ole.safeArray(VT.R8, [10, 20, 300, 40.5]), [10, 20, 300, 40.5]],
    [VT.ARRAY | VT.I4, ole.safeArray(VT.I4, [42, 132]), [42, 132]],
    [VT.UNKNOWN, 0x1234n, undefined], // UIA's "not supported" marker
  ];
  for (const [vt, payload, want] of cases) {
    const v = newVariant(ole);
    ole.writeVariant(Deno.UnsafePointer.of(v), vt, payload);
    assert.deepEqual(takeVariant(ole, v), want, `vt ${vt}`);
    assert.equal(new DataView(v.buffer).getUint16(0, true), VT.EMPTY, "cleared");
  }
  assert.equal(ole.live, 0);
  assert.deepEqual(ole.releasedUnknowns, [0x1234n]);
});

Deno.test("receiveVariant() clears even when the filling call throws", () => {
  const ole = new FakeOleAut();
  assert.throws(() =>
    receiveVariant(ole, (v) => {
      ole.writeVariant(Deno.UnsafePointer.of(v), VT.BSTR, ole.bstr("leak?"));
      throw new Error("call failed after writing");
    })
  );
  assert.equal(ole.live, 0);
  assert.equal(
    receiveVariant(ole, (v) => ole.writeVariant(Deno.UnsafePointer.of(v), VT.I4, 7n)),
    7,
  );
});

Deno.test("boolVariant() builds VT_BOOL with VARIANT_TRUE = -1", () => {
  const ole = new FakeOleAut();
  const t = boolVariant(true);
  assert.equal(new DataView(t.buffer).getInt16(8, true), -1);
  assert.equal(decodeVariant(ole, t), true);
  assert.equal(decodeVariant(ole, boolVariant(false)), false);
});
