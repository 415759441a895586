/**
 * UI Automation's numeric ids (UIAutomationClient.h): properties, control patterns,
 * events, tree scopes. Only the ones the engine uses.
 *
 * @module
 */

/** `PROPERTYID`s. */
export const PROP = {
  RuntimeId: 30000,
  BoundingRectangle: 30001,
  ProcessId: 30002,
  ControlType: 30003,
  Name: 30005,
  HasKeyboardFocus: 30008,
  IsKeyboardFocusable: 30009,
  IsEnabled: 30010,
  AutomationId: 30011,
  ClassName: 30012,
  IsPassword: 30019,
  NativeWindowHandle: 30020,
  IsOffscreen: 30022,
  FrameworkId: 30024,
  IsExpandCollapsePatternAvailable: 30028,
  IsInvokePatternAvailable: 30031,
  IsRangeValuePatternAvailable: 30033,
  IsScrollItemPatternAvailable: 30035,
  IsSelectionItemPatternAvailable: 30036,
  IsTogglePatternAvailable: 30041,
  IsValuePatternAvailable: 30043,
  ValueValue: 30045,
  ValueIsReadOnly: 30046,
  RangeValueValue: 30047,
  RangeValueIsReadOnly: 30048,
  ExpandCollapseState: 30070,
  SelectionItemIsSelected: 30079,
  ToggleState: 30086,
} as const;

/** `PATTERNID`s. */
export const PATTERN = {
  Invoke: 10000,
  Value: 10002,
  RangeValue: 10003,
  ExpandCollapse: 10005,
  SelectionItem: 10010,
  Toggle: 10015,
  ScrollItem: 10017,
} as const;

/** `EVENTID`s. */
export const EVENT = {
  StructureChanged: 20002,
  MenuOpened: 20003,
  AutomationPropertyChanged: 20004,
  AutomationFocusChanged: 20005,
  Text_TextChanged: 20015,
  Window_WindowOpened: 20016,
} as const;

/** `enum TreeScope`. */
export const TREE_SCOPE = {
  Element: 0x1,
  Children: 0x2,
  Descendants: 0x4,
  Subtree: 0x7,
} as const;

/** `enum AutomationElementMode`: `None` caches values without a live element reference. */
export const ELEMENT_MODE = { None: 0, Full: 1 } as const;

/** `enum StructureChangeType`: for ChildAdded the sender is the new child, else the parent. */
export const STRUCTURE_CHANGE = {
  ChildAdded: 0,
  ChildRemoved: 1,
  ChildrenInvalidated: 2,
  ChildrenBulkAdded: 3,
  ChildrenBulkRemoved: 4,
  ChildrenReordered: 5,
} as const;
