/**
 * The control-pattern interfaces the engine acts through, as vtable slots
 * (UIAutomationClient.h), with the IID and PATTERNID to fetch each from an element.
 *
 * @module
 */
import { method } from "../../ffi/windows/com.ts";
import { parseGuid } from "../../ffi/windows/guid.ts";
import { PATTERN } from "./ids.ts";

/** IUIAutomationInvokePattern: buttons, menu items, links. */
export const InvokePattern = {
  id: PATTERN.Invoke,
  iid: parseGuid("fb377fbe-8ea6-46d5-9c73-6499642d3059"),
  Invoke: method("IUIAutomationInvokePattern::Invoke", 3, []),
} as const;

/** IUIAutomationValuePattern: text fields and other string values. */
export const ValuePattern = {
  id: PATTERN.Value,
  iid: parseGuid("a94cd8b1-0844-4cd6-9d2d-640537ab39e9"),
  // HRESULT SetValue(BSTR val)
  SetValue: method("IUIAutomationValuePattern::SetValue", 3, ["pointer"]),
  get_CurrentValue: method("IUIAutomationValuePattern::get_CurrentValue", 4, ["buffer"]),
} as const;

/** IUIAutomationRangeValuePattern: sliders, spinners. */
export const RangeValuePattern = {
  id: PATTERN.RangeValue,
  iid: parseGuid("59213f4f-7346-49e5-b120-80555987a148"),
  SetValue: method("IUIAutomationRangeValuePattern::SetValue", 3, ["f64"]),
} as const;

/** IUIAutomationTogglePattern: check boxes, toggle buttons. */
export const TogglePattern = {
  id: PATTERN.Toggle,
  iid: parseGuid("94cf8058-9b8d-4ab9-8bfd-4cd0a33c8c70"),
  Toggle: method("IUIAutomationTogglePattern::Toggle", 3, []),
  // HRESULT get_CurrentToggleState(ToggleState*): 0 off, 1 on, 2 indeterminate
  get_CurrentToggleState: method("IUIAutomationTogglePattern::get_CurrentToggleState", 4, [
    "buffer",
  ]),
} as const;

/** IUIAutomationSelectionItemPattern: list and tab items, radio buttons. */
export const SelectionItemPattern = {
  id: PATTERN.SelectionItem,
  iid: parseGuid("a8efa66a-0fda-421a-9194-38021f3578ea"),
  Select: method("IUIAutomationSelectionItemPattern::Select", 3, []),
} as const;

/** IUIAutomationExpandCollapsePattern: combo boxes, tree items, menus. */
export const ExpandCollapsePattern = {
  id: PATTERN.ExpandCollapse,
  iid: parseGuid("619be086-1f4e-4ee4-bafa-210128738730"),
  Expand: method("IUIAutomationExpandCollapsePattern::Expand", 3, []),
  Collapse: method("IUIAutomationExpandCollapsePattern::Collapse", 4, []),
} as const;

/** IUIAutomationScrollItemPattern: items inside scrolled containers. */
export const ScrollItemPattern = {
  id: PATTERN.ScrollItem,
  iid: parseGuid("b488300f-d015-4f19-9c29-bb595e3645ef"),
  ScrollIntoView: method("IUIAutomationScrollItemPattern::ScrollIntoView", 3, []),
} as const;
