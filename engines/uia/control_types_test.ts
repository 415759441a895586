import assert from "node:assert/strict";
import {
  axRoleOf,
  CONTROL_TYPES,
  controlTypeName,
  FIRST_CONTROL_TYPE,
  LAST_CONTROL_TYPE,
} from "./control_types.ts";

/** UIAutomationClient.h's control type names, in id order from 50000. */
const HEADER_NAMES = [
  "Button",
  "Calendar",
  "CheckBox",
  "ComboBox",
  "Edit",
  "Hyperlink",
  "Image",
  "ListItem",
  "List",
  "Menu",
  "MenuBar",
  "MenuItem",
  "ProgressBar",
  "RadioButton",
  "ScrollBar",
  "Slider",
  "Spinner",
  "StatusBar",
  "Tab",
  "TabItem",
  "Text",
  "ToolBar",
  "ToolTip",
  "Tree",
  "TreeItem",
  "Custom",
  "Group",
  "Thumb",
  "DataGrid",
  "DataItem",
  "Document",
  "SplitButton",
  "Window",
  "Pane",
  "Header",
  "HeaderItem",
  "Table",
  "TitleBar",
  "Separator",
  "SemanticZoom",
  "AppBar",
];

/** The AX roles engines may emit (protocol.md's vocabulary as the AT-SPI engine uses it). */
const AX_VOCABULARY = new Set([
  "AXButton",
  "AXCell",
  "AXCheckBox",
  "AXComboBox",
  "AXGroup",
  "AXHelpTag",
  "AXImage",
  "AXIncrementor",
  "AXLink",
  "AXList",
  "AXMenu",
  "AXMenuBar",
  "AXMenuButton",
  "AXMenuItem",
  "AXOutline",
  "AXPopUpButton",
  "AXProgressIndicator",
  "AXRadioButton",
  "AXRow",
  "AXScrollBar",
  "AXSlider",
  "AXSplitter",
  "AXStaticText",
  "AXTabGroup",
  "AXTable",
  "AXTextArea",
  "AXTextField",
  "AXToolbar",
  "AXValueIndicator",
  "AXWebArea",
  "AXWindow",
]);

Deno.test("CONTROL_TYPES covers every UIA control type id 50000-50040 exactly once", () => {
  assert.equal(FIRST_CONTROL_TYPE, 50000);
  assert.equal(LAST_CONTROL_TYPE, 50040);
  assert.equal(CONTROL_TYPES.length, LAST_CONTROL_TYPE - FIRST_CONTROL_TYPE + 1);
  assert.equal(HEADER_NAMES.length, CONTROL_TYPES.length);
  CONTROL_TYPES.forEach((t, i) => {
    assert.equal(t.id, FIRST_CONTROL_TYPE + i);
    assert.equal(t.uia, HEADER_NAMES[i], `id ${t.id}`);
    assert.equal(controlTypeName(t.id), t.uia);
  });
});

Deno.test("every control type maps to a role in the AX vocabulary", () => {
  for (let id = FIRST_CONTROL_TYPE; id <= LAST_CONTROL_TYPE; id++) {
    const role = axRoleOf(id);
    assert.ok(AX_VOCABULARY.has(role), `${controlTypeName(id)} -> ${role}`);
    assert.match(role, /^AX[A-Z]/);
  }
});

Deno.test("axRoleOf() maps the common controls the way the other engines do", () => {
  const expect: [number, string][] = [
    [50000, "AXButton"],
    [50002, "AXCheckBox"],
    [50004, "AXTextField"],
    [50011, "AXMenuItem"],
    [50019, "AXRadioButton"],
    [50020, "AXStaticText"],
    [50030, "AXTextArea"],
    [50032, "AXWindow"],
  ];
  for (const [id, role] of expect) assert.equal(axRoleOf(id), role, controlTypeName(id));
});

Deno.test("axRoleOf() uses hints: read-only combo boxes and browser documents", () => {
  assert.equal(axRoleOf(50003, { editable: true }), "AXComboBox");
  assert.equal(axRoleOf(50003, { editable: false }), "AXPopUpButton");
  assert.equal(axRoleOf(50003), "AXComboBox");
  assert.equal(axRoleOf(50030, { framework: "Chrome" }), "AXWebArea");
  assert.equal(axRoleOf(50030, { framework: "Win32" }), "AXTextArea");
});

Deno.test("ids outside the table are AXUnknown", () => {
  assert.equal(axRoleOf(49999), "AXUnknown");
  assert.equal(axRoleOf(50041), "AXUnknown");
  assert.equal(controlTypeName(0), "Unknown(0)");
});
