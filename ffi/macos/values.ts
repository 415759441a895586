/**
 * Accessibility attribute values as plain data: what a CoreFoundation object (CFString,
 * CFNumber, CFBoolean, CFArray, AXValue, AXUIElement, CFURL) decodes to. Elements are
 * generic (`E`) so the FFI layer can carry borrowed pointers while the engine only ever
 * sees its string handles.
 *
 * @module
 */

/** One decoded attribute value. */
export type AxValue<E = string> =
  /** Not supported, no value, `kCFNull`, or an `AXError` in a batch (`status`). */
  | { kind: "none"; status?: number }
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "bool"; value: boolean }
  | { kind: "point"; x: number; y: number }
  | { kind: "size"; w: number; h: number }
  | { kind: "rect"; x: number; y: number; w: number; h: number }
  | { kind: "range"; location: number; length: number }
  | { kind: "element"; element: E }
  | { kind: "array"; items: AxValue<E>[] }
  | { kind: "url"; value: string }
  /** A CF type this driver does not read (dictionaries, attributed runs, ...). */
  | { kind: "other"; type: string };

/** The value a caller may set on an attribute (`AXValue`, `AXFocused`, ...). */
export type AxSettable =
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "bool"; value: boolean };

/** The shared "nothing here" value. */
export const NONE: AxValue<never> = Object.freeze({ kind: "none" });

/** The string of a string value, `undefined` otherwise. */
export function stringOf<E>(v: AxValue<E> | undefined): string | undefined {
  return v?.kind === "string" ? v.value : undefined;
}

/** The boolean of a bool value (or a 0/1 number, as some apps answer), else `undefined`. */
export function boolOf<E>(v: AxValue<E> | undefined): boolean | undefined {
  if (v?.kind === "bool") return v.value;
  if (v?.kind === "number" && (v.value === 0 || v.value === 1)) return v.value === 1;
  return undefined;
}

/** The element of an element value, `undefined` otherwise. */
export function elementOf<E>(v: AxValue<E> | undefined): E | undefined {
  return v?.kind === "element" ? v.element : undefined;
}

/** The elements of an array value (other items skipped), `[]` otherwise. */
export function elementsOf<E>(v: AxValue<E> | undefined): E[] {
  if (v?.kind !== "array") return [];
  const out: E[] = [];
  for (const item of v.items) if (item.kind === "element") out.push(item.element);
  return out;
}
