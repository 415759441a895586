/**
 * A fake IUIAutomation2 for unit tests: cache requests that remember their scope,
 * conditions, and ElementFromHandleBuildCache over the windows {@link FakeOptions}
 * names (a subtree request can be made to time out, like a window too big for one call).
 *
 * @module
 */
import { FakeClass, type FakeSlot } from "../../ffi/windows/_fake_class.ts";
import { HR } from "../../ffi/windows/hresult.ts";
import { writePointer } from "../../ffi/windows/memory.ts";
import type { FakeUia } from "./_testing.ts";
import { IID } from "./interfaces.ts";

/** What a fake cache request was told. */
export interface RequestState {
  /** TreeScope. */
  scope: number;
  /** PROPERTYIDs added. */
  properties: number[];
  /** PATTERNIDs added. */
  patterns: number[];
}

/** The automation object's classes. */
export function fakeAutomation(uia: FakeUia, walker: FakeClass<null>): {
  automation: FakeClass<null>;
  requests: FakeClass<RequestState>;
  conditions: FakeClass<null>;
} {
  const requests = new FakeClass<RequestState>([], {
    3: [["i32"], ((r: RequestState, p: number) => (r.properties.push(p), HR.S_OK)) as never],
    4: [["i32"], ((r: RequestState, p: number) => (r.patterns.push(p), HR.S_OK)) as never],
    7: [["i32"], ((r: RequestState, scope: number) => (r.scope = scope, HR.S_OK)) as never],
    9: [["pointer"], (() => HR.S_OK) as never],
    11: [["i32"], (() => HR.S_OK) as never],
  });
  const conditions = new FakeClass<null>([], {});
  const out = (make: () => Deno.PointerObject | null) =>
    [
      ["pointer"],
      ((_: null, o: Deno.PointerValue) => (writePointer(o, make()), HR.S_OK)) as never,
    ] as FakeSlot<null>;
  const condition = () => conditions.create(null);
  const automation = new FakeClass<null>([IID.IUIAutomation2], {
    5: out(() => uia.element(uia.root)),
    10: [
      ["pointer", "pointer", "pointer"],
      ((_: null, hwnd: Deno.PointerValue, req: Deno.PointerValue, o: Deno.PointerValue) => {
        const node = uia.options.hwnds?.get(Deno.UnsafePointer.value(hwnd));
        const scope = requests.instances.get(Deno.UnsafePointer.value(req))!.state.scope;
        uia.calls.push(`ElementFromHandleBuildCache(scope ${scope})`);
        if (!node) return HR.UIA_E_ELEMENTNOTAVAILABLE;
        if (scope === 7 && uia.options.subtreeTimesOut) return HR.UIA_E_TIMEOUT;
        writePointer(o, uia.element(node));
        return HR.S_OK;
      }) as never,
    ],
    12: [
      ["pointer", "pointer"],
      ((_: null, _r: Deno.PointerValue, o: Deno.PointerValue) => {
        const f = uia.options.focused;
        writePointer(o, f ? uia.element(f) : null);
        return f ? HR.S_OK : HR.UIA_E_ELEMENTNOTAVAILABLE;
      }) as never,
    ],
    14: out(() => walker.create(null)),
    18: out(condition),
    20: out(() => requests.create({ scope: 1, properties: [], patterns: [] })),
    23: [
      ["i32", "pointer", "pointer"],
      ((
        _: null,
        _p: number,
        _v: Deno.PointerValue,
        o: Deno.PointerValue,
      ) => (writePointer(o, condition()), HR.S_OK)) as never,
    ],
    25: [
      ["pointer", "pointer", "pointer"],
      ((
        _: null,
        _a: Deno.PointerValue,
        _b: Deno.PointerValue,
        o: Deno.PointerValue,
      ) => (writePointer(o, condition()), HR.S_OK)) as never,
    ],
    41: [[], (() => HR.S_OK) as never],
    61: [
      ["u32"],
      ((_: null, ms: number) => (uia.calls.push(`ConnectionTimeout(${ms})`), HR.S_OK)) as never,
    ],
    63: [
      ["u32"],
      ((_: null, ms: number) => (uia.calls.push(`TransactionTimeout(${ms})`), HR.S_OK)) as never,
    ],
  });
  return { automation, requests, conditions };
}
