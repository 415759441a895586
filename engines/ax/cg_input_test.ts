import assert from "node:assert/strict";
import { utf16Chunks } from "./cg_input.ts";

Deno.test("utf16Chunks() splits text for CGEventKeyboardSetUnicodeString, never inside a pair", () => {
  assert.deepEqual(utf16Chunks("", 20), []);
  assert.deepEqual(utf16Chunks("abcde", 2).map((u) => String.fromCharCode(...u)), [
    "ab",
    "cd",
    "e",
  ]);
  const text = "a😀b😀";
  const chunks = utf16Chunks(text, 2);
  assert.deepEqual(chunks.map((u) => String.fromCharCode(...u)), ["a", "😀", "b", "😀"]);
  assert.equal(chunks.map((u) => String.fromCharCode(...u)).join(""), text);
});
