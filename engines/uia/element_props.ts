/**
 * One element's cached properties, read back after a cache request brought them over
 * (every call here is answered from the client-side cache, without a cross-process
 * round trip), and the pure mapping from those facts to the engine's {@link RawNode}.
 *
 * @module
 */
import type { BstrLib } from "../../ffi/windows/bstr.ts";
import { takeBstrOut } from "../../ffi/windows/bstr.ts";
import { type ComPtr, invoke } from "../../ffi/windows/com.ts";
import { checkHr } from "../../ffi/windows/hresult.ts";
import { readRect, RECT_SIZE, rectBounds } from "../../ffi/windows/structs.ts";
import { receiveVariant, type VariantLib, type VariantValue } from "../../ffi/windows/variant.ts";
import type { ActionName, Bounds } from "../../protocol/element.ts";
import type { RawNode } from "../../model/engine.ts";
import { axRoleOf, controlTypeName } from "./control_types.ts";
import { PROP } from "./ids.ts";
import { IUIAutomationElement as E } from "./interfaces.ts";

/** Longest value kept; longer documents are cut (agents page with find), as on AT-SPI. */
export const MAX_VALUE = 10_000;

/** The oleaut32 functions reading needs. */
export type OleLib = VariantLib & BstrLib;

/** What the engine knows of one element after a read. */
export interface ElementFacts {
  /** `RuntimeId`: unique and stable while the element lives. */
  runtimeId: number[];
  /** Owning process. */
  pid: number;
  /** `UIA_*ControlTypeId`. */
  controlType: number;
  /** Accessible name. */
  name: string;
  /** Screen pixels. */
  bounds: Bounds;
  /** Enabled. */
  enabled: boolean;
  /** Has keyboard focus. */
  focused: boolean;
  /** Can take keyboard focus. */
  focusable: boolean;
  /** A password field: its value is never read. */
  password: boolean;
  /** Not on screen (scrolled away, hidden page). */
  offscreen: boolean;
  /** `FrameworkId` (`Win32`, `XAML`, `Chrome`, ...). */
  framework: string;
  /** Value pattern's value, when it has one. */
  value?: string;
  /** Value pattern is read-only. */
  valueReadOnly: boolean;
  /** RangeValue pattern's value, when it has one. */
  range?: number;
  /** RangeValue pattern is read-only. */
  rangeReadOnly: boolean;
  /** Which action patterns the element supports. */
  patterns: PatternSet;
}

/** Action patterns an element supports. */
export interface PatternSet {
  /** Invoke: buttons, menu items, links. */
  invoke: boolean;
  /** Toggle: check boxes, toggle buttons. */
  toggle: boolean;
  /** SelectionItem: list and tab items. */
  selectionItem: boolean;
  /** ExpandCollapse: tree items, combo boxes, menus. */
  expandCollapse: boolean;
  /** ScrollItem: items in scrolled containers. */
  scrollItem: boolean;
  /** Value: string values, text fields. */
  value: boolean;
  /** RangeValue: sliders, spinners. */
  rangeValue: boolean;
}

function int(el: ComPtr, m: typeof E.get_CachedControlType): number {
  const out = new Int32Array(1);
  checkHr(invoke(el.ptr, m, out), m.name);
  return out[0]!;
}

function str(ole: OleLib, el: ComPtr, m: typeof E.get_CachedName): string {
  const out = new BigUint64Array(1);
  checkHr(invoke(el.ptr, m, out), m.name);
  return takeBstrOut(ole, out);
}

/** A cached property as a plain value (`undefined` where UIA says "not supported"). */
export function cachedProperty(ole: OleLib, el: ComPtr, property: number): VariantValue {
  return receiveVariant(ole, (v) => {
    checkHr(invoke(el.ptr, E.GetCachedPropertyValue, property, v), E.GetCachedPropertyValue.name);
  });
}

/** The element's cached runtime id (`[]` when it has none). */
export function cachedRuntimeId(ole: OleLib, el: ComPtr): number[] {
  const ids = cachedProperty(ole, el, PROP.RuntimeId);
  return Array.isArray(ids) ? ids.map(Number) : [];
}

