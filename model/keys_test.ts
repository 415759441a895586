import assert from "node:assert/strict";
import { parseKeys } from "./keys.ts";
import { assertInvalidKey } from "./_testing.ts";

Deno.test("parseKeys() maps modifiers case-insensitively", () => {
  assert.deepEqual(parseKeys("ctrl+a"), [["Control_L", "a"]]);
  assert.deepEqual(parseKeys("Control+Shift+z"), [["Control_L", "Shift_L", "z"]]);
  assert.deepEqual(parseKeys("ALT+F4"), [["Alt_L", "F4"]]);
  assert.deepEqual(parseKeys("super"), [["Super_L"]]);
  assert.deepEqual(parseKeys("meta+l"), [["Super_L", "l"]]);
  assert.deepEqual(parseKeys("cmd+q"), [["Super_L", "q"]]);
});

Deno.test("parseKeys() maps friendly names to keysym names", () => {
  assert.deepEqual(parseKeys("enter"), [["Return"]]);
  assert.deepEqual(parseKeys("Return"), [["Return"]]);
  assert.deepEqual(parseKeys("esc"), [["Escape"]]);
  assert.deepEqual(parseKeys("backspace"), [["BackSpace"]]);
  assert.deepEqual(parseKeys("del"), [["Delete"]]);
  assert.deepEqual(parseKeys("up down left right"), [["Up"], ["Down"], ["Left"], ["Right"]]);
  assert.deepEqual(parseKeys("pageup pagedown"), [["Prior"], ["Next"]]);
  assert.deepEqual(parseKeys("space"), [["space"]]);
  assert.deepEqual(parseKeys("shift+Tab"), [["Shift_L", "Tab"]]);
  assert.deepEqual(parseKeys("f12"), [["F12"]]);
});

Deno.test("parseKeys() splits chords on whitespace and keeps a literal plus", () => {
  assert.deepEqual(parseKeys("  ctrl+a   ctrl+c "), [["Control_L", "a"], ["Control_L", "c"]]);
  assert.deepEqual(parseKeys("ctrl++"), [["Control_L", "plus"]]);
  assert.deepEqual(parseKeys("+"), [["plus"]]);
  assert.deepEqual(parseKeys("ctrl+-"), [["Control_L", "-"]]);
});

Deno.test("parseKeys() rejects empty names as invalid_params", () => {
  assertInvalidKey(() => parseKeys("ctrl+"), "keys");
  assertInvalidKey(() => parseKeys(""), "keys");
  assertInvalidKey(() => parseKeys("   ", "key"), "key");
});
