/**
 * UIA control types (`UIA_*ControlTypeId`, 50000-50040) mapped to the AX vocabulary
 * every engine emits, so ids and router decisions compare across OSes (protocol.md,
 * "Elements"). Where AX has no counterpart the choice follows the AT-SPI engine's for
 * the same widget (status bar, header, title bar: `AXGroup`).
 *
 * @module
 */

/** One control type: its id, UIA's name for it, and its AX role. */
export interface ControlType {
  /** `UIA_<name>ControlTypeId`. */
  readonly id: number;
  /** UIA's name (`Button`, `Edit`, ...). */
  readonly uia: string;
  /** AX role. */
  readonly ax: string;
}

/** Every control type Windows defines, in id order from 50000. */
export const CONTROL_TYPES: readonly ControlType[] = [
  { id: 50000, uia: "Button", ax: "AXButton" },
  { id: 50001, uia: "Calendar", ax: "AXGroup" },
  { id: 50002, uia: "CheckBox", ax: "AXCheckBox" },
  { id: 50003, uia: "ComboBox", ax: "AXComboBox" },
  { id: 50004, uia: "Edit", ax: "AXTextField" },
  { id: 50005, uia: "Hyperlink", ax: "AXLink" },
  { id: 50006, uia: "Image", ax: "AXImage" },
  { id: 50007, uia: "ListItem", ax: "AXRow" },
  { id: 50008, uia: "List", ax: "AXList" },
  { id: 50009, uia: "Menu", ax: "AXMenu" },
  { id: 50010, uia: "MenuBar", ax: "AXMenuBar" },
  { id: 50011, uia: "MenuItem", ax: "AXMenuItem" },
  { id: 50012, uia: "ProgressBar", ax: "AXProgressIndicator" },
  { id: 50013, uia: "RadioButton", ax: "AXRadioButton" },
  { id: 50014, uia: "ScrollBar", ax: "AXScrollBar" },
  { id: 50015, uia: "Slider", ax: "AXSlider" },
  { id: 50016, uia: "Spinner", ax: "AXIncrementor" },
  { id: 50017, uia: "StatusBar", ax: "AXGroup" },
  { id: 50018, uia: "Tab", ax: "AXTabGroup" },
  // AX models a tab as a radio button in its tab group, as the AT-SPI engine does.
  { id: 50019, uia: "TabItem", ax: "AXRadioButton" },
  { id: 50020, uia: "Text", ax: "AXStaticText" },
  { id: 50021, uia: "ToolBar", ax: "AXToolbar" },
  { id: 50022, uia: "ToolTip", ax: "AXHelpTag" },
  { id: 50023, uia: "Tree", ax: "AXOutline" },
  { id: 50024, uia: "TreeItem", ax: "AXRow" },
  { id: 50025, uia: "Custom", ax: "AXGroup" },
  { id: 50026, uia: "Group", ax: "AXGroup" },
  // The draggable part of a scroll bar or slider.
  { id: 50027, uia: "Thumb", ax: "AXValueIndicator" },
  { id: 50028, uia: "DataGrid", ax: "AXTable" },
  { id: 50029, uia: "DataItem", ax: "AXRow" },
  { id: 50030, uia: "Document", ax: "AXTextArea" },
  { id: 50031, uia: "SplitButton", ax: "AXMenuButton" },
  { id: 50032, uia: "Window", ax: "AXWindow" },
  { id: 50033, uia: "Pane", ax: "AXGroup" },
  { id: 50034, uia: "Header", ax: "AXGroup" },
  { id: 50035, uia: "HeaderItem", ax: "AXCell" },
  { id: 50036, uia: "Table", ax: "AXTable" },
  { id: 50037, uia: "TitleBar", ax: "AXGroup" },
  { id: 50038, uia: "Separator", ax: "AXSplitter" },
  { id: 50039, uia: "SemanticZoom", ax: "AXGroup" },
  { id: 50040, uia: "AppBar", ax: "AXToolbar" },
];

/** First and last ids Windows defines. */
export const FIRST_CONTROL_TYPE = 50000;
/** Last id Windows defines (AppBar, Windows 8.1). */
export const LAST_CONTROL_TYPE = 50040;

const BY_ID = new Map(CONTROL_TYPES.map((t) => [t.id, t]));

/** Frameworks whose Document is a web page (AX: `AXWebArea`), not a text editor. */
const WEB_FRAMEWORKS = new Set(["chrome", "gecko", "microsoftedge", "webview"]);

/** Facts beyond the control type that AX distinguishes. */
export interface RoleHints {
  /** The element's value can be typed into (Value pattern, not read-only). */
  editable?: boolean;
  /** `FrameworkId` (`Win32`, `WPF`, `XAML`, `Chrome`, ...). */
  framework?: string;
}

/** UIA's name for a control type id (`Unknown(n)` for ids Windows does not define). */
export function controlTypeName(id: number): string {
  return BY_ID.get(id)?.uia ?? `Unknown(${id})`;
}

/**
 * The AX role for a control type. A combo box that cannot be typed into is AX's pop-up
 * button; a browser's Document is a web area.
 */
export function axRoleOf(id: number, hints: RoleHints = {}): string {
  const type = BY_ID.get(id);
  if (!type) return "AXUnknown";
  if (type.uia === "ComboBox" && hints.editable === false) return "AXPopUpButton";
  if (type.uia === "Document" && WEB_FRAMEWORKS.has((hints.framework ?? "").toLowerCase())) {
    return "AXWebArea";
  }
  return type.ax;
}
