/**
 * Attribute values of one AX element turned into the engine's {@link RawNode}: role as
 * AX reports it, name, value, bounds, enabled, focused and the actions the engine can
 * perform. Pure: the FFI source and the fixture source feed it the same {@link AxValue}s.
 *
 * @module
 */
import type { ActionName, Bounds } from "../../protocol/element.ts";
import { boolOf, elementsOf, stringOf } from "../../ffi/macos/values.ts";
import type { RawNode } from "../../model/engine.ts";
import type { AxValue } from "./source.ts";

/** Fetched for every element in one `AXUIElementCopyMultipleAttributeValues` call. */
export const READ_ATTRIBUTES = [
  "AXRole",
  "AXSubrole",
  "AXTitle",
  "AXDescription",
  "AXValue",
  "AXPosition",
  "AXSize",
  "AXEnabled",
  "AXFocused",
  "AXMain",
  "AXExpanded",
  "AXDisclosing",
  "AXChildren",
] as const;

/** One of {@link READ_ATTRIBUTES}. */
export type ReadAttribute = (typeof READ_ATTRIBUTES)[number];

/** An element's attributes by name. */
export type Attributes = Partial<Record<ReadAttribute, AxValue>>;

/** Longest text kept in `value`; longer documents are cut (agents page with find). */
export const MAX_VALUE_CHARS = 10_000;

/** Pairs the names asked for with the values a batch answered (same order). */
export function attributesOf(
  names: readonly ReadAttribute[],
  values: readonly AxValue[],
): Attributes {
  const out: Attributes = {};
  names.forEach((name, i) => {
    const v = values[i];
    if (v !== undefined) out[name] = v;
  });
  return out;
}

/** Actions each role offers through the accessibility API (AXRoleConstants.h). */
const ROLE_ACTIONS: Readonly<Record<string, readonly ActionName[]>> = {
  AXButton: ["press", "click"],
  AXMenuButton: ["press", "click", "show_menu"],
  AXPopUpButton: ["press", "click", "show_menu"],
  AXCheckBox: ["press", "click", "check", "uncheck"],
  AXRadioButton: ["press", "click", "select", "check"],
  AXDisclosureTriangle: ["press", "click", "expand", "collapse"],
  AXMenuItem: ["press", "click"],
  AXMenuBarItem: ["press", "click", "show_menu"],
  AXLink: ["press", "click", "focus"],
  AXColorWell: ["press", "click"],
  AXTextField: ["focus", "set_value", "type_text"],
  AXTextArea: ["focus", "set_value", "type_text"],
  AXComboBox: ["focus", "set_value", "type_text", "expand", "collapse"],
  AXSlider: ["focus", "set_value"],
  AXIncrementor: ["set_value"],
  AXStepper: ["set_value"],
  AXScrollBar: ["set_value"],
  AXRow: ["select", "scroll_into_view"],
  AXCell: ["select", "scroll_into_view"],
  AXTab: ["press", "click", "select"],
  AXList: ["focus"],
  AXTable: ["focus"],
  AXOutline: ["focus"],
  AXWebArea: ["focus"],
  AXWindow: ["focus"],
  AXSheet: ["focus"],
};

function text(v: AxValue | undefined): string | undefined {
  switch (v?.kind) {
    case "string":
    case "url":
      return v.value;
    case "number":
      return String(Math.round(v.value * 1e6) / 1e6);
    case "bool":
      return v.value ? "1" : "0";
    default:
      return undefined;
  }
}

/**
 * The accessible name: `AXTitle`, else `AXDescription`, else (for static text, whose
 * visible text is its value) `AXValue`.
 */
export function nameOf(a: Attributes): { name: string; fromValue: boolean } {
  const title = stringOf(a.AXTitle);
  if (title) return { name: title, fromValue: false };
  const description = stringOf(a.AXDescription);
  if (description) return { name: description, fromValue: false };
  if (stringOf(a.AXRole) === "AXStaticText") {
    const v = text(a.AXValue);
    if (v) return { name: cut(v), fromValue: true };
  }
  return { name: "", fromValue: false };
}

function cut(s: string): string {
  return s.length > MAX_VALUE_CHARS ? s.slice(0, MAX_VALUE_CHARS) : s;
}

/** `AXValue` as text, unless it became the name or belongs to a secure text field. */
export function valueOf(a: Attributes, nameFromValue: boolean): string | undefined {
  if (nameFromValue || stringOf(a.AXSubrole) === "AXSecureTextField") return undefined;
  const v = text(a.AXValue);
  return v === undefined ? undefined : cut(v);
}

/** `AXPosition` + `AXSize`, zeros for what is missing. */
export function boundsOf(a: Attributes): Bounds {
  const p = a.AXPosition?.kind === "point" ? a.AXPosition : { x: 0, y: 0 };
  const s = a.AXSize?.kind === "size" ? a.AXSize : { w: 0, h: 0 };
  return { x: p.x, y: p.y, w: s.w, h: s.h };
}

/** What the engine can do with an element of this role and these attributes. */
export function actionsOf(a: Attributes): ActionName[] {
  const role = stringOf(a.AXRole) ?? "";
  const out = new Set<ActionName>(ROLE_ACTIONS[role] ?? []);
  if (stringOf(a.AXSubrole) === "AXTabButton") out.add("select");
  // Outline rows and disclosure-style elements say so by having the attribute at all.
  if (boolOf(a.AXDisclosing) !== undefined || boolOf(a.AXExpanded) !== undefined) {
    out.add("expand");
    out.add("collapse");
  }
  // AXFocused alone says nothing: AppKit answers it (false) on elements that can never
  // take focus, so focus comes from the role table only.
  return [...out];
}

/**
 * One element as a node with no children yet, and the handles of its children.
 *
 * @param handle The source's handle of the element.
 * @param a Its attributes ({@link READ_ATTRIBUTES}).
 */
export function mapNode(handle: string, a: Attributes): { node: RawNode; children: string[] } {
  const role = stringOf(a.AXRole) || "AXUnknown";
  const { name, fromValue } = nameOf(a);
  const node: RawNode = {
    handle,
    role,
    name,
    bounds: boundsOf(a),
    enabled: boolOf(a.AXEnabled) ?? true,
    focused: (boolOf(a.AXFocused) ?? false) ||
      (role === "AXWindow" && (boolOf(a.AXMain) ?? false)),
    actions: actionsOf(a),
    children: [],
  };
  const value = valueOf(a, fromValue);
  if (value !== undefined) node.value = value;
  if (role === "AXCheckBox" || role === "AXRadioButton") {
    // AXValue 0 off, 1 on, 2 mixed.
    const v = a.AXValue;
    if (v?.kind === "number") node.checked = v.value === 2 ? "mixed" : v.value === 1;
  }
  return { node, children: elementsOf(a.AXChildren) };
}
