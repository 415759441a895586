/**
 * Element actions through UIA control patterns: Invoke, Toggle, SelectionItem,
 * ExpandCollapse, ScrollItem, Value and RangeValue, plus SetFocus and
 * IUIAutomationElement3::ShowContextMenu. Where an element offers no pattern for an
 * action, the answer asks the engine to click its centre (`via: "pixel"`), never silently.
 * Runs on the COM worker; the pixel and keyboard parts run on the engine's thread.
 *
 * @module
 */
import { OwnedBstr, takeBstrOut } from "../../ffi/windows/bstr.ts";
import { ComPtr, invoke, outPointer } from "../../ffi/windows/com.ts";
import type { Guid } from "../../ffi/windows/guid.ts";
import type { ActionName } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { OleLib } from "./element_props.ts";
import { IID, IUIAutomationElement as E } from "./interfaces.ts";
import {
  ExpandCollapsePattern,
  InvokePattern,
  RangeValuePattern,
  ScrollItemPattern,
  SelectionItemPattern,
  TogglePattern,
  ValuePattern,
} from "./patterns.ts";

/** How the action went, or what the engine's thread must still do. */
export type ActReply =
  | { via: "action"; found?: string }
  | { pixel: "left" | "right" }
  | { keyboard: string };

/** The node an action names, as the map holds it. */
export interface ActTarget {
  /** Name, for messages. */
  name: string;
  /** Role, for messages when there is no name. */
  role: string;
  /** Actions the map advertised (sent back with a refusal). */
  actions: ActionName[];
}

/** A pattern object of `el`: the cached one when the read cached it, else the live one. */
export function patternOf(
  el: ComPtr,
  pattern: { id: number; iid: Guid },
  name: string,
): ComPtr | null {
  for (const m of [E.GetCachedPatternAs, E.GetCurrentPatternAs]) {
    const out = outPointer();
    // A failure here only means "not this way"; the other way, or none, follows.
    if (invoke(el.ptr, m, pattern.id, pattern.iid, out) >= 0) {
      const p = ComPtr.fromOut(out, name);
      if (p) return p;
    }
  }
  return null;
}

function refused(t: ActTarget, what: string, why: string): DriverError {
  return new DriverError(
    "action_not_supported",
    `Cannot ${what} "${t.name || t.role}": ${why}`,
    { actions: t.actions },
  );
}

function needValue(action: string, value: string | undefined): string {
  if (value !== undefined) return value;
  throw new DriverError("invalid_params", `${action} needs "value"`, {
    issues: [{ path: ["value"], message: `Required for ${action}` }],
  });
}

type Call = [{ id: number; iid: Guid }, string, (p: ComPtr) => void];

/** Tries each pattern in order; true when one was there and its call succeeded. */
function firstOf(el: ComPtr, calls: Call[]): boolean {
  for (const [pattern, name, run] of calls) {
    const p = patternOf(el, pattern, name);
    if (!p) continue;
    using _owned = p;
    run(p);
    return true;
  }
  return false;
}

const invokeIt: Call = [
  InvokePattern,
  "IUIAutomationInvokePattern",
  (p) => p.call(InvokePattern.Invoke),
];
const toggleIt: Call = [
  TogglePattern,
  "IUIAutomationTogglePattern",
  (p) => p.call(TogglePattern.Toggle),
];
const selectIt: Call = [
  SelectionItemPattern,
  "IUIAutomationSelectionItemPattern",
  (p) => p.call(SelectionItemPattern.Select),
];
const expandIt: Call = [
  ExpandCollapsePattern,
  "IUIAutomationExpandCollapsePattern",
  (p) => p.call(ExpandCollapsePattern.Expand),
];
const collapseIt: Call = [
  ExpandCollapsePattern,
  "IUIAutomationExpandCollapsePattern",
  (p) => p.call(ExpandCollapsePattern.Collapse),
];

