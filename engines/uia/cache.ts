/**
 * The cache requests that let one cross-process call bring back everything a read
 * needs. The `subtree` request caches the properties and patterns below for the element
 * and every descendant in the control view that is on screen, so a whole window arrives
 * with `ElementFromHandleBuildCache` and is then walked locally with `GetCachedChildren`.
 *
 * @module
 */
import { ComPtr, outPointer } from "../../ffi/windows/com.ts";
import { boolVariant } from "../../ffi/windows/variant.ts";
import { ELEMENT_MODE, PATTERN, PROP, TREE_SCOPE } from "./ids.ts";
import { IUIAutomation, IUIAutomationCacheRequest } from "./interfaces.ts";
import { UiaCompat } from "./compat.ts";

/** Properties a read caches for every element (element_props.ts reads them back). */
export const READ_PROPERTIES: readonly number[] = [
  PROP.RuntimeId,
  PROP.ProcessId,
  PROP.ControlType,
  PROP.Name,
  PROP.BoundingRectangle,
  PROP.IsEnabled,
  PROP.HasKeyboardFocus,
  PROP.IsKeyboardFocusable,
  PROP.AutomationId,
  PROP.IsPassword,
  PROP.IsOffscreen,
  PROP.FrameworkId,
  PROP.ValueValue,
  PROP.ValueIsReadOnly,
  PROP.RangeValueValue,
  PROP.RangeValueIsReadOnly,
  PROP.IsInvokePatternAvailable,
  PROP.IsTogglePatternAvailable,
  PROP.IsSelectionItemPatternAvailable,
  PROP.IsExpandCollapsePatternAvailable,
  PROP.IsScrollItemPatternAvailable,
  PROP.IsValuePatternAvailable,
  PROP.IsRangeValuePatternAvailable,
];

/** Pattern objects a read caches, so acting needs no extra call to fetch them. */
export const READ_PATTERNS: readonly number[] = [
  PATTERN.Invoke,
  PATTERN.Value,
  PATTERN.RangeValue,
  PATTERN.Toggle,
  PATTERN.SelectionItem,
  PATTERN.ExpandCollapse,
  PATTERN.ScrollItem,
];

/** Properties event senders carry, so a handler needs no call back into the app. */
export const EVENT_PROPERTIES: readonly number[] = [PROP.RuntimeId, PROP.ProcessId];

/** Every request the engine uses, built once per automation object. */
export interface CacheRequests {
  /**
   * Whole on-screen control-view subtree, every read property and pattern; absent where
   * UIA cannot cache a subtree (Wine), and windows are then read element by element.
   */
  subtree: ComPtr | undefined;
  /** One element, every read property and pattern. */
  element: ComPtr;
  /** One element's runtime id and bounds (a `bounds` patch). */
  bounds: ComPtr;
  /** Event senders: runtime id and process id. */
  events: ComPtr;
}

/** Builds one cache request. */
export function cacheRequest(
  automation: ComPtr,
  scope: number,
  properties: readonly number[],
  patterns: readonly number[] = [],
  filter?: ComPtr,
  compat: UiaCompat = new UiaCompat(),
): ComPtr {
  const out = outPointer();
  automation.call(IUIAutomation.CreateCacheRequest, out);
  const req = ComPtr.expectOut(out, "IUIAutomationCacheRequest", "CreateCacheRequest");
  try {
    for (const p of properties) req.call(IUIAutomationCacheRequest.AddProperty, p);
    for (const p of patterns) {
      compat.run(
        "IUIAutomationCacheRequest::AddPattern",
        "patterns fetched live when acting",
        () => req.call(IUIAutomationCacheRequest.AddPattern, p),
        () => undefined,
      );
    }
    req.call(IUIAutomationCacheRequest.put_TreeScope, scope);
    if (filter) req.call(IUIAutomationCacheRequest.put_TreeFilter, filter.ptr);
    req.call(IUIAutomationCacheRequest.put_AutomationElementMode, ELEMENT_MODE.Full);
    return req;
  } catch (err) {
    req.release();
    throw err;
  }
}

/**
 * The control view without what is off screen: hidden pages, collapsed panes and the
 * unrealised rows of long lists are not read (the AT-SPI engine skips them too).
 */
export function onScreenControlView(automation: ComPtr, compat = new UiaCompat()): ComPtr {
  const out = outPointer();
  automation.call(IUIAutomation.get_ControlViewCondition, out);
  using control = ComPtr.expectOut(out, "IUIAutomationCondition", "get_ControlViewCondition");
  automation.call(
    IUIAutomation.CreatePropertyCondition,
    PROP.IsOffscreen,
    Deno.UnsafePointer.of(boolVariant(false)),
    out,
  );
  using onScreen = ComPtr.expectOut(out, "IUIAutomationCondition", "CreatePropertyCondition");
  return compat.run(
    "IUIAutomation::CreateAndCondition",
    "the control view alone, off-screen elements skipped as they are read",
    () => {
      automation.call(IUIAutomation.CreateAndCondition, control.ptr, onScreen.ptr, out);
      return ComPtr.expectOut(out, "IUIAutomationCondition", "CreateAndCondition");
    },
    () => control.addRef(),
  );
}

// The subtree request, or none where UIA cannot cache a subtree (Wine stubs that scope).
function subtreeRequest(
  automation: ComPtr,
  filter: ComPtr,
  compat: UiaCompat,
): ComPtr | undefined {
  return compat.run(
    "IUIAutomationCacheRequest::put_TreeScope(Subtree)",
    "windows read element by element with live properties",
    () =>
      cacheRequest(
        automation,
        TREE_SCOPE.Subtree,
        READ_PROPERTIES,
        READ_PATTERNS,
        filter,
        compat,
      ),
    () => undefined,
  );
}

/** Builds every request; releases what it built if one fails. */
export function buildCacheRequests(
  automation: ComPtr,
  compat: UiaCompat = new UiaCompat(),
): CacheRequests {
  const made: ComPtr[] = [];
  const keep = <T extends ComPtr | undefined>(p: T) => (p && made.push(p), p);
  const element = (props: readonly number[], patterns: readonly number[] = []) =>
    keep(cacheRequest(automation, TREE_SCOPE.Element, props, patterns, undefined, compat));
  try {
    using filter = onScreenControlView(automation, compat);
    return {
      subtree: keep(subtreeRequest(automation, filter, compat)),
      element: element(READ_PROPERTIES, READ_PATTERNS),
      bounds: element([PROP.RuntimeId, PROP.BoundingRectangle]),
      events: element(EVENT_PROPERTIES),
    };
  } catch (err) {
    for (const p of made) p.release();
    throw err;
  }
}

/** Releases every request. */
export function releaseCacheRequests(r: CacheRequests): void {
  for (const p of [r.subtree, r.element, r.bounds, r.events]) p?.release();
}
