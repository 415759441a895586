/**
 * What a fake UIA element answers to `GetCachedPropertyValue`: the VARIANT a real
 * provider would give for each property the engine caches, built from a {@link FakeNode}.
 *
 * @module
 */
import type { FakeOleAut } from "../../ffi/windows/_testing.ts";
import { VT } from "../../ffi/windows/safearray.ts";
import type { FakeNode } from "./_testing.ts";
import { PATTERN, PROP } from "./ids.ts";

/** Writes the VARIANT for `prop` of `n` to `v`. */
export function writeProperty(
  ole: FakeOleAut,
  n: FakeNode,
  prop: number,
  v: Deno.PointerValue,
): void {
  const has = (p: number) => (n.patterns ?? []).includes(p);
  const bool = (b: boolean) => ole.writeVariant(v, VT.BOOL, b ? 0xffffn : 0n);
  const available: Record<number, number> = {
    [PROP.IsInvokePatternAvailable]: PATTERN.Invoke,
    [PROP.IsTogglePatternAvailable]: PATTERN.Toggle,
    [PROP.IsSelectionItemPatternAvailable]: PATTERN.SelectionItem,
    [PROP.IsExpandCollapsePatternAvailable]: PATTERN.ExpandCollapse,
    [PROP.IsScrollItemPatternAvailable]: PATTERN.ScrollItem,
    [PROP.IsValuePatternAvailable]: PATTERN.Value,
    [PROP.IsRangeValuePatternAvailable]: PATTERN.RangeValue,
  };
  if (prop in available) return bool(has(available[prop]!));
  switch (prop) {
    case PROP.RuntimeId:
      return ole.writeVariant(v, VT.ARRAY | VT.I4, ole.safeArray(VT.I4, n.runtimeId!));
    case PROP.ValueValue:
      return ole.writeVariant(v, VT.BSTR, ole.bstr(n.value ?? ""));
    case PROP.ValueIsReadOnly:
      return bool(n.valueReadOnly ?? false);
    case PROP.RangeValueIsReadOnly:
      return bool(false);
    case PROP.RangeValueValue:
      return ole.writeVariant(
        v,
        VT.R8,
        new BigUint64Array(new Float64Array([n.range ?? 0]).buffer)[0]!,
      );
    default:
      return ole.writeVariant(v, VT.EMPTY, 0n);
  }
}
