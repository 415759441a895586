/**
 * Reading a window element by element with live (`Current`) properties, for a UI
 * Automation that cannot cache (Wine answers E_NOTIMPL to subtree cache requests,
 * `ElementFromHandleBuildCache` and every cached getter). One cross-process call per
 * property, so it is slower than the cached read, and it runs only where that read cannot.
 *
 * Children come from a tree walker; where it finds none under an element that is a window
 * (Wine's navigation stops at window boundaries), from the window's child windows, each
 * made an element with `ElementFromHandle`. Standard Win32 controls get the control type,
 * text and actions their class and messages give ({@link ./win32_controls.ts}).
 *
 * @module
 */
import { ComPtr, invoke, outPointer } from "../../ffi/windows/com.ts";
import { checkHr } from "../../ffi/windows/hresult.ts";
import { receiveVariant, type VariantValue } from "../../ffi/windows/variant.ts";
import type { Bounds } from "../../protocol/element.ts";
import { isStub, type UiaCompat } from "./compat.ts";
import { type ElementFacts, MAX_VALUE, type OleLib, type PatternSet } from "./element_props.ts";
import type { WindowHandles } from "./handles.ts";
import { PROP } from "./ids.ts";
import {
  IUIAutomation as U,
  IUIAutomationElement as E,
  IUIAutomationTreeWalker as W,
} from "./interfaces.ts";
import { collectOwned, readTree, type TreeRead } from "./tree_read.ts";
import {
  childWindows,
  controlTypeFor,
  type Win32Control,
  win32Control,
  type Win32Lib,
  windowText,
} from "./win32_controls.ts";

/** What the live read needs. */
export interface LiveSetup {
  /** oleaut32. */
  ole: OleLib;
  /** user32, for child windows and Win32 controls. */
  user32: Win32Lib;
  /** The automation object. */
  automation: ComPtr;
  /** A tree walker over the control view, when the implementation has one. */
  walker: ComPtr | undefined;
  /** Per-message timeout for the Win32 controls' own messages. */
  timeoutMs: number;
  /** Counts each cross-process call. */
  countCall: () => void;
  /** Where a stub navigation call is noted. */
  compat: UiaCompat;
}

/** One live property; `undefined` where the implementation does not support it. */
export function liveProperty(setup: LiveSetup, el: ComPtr, property: number): VariantValue {
  setup.countCall();
  try {
    return receiveVariant(setup.ole, (v) => {
      checkHr(
        invoke(el.ptr, E.GetCurrentPropertyValueEx, property, 0, v),
        E.GetCurrentPropertyValueEx.name,
      );
    });
  } catch (err) {
    if (isStub(err)) return undefined;
    throw err;
  }
}

function boundsOf(v: VariantValue): Bounds {
  if (!Array.isArray(v) || v.length < 4) return { x: 0, y: 0, w: 0, h: 0 };
  const [x, y, w, h] = v.map((n) => Math.round(Number(n)));
  return { x: x!, y: y!, w: w!, h: h! };
}

/** The element's window handle, when it is a window. */
export function nativeWindow(setup: LiveSetup, el: ComPtr): bigint | undefined {
  const v = liveProperty(setup, el, PROP.NativeWindowHandle);
  // VT_I4: window handles keep their meaning in 32 bits, also in 64-bit processes.
  const n = typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : 0;
  return n ? BigInt(n >>> 0) : undefined;
}

