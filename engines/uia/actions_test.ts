import assert from "node:assert/strict";
import { ComPtr } from "../../ffi/windows/com.ts";
import { isDriverError } from "../../protocol/errors.ts";
import { type FakeNode, FakeUia } from "./_testing.ts";
import { performAction } from "./actions.ts";
import { PATTERN } from "./ids.ts";

function withElement(node: FakeNode, fn: (uia: FakeUia, el: ComPtr) => void): void {
  const uia = new FakeUia(node);
  const el = new ComPtr(uia.element(node), "IUIAutomationElement");
  try {
    fn(uia, el);
    el.release();
    assert.deepEqual(
      uia.live(),
      { elements: 0, arrays: 0, patterns: 0 },
      "pattern objects released",
    );
    assert.equal(uia.ole.live, 0, "BSTRs freed");
  } finally {
    uia.close();
  }
}

const target = { name: "Seven", role: "AXButton", actions: [] };

Deno.test("press goes through Invoke, then Toggle, then SelectionItem", () => {
  const cases: [number[], string][] = [
    [[PATTERN.Invoke, PATTERN.Toggle], "Invoke(x)"],
    [[PATTERN.Toggle], "Toggle(x)"],
    [[PATTERN.SelectionItem], "Select(x)"],
  ];
  for (const [patterns, call] of cases) {
    withElement({ name: "x", controlType: 50000, patterns }, (uia, el) => {
      assert.deepEqual(performAction(uia.ole, el, target, "press", undefined), { via: "action" });
      assert.deepEqual(uia.calls, [call]);
    });
  }
});

Deno.test("check and uncheck toggle until the state is reached, and never past it", () => {
  const cases: [number, "check" | "uncheck", string[], number][] = [
    [0, "check", ["Toggle(x)"], 1],
    [1, "check", [], 1],
    [1, "uncheck", ["Toggle(x)", "Toggle(x)"], 0], // on → indeterminate → off
    [2, "check", ["Toggle(x)", "Toggle(x)"], 1],
  ];
  for (const [from, action, calls, to] of cases) {
    const node = { name: "x", controlType: 50002, patterns: [PATTERN.Toggle], toggle: from };
    withElement(node, (uia, el) => {
      assert.deepEqual(performAction(uia.ole, el, target, action, undefined), { via: "action" });
      assert.deepEqual(uia.calls, calls);
      assert.equal(node.toggle, to);
    });
  }
});

Deno.test("a toggle that does not move answers what the element still is", () => {
  const node = {
    name: "x",
    controlType: 50002,
    patterns: [PATTERN.Toggle],
    toggle: 0,
    toggleStuck: true,
  };
  withElement(node, (uia, el) => {
    assert.deepEqual(performAction(uia.ole, el, target, "check", undefined), {
      via: "action",
      found: "unchecked",
    });
  });
});

Deno.test("an element without a pattern for the action asks for a pixel click", () => {
  withElement({ name: "x", controlType: 50020 }, (uia, el) => {
    assert.deepEqual(performAction(uia.ole, el, target, "click", undefined), { pixel: "left" });
    assert.deepEqual(performAction(uia.ole, el, target, "expand", undefined), { pixel: "left" });
    assert.deepEqual(uia.calls, []);
  });
});

Deno.test("expand, collapse, select and scroll_into_view use their patterns", () => {
  const node = {
    name: "Folder",
    controlType: 50024,
    patterns: [PATTERN.ExpandCollapse, PATTERN.SelectionItem, PATTERN.ScrollItem],
  };
  withElement(node, (uia, el) => {
    for (const a of ["expand", "collapse", "select", "scroll_into_view"] as const) {
      assert.deepEqual(performAction(uia.ole, el, target, a, undefined), { via: "action" });
    }
    assert.deepEqual(uia.calls, [
      "Expand(Folder)",
      "Collapse(Folder)",
      "Select(Folder)",
      "ScrollIntoView(Folder)",
    ]);
  });
  withElement({ name: "x", controlType: 50020 }, (uia, el) => {
    assert.throws(
      () => performAction(uia.ole, el, target, "scroll_into_view", undefined),
      (e: unknown) =>
        isDriverError(e, "action_not_supported") && /Cannot scroll "Seven"/.test(e.message),
    );
  });
});

Deno.test("set_value passes a BSTR to ValuePattern::SetValue and frees it", () => {
  const node: FakeNode = {
    name: "Search",
    controlType: 50004,
    value: "",
    patterns: [PATTERN.Value],
  };
  withElement(node, (uia, el) => {
    assert.deepEqual(performAction(uia.ole, el, target, "set_value", "déjà vu 🙂"), {
      via: "action",
    });
    assert.equal(node.value, "déjà vu 🙂");
  });
  const slider: FakeNode = { name: "Volume", controlType: 50015, patterns: [PATTERN.RangeValue] };
  withElement(slider, (uia, el) => {
    performAction(uia.ole, el, target, "set_value", "42.5");
    assert.equal(slider.range, 42.5);
    assert.throws(() => performAction(uia.ole, el, target, "set_value", "loud"), /not a number/);
    assert.throws(
      () => performAction(uia.ole, el, target, "set_value", undefined),
      /needs "value"/,
    );
  });
});

Deno.test("type_text focuses through UIA and hands the keys back; unfocusable appends", () => {
  withElement({ name: "Text editor", controlType: 50030, focusable: true }, (uia, el) => {
    assert.deepEqual(performAction(uia.ole, el, target, "type_text", "hello"), {
      keyboard: "hello",
    });
    assert.deepEqual(uia.calls, ["SetFocus(Text editor)"]);
  });
  const field: FakeNode = { name: "f", controlType: 50004, value: "ab", patterns: [PATTERN.Value] };
  withElement(field, (uia, el) => {
    assert.deepEqual(performAction(uia.ole, el, target, "type_text", "c"), { via: "action" });
    assert.equal(field.value, "abc");
  });
});

Deno.test("show_menu asks IUIAutomationElement3 for the context menu", () => {
  withElement({ name: "File", controlType: 50011 }, (uia, el) => {
    assert.deepEqual(performAction(uia.ole, el, target, "show_menu", undefined), { via: "action" });
    assert.deepEqual(uia.calls, ["ShowContextMenu(File)"]);
  });
});
