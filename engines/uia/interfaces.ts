/**
 * The UIA client interfaces the engine calls, as vtable slots (UIAutomationClient.h):
 * each method's slot is IUnknown's 3 plus its position in the IDL, with base interfaces'
 * methods first. `interfaces_test.ts` checks every slot against the IDL's method order.
 *
 * Out-parameters are `"buffer"` (a `BigUint64Array(1)` for pointers, an `Int32Array(1)`
 * for ints and BOOLs, 16 bytes for a RECT, 24 for a VARIANT). A `VARIANT` taken by value
 * is `"pointer"`: 64-bit Windows passes structs over 16 bytes by reference.
 *
 * @module
 */
import { method } from "../../ffi/windows/com.ts";
import { parseGuid } from "../../ffi/windows/guid.ts";

/** CLSID_CUIAutomation8 (Windows 8+): implements IUIAutomation2..6. */
export const CLSID_CUIAUTOMATION8 = parseGuid("e22ad333-b25f-460c-83d0-0581107395c9");

/** IIDs of the interfaces the engine asks for or implements. */
export const IID = {
  IUIAutomation2: parseGuid("34723aff-0c9d-49d0-9896-7ab52df8cd8a"),
  IUIAutomationElement: parseGuid("d22108aa-8ac5-49a5-837b-37bbb3d7591e"),
  IUIAutomationElement3: parseGuid("8471df34-aee0-4a01-a7de-7db9af12c296"),
  IUIAutomationEventHandler: parseGuid("146c3c17-f12e-4e22-8c27-f894b9b79c69"),
  IUIAutomationPropertyChangedEventHandler: parseGuid("40cd37d4-c756-4b0c-8c6f-bddfeeb13b50"),
  IUIAutomationStructureChangedEventHandler: parseGuid("e81d1b4e-11c5-42f8-9754-e7036c79f054"),
  IUIAutomationFocusChangedEventHandler: parseGuid("c270f6b5-5c69-4290-9745-7a7f97169468"),
  /** Marks an object callable from any apartment without marshaling. */
  IAgileObject: parseGuid("94ea2b94-e9cc-49e0-c0ff-ee64ca8f5b90"),
} as const;

/** IUIAutomation, and IUIAutomation2's timeouts (slots 58-63). */
export const IUIAutomation = {
  GetRootElement: method("IUIAutomation::GetRootElement", 5, ["buffer"]),
  ElementFromHandle: method("IUIAutomation::ElementFromHandle", 6, ["pointer", "buffer"]),
  GetRootElementBuildCache: method(
    "IUIAutomation::GetRootElementBuildCache",
    9,
    ["pointer", "buffer"],
  ),
  ElementFromHandleBuildCache: method(
    "IUIAutomation::ElementFromHandleBuildCache",
    10,
    ["pointer", "pointer", "buffer"],
  ),
  GetFocusedElement: method("IUIAutomation::GetFocusedElement", 8, ["buffer"]),
  GetFocusedElementBuildCache: method(
    "IUIAutomation::GetFocusedElementBuildCache",
    12,
    ["pointer", "buffer"],
  ),
  CreateTreeWalker: method("IUIAutomation::CreateTreeWalker", 13, ["pointer", "buffer"]),
  get_ControlViewWalker: method("IUIAutomation::get_ControlViewWalker", 14, ["buffer"]),
  get_ControlViewCondition: method("IUIAutomation::get_ControlViewCondition", 18, ["buffer"]),
  CreateCacheRequest: method("IUIAutomation::CreateCacheRequest", 20, ["buffer"]),
  CreateTrueCondition: method("IUIAutomation::CreateTrueCondition", 21, ["buffer"]),
  // HRESULT CreatePropertyCondition(PROPERTYID, VARIANT value, IUIAutomationCondition **)
  CreatePropertyCondition: method(
    "IUIAutomation::CreatePropertyCondition",
    23,
    ["i32", "pointer", "buffer"],
  ),
  CreateAndCondition: method(
    "IUIAutomation::CreateAndCondition",
    25,
    ["pointer", "pointer", "buffer"],
  ),
  // HRESULT AddAutomationEventHandler(EVENTID, element, TreeScope, cacheRequest, handler)
  AddAutomationEventHandler: method(
    "IUIAutomation::AddAutomationEventHandler",
    32,
    ["i32", "pointer", "i32", "pointer", "pointer"],
  ),
  // HRESULT RemoveAutomationEventHandler(EVENTID, element, handler)
  RemoveAutomationEventHandler: method(
    "IUIAutomation::RemoveAutomationEventHandler",
    33,
    ["i32", "pointer", "pointer"],
  ),
  // HRESULT AddPropertyChangedEventHandlerNativeArray(element, TreeScope, cacheRequest,
  //                                                   handler, PROPERTYID *, int count)
  AddPropertyChangedEventHandlerNativeArray: method(
    "IUIAutomation::AddPropertyChangedEventHandlerNativeArray",
    34,
    ["pointer", "i32", "pointer", "pointer", "buffer", "i32"],
  ),
  // HRESULT RemovePropertyChangedEventHandler(element, handler)
  RemovePropertyChangedEventHandler: method(
    "IUIAutomation::RemovePropertyChangedEventHandler",
    36,
    ["pointer", "pointer"],
  ),
  // HRESULT AddStructureChangedEventHandler(element, TreeScope, cacheRequest, handler)
  AddStructureChangedEventHandler: method(
    "IUIAutomation::AddStructureChangedEventHandler",
    37,
    ["pointer", "i32", "pointer", "pointer"],
  ),
  // HRESULT RemoveStructureChangedEventHandler(element, handler)
  RemoveStructureChangedEventHandler: method(
    "IUIAutomation::RemoveStructureChangedEventHandler",
    38,
    ["pointer", "pointer"],
  ),
  // HRESULT AddFocusChangedEventHandler(cacheRequest, handler)
  AddFocusChangedEventHandler: method(
    "IUIAutomation::AddFocusChangedEventHandler",
    39,
    ["pointer", "pointer"],
  ),
  RemoveAllEventHandlers: method("IUIAutomation::RemoveAllEventHandlers", 41, []),
  put_ConnectionTimeout: method("IUIAutomation2::put_ConnectionTimeout", 61, ["u32"]),
  put_TransactionTimeout: method("IUIAutomation2::put_TransactionTimeout", 63, ["u32"]),
} as const;