/** Performs `action` on `el`. */
export function performAction(
  ole: OleLib,
  el: ComPtr,
  target: ActTarget,
  action: ActionName,
  value: string | undefined,
): ActReply {
  switch (action) {
    case "press":
    case "click":
      return firstOf(el, [invokeIt, toggleIt, selectIt]) ? { via: "action" } : { pixel: "left" };
    case "select":
      return firstOf(el, [selectIt, invokeIt]) ? { via: "action" } : { pixel: "left" };
    case "expand":
      return firstOf(el, [expandIt]) ? { via: "action" } : { pixel: "left" };
    case "collapse":
      return firstOf(el, [collapseIt]) ? { via: "action" } : { pixel: "left" };
    case "check":
    case "uncheck":
      return toggleTo(el, target, action === "check");
    case "scroll_into_view": {
      const done = firstOf(el, [[
        ScrollItemPattern,
        "IUIAutomationScrollItemPattern",
        (p) => p.call(ScrollItemPattern.ScrollIntoView),
      ]]);
      if (!done) throw refused(target, "scroll", "it has no ScrollItem pattern");
      return { via: "action" };
    }
    case "focus":
      el.call(E.SetFocus);
      return { via: "action" };
    case "show_menu": {
      using el3 = el.query(IID.IUIAutomationElement3, "IUIAutomationElement3");
      // Windows 8.1+; providers that do not implement it answer a failure: right-click.
      if (el3 && el3.invoke(E.ShowContextMenu) >= 0) return { via: "action" };
      return { pixel: "right" };
    }
    case "set_value":
      return setValue(ole, el, target, needValue("set_value", value));
    case "type_text":
      return typeText(ole, el, target, needValue("type_text", value));
  }
}

/** ToggleState_Off and ToggleState_On (2 is indeterminate: neither). */
const TOGGLE_OFF = 0;
const TOGGLE_ON = 1;

/**
 * Toggles until the element is on (`on`) or off: a tri-state box cycles off, on,
 * indeterminate, so at most two toggles. Left alone when already there; `found` when the
 * state never came.
 */
function toggleTo(el: ComPtr, target: ActTarget, on: boolean): ActReply {
  const toggle = patternOf(el, TogglePattern, "IUIAutomationTogglePattern");
  if (!toggle) throw refused(target, on ? "check" : "uncheck", "it has no Toggle pattern");
  using p = toggle;
  const state = () => {
    const out = new Int32Array(1);
    p.call(TogglePattern.get_CurrentToggleState, out);
    return out[0]!;
  };
  const reached = () => state() === (on ? TOGGLE_ON : TOGGLE_OFF);
  for (let i = 0; i < 2 && !reached(); i++) p.call(TogglePattern.Toggle);
  return reached() ? { via: "action" } : { via: "action", found: on ? "unchecked" : "checked" };
}

function setValue(ole: OleLib, el: ComPtr, target: ActTarget, value: string): ActReply {
  const text = patternOf(el, ValuePattern, "IUIAutomationValuePattern");
  if (text) {
    using p = text;
    using bstr = OwnedBstr.from(ole, value);
    p.call(ValuePattern.SetValue, bstr.ptr);
    return { via: "action" };
  }
  const range = patternOf(el, RangeValuePattern, "IUIAutomationRangeValuePattern");
  if (!range) throw refused(target, "set the value of", "it has no Value or RangeValue pattern");
  using p = range;
  const n = Number(value);
  if (!Number.isFinite(n)) {
    throw new DriverError("invalid_params", `"${value}" is not a number for a ranged element`, {
      issues: [{ path: ["value"], message: "Expected a number" }],
    });
  }
  p.call(RangeValuePattern.SetValue, n);
  return { via: "action" };
}

function typeText(ole: OleLib, el: ComPtr, target: ActTarget, value: string): ActReply {
  // Typing where the caret is, like a person: focus through UIA, keys through SendInput.
  if (el.invoke(E.SetFocus) >= 0) return { keyboard: value };
  // Not focusable (some custom controls): append through the Value pattern instead.
  const text = patternOf(el, ValuePattern, "IUIAutomationValuePattern");
  if (!text) throw refused(target, "type into", "it takes no focus and has no Value pattern");
  using p = text;
  const out = outPointer();
  p.call(ValuePattern.get_CurrentValue, out);
  using bstr = OwnedBstr.from(ole, takeBstrOut(ole, out) + value);
  p.call(ValuePattern.SetValue, bstr.ptr);
  return { via: "action" };
}