/** Reads every cached fact of `el` (cached with the `element` or `subtree` request). */
export function readFacts(ole: OleLib, el: ComPtr): ElementFacts {
  const rect = new Uint8Array(RECT_SIZE);
  checkHr(invoke(el.ptr, E.get_CachedBoundingRectangle, rect), E.get_CachedBoundingRectangle.name);
  const has = (p: number) => cachedProperty(ole, el, p) === true;
  const patterns: PatternSet = {
    invoke: has(PROP.IsInvokePatternAvailable),
    toggle: has(PROP.IsTogglePatternAvailable),
    selectionItem: has(PROP.IsSelectionItemPatternAvailable),
    expandCollapse: has(PROP.IsExpandCollapsePatternAvailable),
    scrollItem: has(PROP.IsScrollItemPatternAvailable),
    value: has(PROP.IsValuePatternAvailable),
    rangeValue: has(PROP.IsRangeValuePatternAvailable),
  };
  const password = int(el, E.get_CachedIsPassword) !== 0;
  const facts: ElementFacts = {
    runtimeId: cachedRuntimeId(ole, el),
    pid: int(el, E.get_CachedProcessId),
    controlType: int(el, E.get_CachedControlType),
    name: str(ole, el, E.get_CachedName),
    bounds: rectBounds(readRect(rect)),
    enabled: int(el, E.get_CachedIsEnabled) !== 0,
    focused: int(el, E.get_CachedHasKeyboardFocus) !== 0,
    focusable: int(el, E.get_CachedIsKeyboardFocusable) !== 0,
    password,
    offscreen: int(el, E.get_CachedIsOffscreen) !== 0,
    framework: str(ole, el, E.get_CachedFrameworkId),
    valueReadOnly: patterns.value ? has(PROP.ValueIsReadOnly) : true,
    rangeReadOnly: patterns.rangeValue ? has(PROP.RangeValueIsReadOnly) : true,
    patterns,
  };
  if (patterns.value && !password) {
    const v = cachedProperty(ole, el, PROP.ValueValue);
    if (typeof v === "string") facts.value = v.length > MAX_VALUE ? v.slice(0, MAX_VALUE) : v;
  }
  if (patterns.rangeValue) {
    const r = cachedProperty(ole, el, PROP.RangeValueValue);
    if (typeof r === "number") facts.range = r;
  }
  return facts;
}

/** The engine handle of a runtime id: its parts in base 36, dot-separated. */
export function handleOfRuntimeId(runtimeId: readonly number[]): string {
  return runtimeId.map((n) => (n >>> 0).toString(36)).join(".");
}

const TEXT_TYPES = new Set(["Edit", "Document", "ComboBox"]);

/** What {@link UiaEngine.act} can do with an element, from its patterns and states. */
export function actionsOf(f: ElementFacts): ActionName[] {
  const p = f.patterns;
  const out: ActionName[] = [];
  if (p.invoke || p.toggle) out.push("press", "click");
  if (f.focusable) out.push("focus");
  const writable = (p.value && !f.valueReadOnly) || (p.rangeValue && !f.rangeReadOnly);
  if (writable) out.push("set_value");
  if (p.value && !f.valueReadOnly && TEXT_TYPES.has(controlTypeName(f.controlType))) {
    out.push("type_text");
  }
  if (p.selectionItem) out.push("select");
  if (p.toggle) out.push("check", "uncheck");
  if (p.expandCollapse) out.push("expand", "collapse");
  if (p.scrollItem) out.push("scroll_into_view");
  return out;
}

/** The {@link RawNode} for `f` (children filled in by the walk). */
export function rawNodeOf(f: ElementFacts, handle: string): RawNode {
  const node: RawNode = {
    handle,
    role: axRoleOf(f.controlType, {
      editable: f.patterns.value && !f.valueReadOnly,
      framework: f.framework,
    }),
    name: f.name,
    bounds: f.bounds,
    enabled: f.enabled,
    focused: f.focused,
    actions: actionsOf(f),
    children: [],
  };
  if (f.value !== undefined) node.value = f.value;
  else if (f.range !== undefined) node.value = String(Math.round(f.range * 1e6) / 1e6);
  return node;
}
