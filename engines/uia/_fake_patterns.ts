/**
 * Fake UIA control patterns for unit tests: each call is recorded in `calls` as
 * `Invoke(Seven)`, `SetValue(Search, "text")`; values land on the {@link FakeNode}.
 *
 * @module
 */
import { FakeClass, type FakeSlot } from "../../ffi/windows/_fake_class.ts";
import type { FakeOleAut } from "../../ffi/windows/_testing.ts";
import { readBstr } from "../../ffi/windows/bstr.ts";
import { HR } from "../../ffi/windows/hresult.ts";
import { writeBytes, writePointer } from "../../ffi/windows/memory.ts";
import type { FakeNode } from "./_testing.ts";
import { PATTERN } from "./ids.ts";
import * as P from "./patterns.ts";

/** One fake class per pattern, by PATTERNID. */
export function fakePatterns(ole: FakeOleAut, calls: string[]): Map<number, FakeClass<FakeNode>> {
  const patterns = new Map<number, FakeClass<FakeNode>>();
  const record = (what: string) =>
    [[], ((n: FakeNode) => (calls.push(`${what}(${n.name})`), HR.S_OK)) as never] as FakeSlot<
      FakeNode
    >;
  patterns.set(
    PATTERN.Invoke,
    new FakeClass([P.InvokePattern.iid], { 3: record("Invoke") }),
  );
  patterns.set(
    PATTERN.Toggle,
    new FakeClass([P.TogglePattern.iid], {
      3: [
        [],
        ((n: FakeNode) => {
          calls.push(`Toggle(${n.name})`);
          if (!n.toggleStuck) n.toggle = ((n.toggle ?? 0) + 1) % 3;
          return HR.S_OK;
        }) as never,
      ],
      4: [
        ["pointer"],
        ((n: FakeNode, out: Deno.PointerValue) => (
          writeBytes(out, new Uint8Array(new Int32Array([n.toggle ?? 0]).buffer)), HR.S_OK
        )) as never,
      ],
    }),
  );
  patterns.set(
    PATTERN.SelectionItem,
    new FakeClass([P.SelectionItemPattern.iid], { 3: record("Select") }),
  );
  patterns.set(
    PATTERN.ScrollItem,
    new FakeClass([P.ScrollItemPattern.iid], { 3: record("ScrollIntoView") }),
  );
  patterns.set(
    PATTERN.ExpandCollapse,
    new FakeClass([P.ExpandCollapsePattern.iid], {
      3: record("Expand"),
      4: record("Collapse"),
    }),
  );
  patterns.set(
    PATTERN.Value,
    new FakeClass([P.ValuePattern.iid], {
      3: [
        ["pointer"],
        ((n: FakeNode, bstr: Deno.PointerValue) => {
          n.value = readBstr(ole, bstr);
          calls.push(`SetValue(${n.name}, ${JSON.stringify(n.value)})`);
          return HR.S_OK;
        }) as never,
      ],
      4: [
        ["pointer"],
        ((
          n: FakeNode,
          out: Deno.PointerValue,
        ) => (writePointer(out, ole.bstr(n.value ?? "")), HR.S_OK)) as never,
      ],
    }),
  );
  patterns.set(
    PATTERN.RangeValue,
    new FakeClass([P.RangeValuePattern.iid], {
      3: [
        ["f64"],
        ((n: FakeNode, v: number) => {
          n.range = v;
          calls.push(`SetRange(${n.name}, ${v})`);
          return HR.S_OK;
        }) as never,
      ],
    }),
  );
  return patterns;
}
