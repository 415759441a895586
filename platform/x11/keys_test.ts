import assert from "node:assert/strict";
import { loadX11 } from "../../ffi/linux_x11.ts";
import { DriverError } from "../../protocol/errors.ts";
import { charKeysym, keysymFor, textKeysyms } from "./keys.ts";
import { assertInvalidKey } from "../../model/_testing.ts";

Deno.test("keysymFor() resolves X names, aliases and single characters", () => {
  const x11 = loadX11();
  assert.equal(keysymFor(x11, "Return"), 0xff0dn);
  assert.equal(keysymFor(x11, "Tab"), 0xff09n);
  assert.equal(keysymFor(x11, "tab"), 0xff09n); // capitalised retry
  assert.equal(keysymFor(x11, "F4"), 0xffc1n);
  assert.equal(keysymFor(x11, "Control_L"), 0xffe3n);
  assert.equal(keysymFor(x11, "a"), 0x61n);
  assert.equal(keysymFor(x11, "A"), 0x41n);
  assert.equal(keysymFor(x11, "A", true), 0x61n); // ctrl+A means ctrl+a
  assert.equal(keysymFor(x11, "-"), 0x2dn);
  assert.equal(keysymFor(x11, "ö"), 0xf6n);
  assert.equal(keysymFor(x11, "✓"), 0x1002713n);
});

Deno.test("keysymFor() rejects an unknown key as invalid_params", () => {
  const x11 = loadX11();
  assertInvalidKey(() => keysymFor(x11, "NoSuchKey"), "keys");
  assertInvalidKey(() => keysymFor(x11, "hyperdrive", false, "key"), "key");
});

Deno.test("textKeysyms() maps Latin-1 directly and the rest to Unicode keysyms", () => {
  assert.deepEqual(textKeysyms("aÖ✓"), [0x61n, 0xd6n, 0x1002713n]);
  assert.deepEqual(textKeysyms("a\r\nb\tc"), [0x61n, 0xff0dn, 0x62n, 0xff09n, 0x63n]);
  assert.deepEqual(textKeysyms("😀"), [0x101f600n]);
  assert.equal(charKeysym(0x07), undefined);
  assert.throws(() => textKeysyms("a\u0007"), (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "invalid_params");
    return true;
  });
});