/** Facts of `el` from live properties, and its window's Win32 control where it is one. */
export function liveFacts(
  setup: LiveSetup,
  el: ComPtr,
): { facts: ElementFacts; hwnd?: bigint; control?: Win32Control } {
  const get = (p: number) => liveProperty(setup, el, p);
  const flag = (p: number) => get(p) === true;
  const hwnd = nativeWindow(setup, el);
  const control = hwnd === undefined ? undefined : win32Control(setup.user32, hwnd);
  const patterns: PatternSet = {
    invoke: flag(PROP.IsInvokePatternAvailable) || (control?.clickable ?? false),
    toggle: flag(PROP.IsTogglePatternAvailable),
    selectionItem: flag(PROP.IsSelectionItemPatternAvailable),
    expandCollapse: flag(PROP.IsExpandCollapsePatternAvailable),
    scrollItem: flag(PROP.IsScrollItemPatternAvailable),
    value: flag(PROP.IsValuePatternAvailable) || (control?.editable ?? false),
    rangeValue: flag(PROP.IsRangeValuePatternAvailable),
  };
  const runtimeId = get(PROP.RuntimeId);
  const controlType = Number(get(PROP.ControlType) ?? 0);
  const password = flag(PROP.IsPassword) || (control?.password ?? false);
  const facts: ElementFacts = {
    runtimeId: Array.isArray(runtimeId) ? runtimeId.map(Number) : [],
    pid: Number(get(PROP.ProcessId) ?? 0),
    controlType: control ? controlTypeFor(controlType, control) : controlType,
    name: String(get(PROP.Name) ?? ""),
    bounds: boundsOf(get(PROP.BoundingRectangle)),
    enabled: get(PROP.IsEnabled) !== false,
    focused: flag(PROP.HasKeyboardFocus),
    focusable: flag(PROP.IsKeyboardFocusable),
    password,
    offscreen: flag(PROP.IsOffscreen),
    framework: String(get(PROP.FrameworkId) ?? (control ? "Win32" : "")),
    valueReadOnly: patterns.value ? flag(PROP.ValueIsReadOnly) : true,
    rangeReadOnly: patterns.rangeValue ? flag(PROP.RangeValueIsReadOnly) : true,
    patterns,
  };
  if (patterns.value && !password) {
    const v = get(PROP.ValueValue);
    const text = typeof v === "string"
      ? v
      : control?.editable && hwnd !== undefined
      ? windowText(setup.user32, hwnd, MAX_VALUE, setup.timeoutMs)
      : undefined;
    if (text !== undefined) facts.value = text.length > MAX_VALUE ? text.slice(0, MAX_VALUE) : text;
  }
  if (patterns.rangeValue) {
    const r = get(PROP.RangeValueValue);
    if (typeof r === "number") facts.range = r;
  }
  const out: { facts: ElementFacts; hwnd?: bigint; control?: Win32Control } = { facts };
  if (hwnd !== undefined) out.hwnd = hwnd;
  if (control) out.control = control;
  return out;
}

/** `ElementFromHandle`: the element of a window, uncached. */
export function elementOfWindow(setup: LiveSetup, hwnd: bigint): ComPtr {
  const out = outPointer();
  setup.countCall();
  setup.automation.call(U.ElementFromHandle, Deno.UnsafePointer.create(hwnd), out);
  return ComPtr.expectOut(out, "IUIAutomationElement", "ElementFromHandle");
}

function walkerChildren(setup: LiveSetup, el: ComPtr, max: number): ComPtr[] {
  return setup.compat.run(
    "IUIAutomationTreeWalker::GetFirstChildElement",
    "children from child windows (FindWindowEx)",
    () => walk(setup, el, max),
    () => [],
  );
}

function walk(setup: LiveSetup, el: ComPtr, max: number): ComPtr[] {
  const walker = setup.walker;
  if (!walker) return [];
  return collectOwned((push) => {
    let prev: ComPtr | undefined;
    for (let n = 0; n < max; n++) {
      const slot = outPointer();
      setup.countCall();
      const m = prev ? W.GetNextSiblingElement : W.GetFirstChildElement;
      checkHr(invoke(walker.ptr, m, (prev ?? el).ptr, slot), m.name);
      const next = ComPtr.fromOut(slot, "IUIAutomationElement");
      if (!next) break;
      push(next);
      prev = next;
    }
  });
}

/** Children of `el`: the walker's, else its child windows' elements. */
export function liveChildren(
  setup: LiveSetup,
  el: ComPtr,
  hwnd: bigint | undefined,
  max: number,
): ComPtr[] {
  const kids = walkerChildren(setup, el, max);
  if (kids.length > 0 || hwnd === undefined) return kids;
  return collectOwned((push) => {
    for (const child of childWindows(setup.user32, hwnd, max)) push(elementOfWindow(setup, child));
  });
}

/**
 * Reads the subtree under `root` (taking ownership) pre-order into `table`, at most `max`
 * nodes or until `deadline` (performance.now()), skipping off-screen elements.
 */
export function readLiveTree(
  setup: LiveSetup,
  root: ComPtr,
  max: number,
  deadline: number,
  table: WindowHandles,
  rootHandle?: string,
): TreeRead {
  return readTree(setup.ole, root, max, table, {
    read: (el) => liveFacts(setup, el),
    skip: (read) => read.facts.offscreen,
    children: (el, read, budget) => liveChildren(setup, el, read.hwnd, budget),
  }, { rootHandle, deadline });
}
