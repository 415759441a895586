import assert from "node:assert/strict";
import { controlTypeFor, win32Control, type Win32Lib } from "./win32_controls.ts";

/** A user32 that knows one window's class and style. */
function lib(className: string, style: number): Win32Lib {
  return {
    GetClassNameW: (_h, buf) => {
      const out = new Uint16Array((buf as Uint16Array).buffer);
      for (let i = 0; i < className.length; i++) out[i] = className.charCodeAt(i);
      return className.length;
    },
    GetWindowLongPtrW: () => BigInt(style),
  } as Partial<Win32Lib> as Win32Lib;
}

const PANE = 50033;

Deno.test("win32Control() reads buttons by their style: push, check box, radio, group", () => {
  assert.deepEqual(
    [0x0, 0x3, 0x9, 0x7].map((style) => win32Control(lib("Button", style), 1n).controlType),
    [50000, 50002, 50013, 50026],
  );
  assert.equal(win32Control(lib("Button", 0x3), 1n).clickable, true);
  assert.equal(win32Control(lib("Button", 0x7), 1n).clickable, false, "a group box");
});

Deno.test("win32Control() marks edits editable and ES_PASSWORD edits as passwords", () => {
  const plain = win32Control(lib("Edit", 0), 1n);
  assert.equal(plain.editable, true);
  assert.equal(plain.password, false);
  assert.equal(win32Control(lib("Edit", 0x20), 1n).password, true);
  assert.equal(win32Control(lib("Static", 0x20), 1n).password, false);
});

Deno.test("controlTypeFor() replaces only UIA's Pane, and only for a class it knows", () => {
  assert.equal(controlTypeFor(PANE, win32Control(lib("Button", 0), 1n)), 50000);
  assert.equal(controlTypeFor(50004, win32Control(lib("Static", 0), 1n)), 50004);
  assert.equal(controlTypeFor(PANE, win32Control(lib("AfxFrameOrView", 0), 1n)), PANE);
});
