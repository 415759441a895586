/**
 * The live map's staleness probe, two calls per window: the window element's child count
 * and the focused element (live map, "Full walks ... the staleness probe").
 *
 * @module
 */
import { ComPtr, outPointer } from "../../ffi/windows/com.ts";
import { checkHr, HR } from "../../ffi/windows/hresult.ts";
import { cachedRuntimeId, handleOfRuntimeId, type OleLib } from "./element_props.ts";
import { TREE_SCOPE } from "./ids.ts";
import {
  IUIAutomation as U,
  IUIAutomationElement as E,
  IUIAutomationElementArray as A,
} from "./interfaces.ts";

/** Children of `el` in the control view (one cross-process call). */
export function controlViewChildCount(automation: ComPtr, el: ComPtr): number {
  const out = outPointer();
  automation.call(U.get_ControlViewCondition, out);
  using cond = ComPtr.expectOut(out, "IUIAutomationCondition", "get_ControlViewCondition");
  el.call(E.FindAll, TREE_SCOPE.Children, cond.ptr, out);
  using array = ComPtr.expectOut(out, "IUIAutomationElementArray", "FindAll");
  const length = new Int32Array(1);
  array.call(A.get_Length, length);
  return length[0]!;
}

/**
 * The handle of the element with keyboard focus anywhere, from its cached runtime id
 * (`request` caches it); `null` when nothing has focus.
 */
export function focusedHandle(ole: OleLib, automation: ComPtr, request: ComPtr): string | null {
  const out = outPointer();
  const hr = automation.invoke(U.GetFocusedElementBuildCache, request.ptr, out);
  // No focused element (a secure desktop, a locked session) is an answer, not a fault.
  if (hr === HR.UIA_E_ELEMENTNOTAVAILABLE) return null;
  checkHr(hr, U.GetFocusedElementBuildCache.name);
  using el = ComPtr.fromOut(out, "IUIAutomationElement");
  return el ? handleOfRuntimeId(cachedRuntimeId(ole, el)) : null;
}
