import assert from "node:assert/strict";
import { isDriverError } from "../../protocol/errors.ts";
import { keyFor, parseChords, VK } from "./keys.ts";

/** VkKeyScanW for a US layout: '+' is shift+VK_OEM_PLUS, '!' shift+'1', 'é' has no key. */
const us = (ch: number): number =>
  ({ 0x2b: 0x1bb, 0x2d: 0xbd, 0x21: 0x131, 0x3d: 0xbb } as Record<number, number>)[ch] ?? -1;

Deno.test("parseChords() maps the shared key names to virtual keys", () => {
  assert.deepEqual(parseChords("ctrl+shift+z", us), [[
    { vk: VK.CONTROL, extended: false },
    { vk: VK.SHIFT, extended: false },
    { vk: 0x5a, extended: false, shift: false },
  ]]);
  assert.deepEqual(parseChords("alt+F4 Return", us), [
    [{ vk: VK.MENU, extended: false }, { vk: VK.F1 + 3, extended: false }],
    [{ vk: VK.RETURN, extended: false }],
  ]);
  assert.deepEqual(parseChords("up pagedown del", us).flat().map((k) => "vk" in k && k.extended), [
    true,
    true,
    true,
  ]);
  assert.deepEqual(parseChords("cmd", us), [[{ vk: VK.LWIN, extended: true }]]);
});

Deno.test("keyFor(): capitals alone mean shift, in a chord the letter; symbols use the layout", () => {
  assert.deepEqual(keyFor("A", false, us), { vk: 0x41, extended: false, shift: true });
  assert.deepEqual(keyFor("A", true, us), { vk: 0x41, extended: false, shift: false });
  assert.deepEqual(keyFor("7", false, us), { vk: 0x37, extended: false });
  assert.deepEqual(keyFor("plus", true, us), {
    vk: 0xbb,
    extended: false,
    shift: true,
    ctrl: false,
    alt: false,
  });
  assert.deepEqual(keyFor("é", false, us), { text: "é" }, "typed as Unicode when alone");
  assert.throws(() => keyFor("é", true, us), (e: unknown) => isDriverError(e, "invalid_params"));
  assert.throws(() => keyFor("Hyper_Q", false, us), /Unknown key "Hyper_Q"/);
  assert.deepEqual(keyFor("F24", false, us), { vk: 0x87, extended: false });
  assert.deepEqual(keyFor("KP_5", false, us), { vk: 0x65, extended: false });
});
