import assert from "node:assert/strict";
import type { ComMethod } from "../../ffi/windows/com.ts";
import { formatGuid } from "../../ffi/windows/guid.ts";
import {
  CLSID_CUIAUTOMATION8,
  IID,
  IUIAutomation,
  IUIAutomationCacheRequest,
  IUIAutomationElement,
  IUIAutomationElementArray,
  IUIAutomationTreeWalker,
} from "./interfaces.ts";
import * as patterns from "./patterns.ts";

/**
 * Methods of each interface in UIAutomationClient.idl order (propget = `get_`, propput =
 * `put_`), transcribed separately from the slot numbers in interfaces.ts and patterns.ts.
 */
const IDL: Record<string, { base?: string; methods: string }> = {
  IUIAutomation: {
    methods: `CompareElements CompareRuntimeIds GetRootElement ElementFromHandle
      ElementFromPoint GetFocusedElement GetRootElementBuildCache ElementFromHandleBuildCache
      ElementFromPointBuildCache GetFocusedElementBuildCache CreateTreeWalker
      get_ControlViewWalker get_ContentViewWalker get_RawViewWalker get_RawViewCondition
      get_ControlViewCondition get_ContentViewCondition CreateCacheRequest CreateTrueCondition
      CreateFalseCondition CreatePropertyCondition CreatePropertyConditionEx CreateAndCondition
      CreateAndConditionFromArray CreateAndConditionFromNativeArray CreateOrCondition
      CreateOrConditionFromArray CreateOrConditionFromNativeArray CreateNotCondition
      AddAutomationEventHandler RemoveAutomationEventHandler
      AddPropertyChangedEventHandlerNativeArray AddPropertyChangedEventHandler
      RemovePropertyChangedEventHandler AddStructureChangedEventHandler
      RemoveStructureChangedEventHandler AddFocusChangedEventHandler
      RemoveFocusChangedEventHandler RemoveAllEventHandlers IntNativeArrayToSafeArray
      IntSafeArrayToNativeArray RectToVariant VariantToRect SafeArrayToRectNativeArray
      CreateProxyFactoryEntry get_ProxyFactoryMapping GetPropertyProgrammaticName
      GetPatternProgrammaticName PollForPotentialSupportedPatterns
      PollForPotentialSupportedProperties CheckNotSupported get_ReservedNotSupportedValue
      get_ReservedMixedAttributeValue ElementFromIAccessible ElementFromIAccessibleBuildCache`,
  },
  IUIAutomation2: {
    base: "IUIAutomation",
    methods: `get_AutoSetFocus put_AutoSetFocus get_ConnectionTimeout put_ConnectionTimeout
      get_TransactionTimeout put_TransactionTimeout`,
  },
  IUIAutomationElement: {
    methods: `SetFocus GetRuntimeId FindFirst FindAll FindFirstBuildCache FindAllBuildCache
      BuildUpdatedCache GetCurrentPropertyValue GetCurrentPropertyValueEx
      GetCachedPropertyValue GetCachedPropertyValueEx GetCurrentPatternAs GetCachedPatternAs
      GetCurrentPattern GetCachedPattern GetCachedParent GetCachedChildren
      ${props("Current")} ${props("Cached")} GetClickablePoint`,
  },
  IUIAutomationElement2: {
    base: "IUIAutomationElement",
    methods: `get_CurrentOptimizeForVisualContent get_CachedOptimizeForVisualContent
      get_CurrentLiveSetting get_CachedLiveSetting get_CurrentFlowsFrom get_CachedFlowsFrom`,
  },
  IUIAutomationElement3: {
    base: "IUIAutomationElement2",
    methods: "ShowContextMenu get_CurrentIsPeripheral get_CachedIsPeripheral",
  },
  IUIAutomationCacheRequest: {
    methods: `AddProperty AddPattern Clone get_TreeScope put_TreeScope get_TreeFilter
      put_TreeFilter get_AutomationElementMode put_AutomationElementMode`,
  },
  IUIAutomationElementArray: { methods: "get_Length GetElement" },
  IUIAutomationTreeWalker: {
    methods: `GetParentElement GetFirstChildElement GetLastChildElement GetNextSiblingElement
      GetPreviousSiblingElement NormalizeElement GetParentElementBuildCache
      GetFirstChildElementBuildCache GetLastChildElementBuildCache
      GetNextSiblingElementBuildCache GetPreviousSiblingElementBuildCache
      NormalizeElementBuildCache get_Condition`,
  },
  IUIAutomationInvokePattern: { methods: "Invoke" },
  IUIAutomationValuePattern: {
    methods: `SetValue get_CurrentValue get_CurrentIsReadOnly get_CachedValue
      get_CachedIsReadOnly`,
  },
  IUIAutomationRangeValuePattern: {
    methods: `SetValue ${
      ["Value", "IsReadOnly", "Maximum", "Minimum", "LargeChange", "SmallChange"]
        .map((p) => `get_Current${p}`).join(" ")
    } ${
      ["Value", "IsReadOnly", "Maximum", "Minimum", "LargeChange", "SmallChange"]
        .map((p) => `get_Cached${p}`).join(" ")
    }`,
  },
  IUIAutomationTogglePattern: {
    methods: "Toggle get_CurrentToggleState get_CachedToggleState",
  },
  IUIAutomationSelectionItemPattern: {
    methods: `Select AddToSelection RemoveFromSelection get_CurrentIsSelected
      get_CurrentSelectionContainer get_CachedIsSelected get_CachedSelectionContainer`,
  },
  IUIAutomationExpandCollapsePattern: {
    methods: "Expand Collapse get_CurrentExpandCollapseState get_CachedExpandCollapseState",
  },
  IUIAutomationScrollItemPattern: { methods: "ScrollIntoView" },
};

