import assert from "node:assert/strict";
import { CG_FLAGS } from "../../ffi/macos/core_graphics.ts";
import { DriverError } from "../../protocol/errors.ts";
import { flagsOf, macChords, macKeyFor } from "./mac_keys.ts";

Deno.test("macChords() parses chords into modifiers and key codes", () => {
  assert.deepEqual(macChords("cmd+shift+z"), [{
    modifiers: [{ code: 0x37, flag: CG_FLAGS.command }, { code: 0x38, flag: CG_FLAGS.shift }],
    keys: [{ code: 0x06, shifted: false }],
  }]);
  assert.deepEqual(macChords("Return ctrl+a").map((c) => c.keys.map((k) => k.code)), [[0x24], [
    0x00,
  ]]);
  assert.deepEqual(macChords("alt+F4")[0]!.modifiers.map((m) => m.flag), [CG_FLAGS.alternate]);
});

Deno.test("macKeyFor() takes a capital alone as shift, in a chord as its key", () => {
  assert.deepEqual(macKeyFor("A"), { code: 0x00, shifted: true });
  assert.deepEqual(macKeyFor("A", true), { code: 0x00, shifted: false });
  assert.deepEqual(macKeyFor("?"), { code: 0x2c, shifted: true });
  assert.deepEqual(macKeyFor("plus"), { code: 0x18, shifted: true });
  assert.equal(macKeyFor("Left").code, 0x7b);
  assert.equal(macKeyFor("F12").code, 0x6f);
});

Deno.test("flagsOf() adds held modifiers and shift for shifted keys", () => {
  const [chord] = macChords("cmd+ctrl+q");
  assert.equal(flagsOf(chord!.modifiers), CG_FLAGS.command | CG_FLAGS.control);
  assert.equal(flagsOf([], macKeyFor("!")), CG_FLAGS.shift);
});

Deno.test("macKeyFor() refuses keys with no ANSI key as invalid_params", () => {
  assert.throws(() => macKeyFor("é"), (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "invalid_params");
    assert.match(err.message, /^Unknown key "é"/);
    return true;
  });
});
