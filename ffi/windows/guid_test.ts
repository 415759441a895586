import assert from "node:assert/strict";
import { formatGuid, guidAt, parseGuid } from "./guid.ts";

Deno.test("parseGuid() lays out Data1-3 little-endian and Data4 as written", () => {
  const g = parseGuid("{e22ad333-b25f-460c-83d0-0581107395c9}"); // CLSID_CUIAutomation8
  assert.deepEqual(
    [...g],
    [
      0x33,
      0xd3,
      0x2a,
      0xe2,
      0x5f,
      0xb2,
      0x0c,
      0x46,
      0x83,
      0xd0,
      0x05,
      0x81,
      0x10,
      0x73,
      0x95,
      0xc9,
    ],
  );
  assert.equal(formatGuid(g), "e22ad333-b25f-460c-83d0-0581107395c9");
  assert.equal(
    formatGuid(parseGuid("30CBE57D-D9D0-452A-AB13-7AC5AC4825EE")),
    "30cbe57d-d9d0-452a-ab13-7ac5ac4825ee",
  );
});

Deno.test("parseGuid() refuses what is not a GUID", () => {
  for (
    const bad of [
      "",
      "e22ad333",
      "e22ad333-b25f-460c-83d0-0581107395c",
      "{zz2ad333-b25f-460c-83d0-0581107395c9}",
    ]
  ) {
    assert.throws(() => parseGuid(bad), /Not a GUID/);
  }
});

Deno.test("guidAt() compares 16 bytes in memory", () => {
  const a = parseGuid("d22108aa-8ac5-49a5-837b-37bbb3d7591e");
  const copy = new Uint8Array(a);
  assert.ok(guidAt(Deno.UnsafePointer.of(copy)!, a));
  copy[15] = copy[15]! ^ 1;
  assert.ok(!guidAt(Deno.UnsafePointer.of(copy)!, a));
});