/** IUIAutomationElement's block of Current or Cached property getters, in IDL order. */
function props(prefix: string): string {
  return `ProcessId ControlType LocalizedControlType Name AcceleratorKey AccessKey
    HasKeyboardFocus IsKeyboardFocusable IsEnabled AutomationId ClassName HelpText Culture
    IsControlElement IsContentElement IsPassword NativeWindowHandle ItemType IsOffscreen
    Orientation FrameworkId IsRequiredForForm ItemStatus BoundingRectangle LabeledBy AriaRole
    AriaProperties IsDataValidForForm ControllerFor DescribedBy FlowsTo ProviderDescription`
    .split(/\s+/).map((p) => `get_${prefix}${p}`).join(" ");
}

/** Slot of `iface::name` from the IDL lists: IUnknown's 3, then bases, then own. */
function idlSlot(iface: string, name: string): number | undefined {
  const chain: string[] = [];
  for (let i: string | undefined = iface; i; i = IDL[i]?.base) chain.unshift(i);
  let slot = 3;
  for (const i of chain) {
    const list = IDL[i]!.methods.trim().split(/\s+/);
    const at = list.indexOf(name);
    if (i === iface) return at >= 0 ? slot + at : undefined;
    slot += list.length;
  }
  return undefined;
}

function declared(): ComMethod[] {
  const groups: Record<string, unknown>[] = [
    IUIAutomation,
    IUIAutomationElement,
    IUIAutomationCacheRequest,
    IUIAutomationElementArray,
    IUIAutomationTreeWalker,
    ...Object.values(patterns),
  ];
  return groups.flatMap((g) =>
    Object.values(g).filter((v): v is ComMethod =>
      typeof v === "object" && v !== null && "slot" in v
    )
  );
}

Deno.test("every declared UIA method sits at its IDL slot", () => {
  const methods = declared();
  assert.ok(methods.length > 40);
  for (const m of methods) {
    const [iface, name] = m.name.split("::") as [string, string];
    assert.ok(IDL[iface], `no IDL list for ${iface}`);
    assert.equal(m.slot, idlSlot(iface, name), m.name);
  }
});

Deno.test("IDL lists agree with slots other bindings hard-code", () => {
  // Widely used UIA bindings (AutoHotkey's UIA_Interface, FlaUI's vtables) call these
  // slots by number; they anchor the transcription above.
  assert.equal(idlSlot("IUIAutomation", "GetRootElement"), 5);
  assert.equal(idlSlot("IUIAutomation", "ElementFromHandle"), 6);
  assert.equal(idlSlot("IUIAutomation", "CreateCacheRequest"), 20);
  assert.equal(idlSlot("IUIAutomationElement", "get_CurrentName"), 23);
  assert.equal(idlSlot("IUIAutomationElement", "get_CurrentBoundingRectangle"), 43);
  assert.equal(idlSlot("IUIAutomationElement", "GetClickablePoint"), 84);
  assert.equal(idlSlot("IUIAutomation2", "put_TransactionTimeout"), 63);
});

Deno.test("each pattern pairs its PATTERNID with its interface's IID", () => {
  const expect: Record<string, [number, string]> = {
    InvokePattern: [10000, "fb377fbe-8ea6-46d5-9c73-6499642d3059"],
    ValuePattern: [10002, "a94cd8b1-0844-4cd6-9d2d-640537ab39e9"],
    RangeValuePattern: [10003, "59213f4f-7346-49e5-b120-80555987a148"],
    ExpandCollapsePattern: [10005, "619be086-1f4e-4ee4-bafa-210128738730"],
    SelectionItemPattern: [10010, "a8efa66a-0fda-421a-9194-38021f3578ea"],
    TogglePattern: [10015, "94cf8058-9b8d-4ab9-8bfd-4cd0a33c8c70"],
    ScrollItemPattern: [10017, "b488300f-d015-4f19-9c29-bb595e3645ef"],
  };
  for (const [name, p] of Object.entries(patterns)) {
    const [id, iid] = expect[name]!;
    assert.equal(p.id, id, name);
    assert.equal(formatGuid(p.iid), iid, name);
  }
  assert.equal(formatGuid(CLSID_CUIAUTOMATION8), "e22ad333-b25f-460c-83d0-0581107395c9");
  assert.equal(formatGuid(IID.IUIAutomation2), "34723aff-0c9d-49d0-9896-7ab52df8cd8a");
});
