import assert from "node:assert/strict";
import { cuaRole } from "./roles.ts";

Deno.test("cuaRole() keeps AX roles as Cua emits them on macOS", () => {
  assert.equal(cuaRole("AXButton"), "AXButton");
  assert.equal(cuaRole("AXTextArea"), "AXTextArea");
});

Deno.test("cuaRole() maps AT-SPI role names, old and new spellings", () => {
  assert.equal(cuaRole("push button"), "AXButton");
  assert.equal(cuaRole("button"), "AXButton");
  assert.equal(cuaRole("frame"), "AXWindow");
  assert.equal(cuaRole("text"), "AXTextField");
  assert.equal(cuaRole("page tab list"), "AXTabGroup");
  assert.equal(cuaRole("panel"), "AXGroup");
});

Deno.test("cuaRole() maps UI Automation control types", () => {
  assert.equal(cuaRole("Button"), "AXButton");
  assert.equal(cuaRole("Edit"), "AXTextField");
  assert.equal(cuaRole("Text"), "AXStaticText");
  assert.equal(cuaRole("ListItem"), "AXRow");
});

Deno.test("cuaRole() calls an unknown role AXUnknown", () => {
  assert.equal(cuaRole("hologram"), "AXUnknown");
  assert.equal(cuaRole(""), "AXUnknown");
});
