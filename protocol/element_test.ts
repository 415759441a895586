import assert from "node:assert/strict";
import fc from "fast-check";
import { ActionName, Bounds, Element } from "./element.ts";
import { assertIssueAt, DISPLAY, issues } from "./_testing.ts";

/** The element of docs/protocol.md `find` answer, copied verbatim. */
const README_ELEMENT = JSON.parse(
  `{"id":"43ysv4bvdn53","role":"AXButton","name":"7 7","bounds":{"x":16,"y":288,"w":55,"h":40},"enabled":true,"focused":false,"actions":["press","click"],"parent":"mcqwz0wr26st"}`,
);

const HEX = "0123456789abcdef";

Deno.test("Element: README's documented find element parses unchanged", () => {
  const result = Element.safeParse(README_ELEMENT);
  assert.ok(result.success, issues(result));
  assert.deepEqual(result.data, README_ELEMENT);
});

Deno.test("Element: an element with a value and no parent parses", () => {
  const result = Element.safeParse(DISPLAY);
  assert.ok(result.success, issues(result));
  assert.deepEqual(result.data, DISPLAY);
});

Deno.test("Element: an element with an empty name and no actions parses", () => {
  const group = { ...DISPLAY, role: "AXGroup", name: "", actions: [] };
  const { value: _value, ...noValue } = group;
  assert.ok(Element.safeParse(noValue).success);
});

for (const key of ["id", "role", "name", "bounds", "enabled", "focused", "actions"]) {
  Deno.test(`Element: a missing ${key} is rejected`, () => {
    const { [key]: _dropped, ...rest } = README_ELEMENT;
    assertIssueAt(Element, rest, [key]);
  });
}

Deno.test("Element: a value that is not a string is rejected", () => {
  assertIssueAt(Element, { ...DISPLAY, value: 78 }, ["value"]);
});

Deno.test("Element: enabled and focused must be booleans", () => {
  assertIssueAt(Element, { ...DISPLAY, enabled: "true" }, ["enabled"]);
  assertIssueAt(Element, { ...DISPLAY, focused: 1 }, ["focused"]);
});

Deno.test("Element: bounds must be four numbers", () => {
  assertIssueAt(Element, { ...DISPLAY, bounds: { x: "0", y: 166, w: 343, h: 32 } }, [
    "bounds",
    "x",
  ]);
  assertIssueAt(Element, { ...DISPLAY, bounds: { x: 0, y: 166, w: 343 } }, ["bounds", "h"]);
  assertIssueAt(Element, { ...DISPLAY, bounds: [0, 166, 343, 32] }, ["bounds"]);
});

Deno.test("Element: an action outside protocol.md's list is rejected at its index", () => {
  assertIssueAt(Element, { ...DISPLAY, actions: ["focus", "tap"] }, ["actions", 1]);
});

Deno.test("Element: crop of 16 lowercase hex digits is accepted", () => {
  const result = Element.safeParse({ ...README_ELEMENT, crop: "0f1e2d3c4b5a6978" });
  assert.ok(result.success, issues(result));
});

Deno.test("Element: any 16 lowercase hex digits are a valid crop", () => {
  const crop = fc.string({ unit: fc.constantFrom(...HEX), minLength: 16, maxLength: 16 });
  fc.assert(fc.property(crop, (c) => Element.safeParse({ ...README_ELEMENT, crop: c }).success));
});

Deno.test("Element: crop of another length is rejected", () => {
  for (const crop of ["", "0f1e2d3c4b5a697", "0f1e2d3c4b5a69780"]) {
    assertIssueAt(Element, { ...README_ELEMENT, crop }, ["crop"]);
  }
});

Deno.test("Element: crop with a character that is not a hex digit is rejected", () => {
  for (const crop of ["0f1e2d3c4b5a697g", "0x1e2d3c4b5a6978", "0f1e2d3c 4b5a697"]) {
    assertIssueAt(Element, { ...README_ELEMENT, crop }, ["crop"]);
  }
});

Deno.test("Element: crop in uppercase hex is rejected", () => {
  assertIssueAt(Element, { ...README_ELEMENT, crop: "0F1E2D3C4B5A6978" }, ["crop"]);
});

Deno.test("Element: crop that is not a string is rejected", () => {
  assertIssueAt(Element, { ...README_ELEMENT, crop: 1234567890123456 }, ["crop"]);
});

Deno.test("Element: the documented unread reasons are accepted", () => {
  for (
    const unread of ["ocr_low_confidence", "ocr_no_text", 'ocr_ambiguous: read as "]" and "1"']
  ) {
    const element = { ...README_ELEMENT, name: "", unread };
    const result = Element.safeParse(element);
    assert.ok(result.success, issues(result));
    assert.deepEqual(result.data, element);
  }
});

Deno.test("Element: unread that is not a string is rejected", () => {
  assertIssueAt(Element, { ...README_ELEMENT, unread: true }, ["unread"]);
});

Deno.test("Element: an unknown member is dropped, not rejected", () => {
  const result = Element.safeParse({ ...README_ELEMENT, visible: true });
  assert.ok(result.success, issues(result));
  assert.deepEqual(result.data, README_ELEMENT);
});

Deno.test("ActionName: lists protocol.md's actions in its order, then the additions", () => {
  assert.deepEqual(ActionName.options, [
    "press",
    "click",
    "focus",
    "set_value",
    "type_text",
    "select",
    "expand",
    "collapse",
    "scroll_into_view",
    "show_menu",
    // Additions (README): idempotent, read back.
    "check",
    "uncheck",
  ]);
});

Deno.test("Bounds: accepts negative and fractional screen points", () => {
  assert.ok(Bounds.safeParse({ x: -1920, y: 0.5, w: 0, h: 10.25 }).success);
});