/** IUIAutomationElement (slots 3-84) and IUIAutomationElement3::ShowContextMenu (91). */
export const IUIAutomationElement = {
  SetFocus: method("IUIAutomationElement::SetFocus", 3, []),
  FindAll: method("IUIAutomationElement::FindAll", 6, ["i32", "pointer", "buffer"]),
  FindAllBuildCache: method(
    "IUIAutomationElement::FindAllBuildCache",
    8,
    ["i32", "pointer", "pointer", "buffer"],
  ),
  BuildUpdatedCache: method("IUIAutomationElement::BuildUpdatedCache", 9, ["pointer", "buffer"]),
  GetCurrentPropertyValue: method(
    "IUIAutomationElement::GetCurrentPropertyValue",
    10,
    ["i32", "buffer"],
  ),
  // HRESULT GetCurrentPropertyValueEx(PROPERTYID, BOOL ignoreDefaultValue, VARIANT *)
  GetCurrentPropertyValueEx: method(
    "IUIAutomationElement::GetCurrentPropertyValueEx",
    11,
    ["i32", "i32", "buffer"],
  ),
  GetCachedPropertyValue: method(
    "IUIAutomationElement::GetCachedPropertyValue",
    12,
    ["i32", "buffer"],
  ),
  GetCurrentPatternAs: method(
    "IUIAutomationElement::GetCurrentPatternAs",
    14,
    ["i32", "buffer", "buffer"],
  ),
  GetCachedPatternAs: method(
    "IUIAutomationElement::GetCachedPatternAs",
    15,
    ["i32", "buffer", "buffer"],
  ),
  GetCachedChildren: method("IUIAutomationElement::GetCachedChildren", 19, ["buffer"]),
  get_CachedProcessId: method("IUIAutomationElement::get_CachedProcessId", 52, ["buffer"]),
  get_CachedControlType: method("IUIAutomationElement::get_CachedControlType", 53, ["buffer"]),
  get_CachedName: method("IUIAutomationElement::get_CachedName", 55, ["buffer"]),
  get_CachedHasKeyboardFocus: method(
    "IUIAutomationElement::get_CachedHasKeyboardFocus",
    58,
    ["buffer"],
  ),
  get_CachedIsKeyboardFocusable: method(
    "IUIAutomationElement::get_CachedIsKeyboardFocusable",
    59,
    ["buffer"],
  ),
  get_CachedIsEnabled: method("IUIAutomationElement::get_CachedIsEnabled", 60, ["buffer"]),
  get_CachedAutomationId: method("IUIAutomationElement::get_CachedAutomationId", 61, ["buffer"]),
  get_CachedIsPassword: method("IUIAutomationElement::get_CachedIsPassword", 67, ["buffer"]),
  get_CachedIsOffscreen: method("IUIAutomationElement::get_CachedIsOffscreen", 70, ["buffer"]),
  get_CachedFrameworkId: method("IUIAutomationElement::get_CachedFrameworkId", 72, ["buffer"]),
  get_CachedBoundingRectangle: method(
    "IUIAutomationElement::get_CachedBoundingRectangle",
    75,
    ["buffer"],
  ),
  ShowContextMenu: method("IUIAutomationElement3::ShowContextMenu", 91, []),
} as const;

/** IUIAutomationCacheRequest. */
export const IUIAutomationCacheRequest = {
  AddProperty: method("IUIAutomationCacheRequest::AddProperty", 3, ["i32"]),
  AddPattern: method("IUIAutomationCacheRequest::AddPattern", 4, ["i32"]),
  put_TreeScope: method("IUIAutomationCacheRequest::put_TreeScope", 7, ["i32"]),
  put_TreeFilter: method("IUIAutomationCacheRequest::put_TreeFilter", 9, ["pointer"]),
  put_AutomationElementMode: method(
    "IUIAutomationCacheRequest::put_AutomationElementMode",
    11,
    ["i32"],
  ),
} as const;

/** IUIAutomationElementArray. */
export const IUIAutomationElementArray = {
  get_Length: method("IUIAutomationElementArray::get_Length", 3, ["buffer"]),
  GetElement: method("IUIAutomationElementArray::GetElement", 4, ["i32", "buffer"]),
} as const;

/** IUIAutomationTreeWalker: one element per call, for walks that must stop at a budget. */
export const IUIAutomationTreeWalker = {
  GetFirstChildElement: method(
    "IUIAutomationTreeWalker::GetFirstChildElement",
    4,
    ["pointer", "buffer"],
  ),
  GetNextSiblingElement: method(
    "IUIAutomationTreeWalker::GetNextSiblingElement",
    6,
    ["pointer", "buffer"],
  ),
  GetFirstChildElementBuildCache: method(
    "IUIAutomationTreeWalker::GetFirstChildElementBuildCache",
    10,
    ["pointer", "pointer", "buffer"],
  ),
  GetNextSiblingElementBuildCache: method(
    "IUIAutomationTreeWalker::GetNextSiblingElementBuildCache",
    12,
    ["pointer", "pointer", "buffer"],
  ),
} as const;
