/**
 * Cua's element roles in the AX vocabulary every engine emits, so ids computed from a Cua
 * read match the native engine's for the same tree.
 *
 * Cua emits AX roles on macOS (`AXButton`); its Linux and Windows builders pass the
 * platform's own names through (AT-SPI role names such as `push button`, UI Automation
 * control types such as `Button`). The reference does not document the Linux or Windows
 * vocabulary, so both are mapped here; anything unknown becomes `AXUnknown`.
 *
 * @module
 */
import { ATSPI_ROLES, type AtspiRoleName, axRole } from "../atspi/roles.ts";

/** AT-SPI 2 names that differ from the AtspiRole enum's (newer toolkits, `get_role_name`). */
const ATSPI_ALIASES: Readonly<Record<string, AtspiRoleName>> = {
  button: "push_button",
  checkbox: "check_box",
  combobox: "combo_box",
  textbox: "entry",
  listbox: "list_box",
  listitem: "list_item",
  menuitem: "menu_item",
  tab: "page_tab",
  tab_list: "page_tab_list",
  tablist: "page_tab_list",
  treeitem: "tree_item",
  radio: "radio_button",
};

/** UI Automation control types (Cua on Windows). */
const UIA: Readonly<Record<string, string>> = {
  button: "AXButton",
  calendar: "AXGroup",
  checkbox: "AXCheckBox",
  combobox: "AXComboBox",
  custom: "AXGroup",
  datagrid: "AXTable",
  dataitem: "AXRow",
  document: "AXTextArea",
  edit: "AXTextField",
  group: "AXGroup",
  header: "AXGroup",
  headeritem: "AXCell",
  hyperlink: "AXLink",
  image: "AXImage",
  list: "AXList",
  listitem: "AXRow",
  menu: "AXMenu",
  menubar: "AXMenuBar",
  menuitem: "AXMenuItem",
  pane: "AXGroup",
  progressbar: "AXProgressIndicator",
  radiobutton: "AXRadioButton",
  scrollbar: "AXScrollBar",
  separator: "AXSplitter",
  slider: "AXSlider",
  spinner: "AXIncrementor",
  splitbutton: "AXMenuButton",
  statusbar: "AXGroup",
  tab: "AXTabGroup",
  tabitem: "AXRadioButton",
  table: "AXTable",
  text: "AXStaticText",
  titlebar: "AXGroup",
  toolbar: "AXToolbar",
  tooltip: "AXHelpTag",
  tree: "AXOutline",
  treeitem: "AXRow",
  window: "AXWindow",
};

/** The AX role for a role as Cua reported it. */
export function cuaRole(raw: string): string {
  const role = raw.trim();
  if (/^AX[A-Z]/.test(role)) return role;
  // UI Automation spells control types in PascalCase (`Button`, `ListItem`): only a
  // capitalised name is read as one, so AT-SPI's lower-case `text` stays AT-SPI's.
  if (/^[A-Z][A-Za-z]*$/.test(role)) {
    const uia = UIA[role.toLowerCase()];
    if (uia) return uia;
  }
  const name = role.toLowerCase().replace(/[\s-]+/g, "_");
  const atspi = ATSPI_ALIASES[name] ?? name;
  const index = ATSPI_ROLES.indexOf(atspi as AtspiRoleName);
  return index > 0 ? axRole(index) : "AXUnknown";
}

/** True for the roles of a top-level window (the root of a window's tree). */
export function isWindowRole(axRole: string): boolean {
  return axRole === "AXWindow";
}
