import assert from "node:assert/strict";
import type { AxValue } from "./source.ts";
import {
  actionsOf,
  attributesOf,
  boundsOf,
  mapNode,
  nameOf,
  READ_ATTRIBUTES,
  valueOf,
} from "./node_map.ts";

const str = (value: string): AxValue => ({ kind: "string", value });
const yes: AxValue = { kind: "bool", value: true };
const missing: AxValue = { kind: "none", status: -25205 };

Deno.test("nameOf() prefers AXTitle, then AXDescription, then static text's value", () => {
  assert.deepEqual(nameOf({ AXTitle: str("Save"), AXDescription: str("save button") }), {
    name: "Save",
    fromValue: false,
  });
  assert.deepEqual(nameOf({ AXTitle: str(""), AXDescription: str("7") }), {
    name: "7",
    fromValue: false,
  });
  assert.deepEqual(nameOf({ AXRole: str("AXStaticText"), AXValue: str("Untitled") }), {
    name: "Untitled",
    fromValue: true,
  });
  // A text field's value is its contents, never its name.
  assert.deepEqual(nameOf({ AXRole: str("AXTextField"), AXValue: str("typed") }), {
    name: "",
    fromValue: false,
  });
});

Deno.test("valueOf() formats numbers and booleans, and never reads secure fields", () => {
  assert.equal(valueOf({ AXValue: { kind: "number", value: 0.1 + 0.2 } }, false), "0.3");
  assert.equal(valueOf({ AXValue: { kind: "bool", value: true } }, false), "1");
  assert.equal(
    valueOf({ AXValue: { kind: "url", value: "https://a.example/" } }, false),
    "https://a.example/",
  );
  assert.equal(valueOf({ AXValue: str("x") }, true), undefined);
  assert.equal(
    valueOf({ AXSubrole: str("AXSecureTextField"), AXValue: str("hunter2") }, false),
    undefined,
  );
  assert.equal(valueOf({ AXValue: missing }, false), undefined);
  assert.equal(valueOf({ AXValue: str("a".repeat(20_000)) }, false)!.length, 10_000);
});

Deno.test("boundsOf() joins AXPosition and AXSize, zeros for what is missing", () => {
  assert.deepEqual(
    boundsOf({ AXPosition: { kind: "point", x: 10, y: 20 }, AXSize: { kind: "size", w: 3, h: 4 } }),
    { x: 10, y: 20, w: 3, h: 4 },
  );
  assert.deepEqual(boundsOf({ AXPosition: missing }), { x: 0, y: 0, w: 0, h: 0 });
});

Deno.test("actionsOf() follows the role, the tab subrole and disclosure attributes", () => {
  assert.deepEqual(actionsOf({ AXRole: str("AXButton") }), ["press", "click"]);
  assert.deepEqual(actionsOf({ AXRole: str("AXStaticText"), AXFocused: yes }), []);
  assert.deepEqual(actionsOf({ AXRole: str("AXRadioButton"), AXSubrole: str("AXTabButton") }), [
    "press",
    "click",
    "select",
    "check",
  ]);
  assert.deepEqual(
    actionsOf({ AXRole: str("AXRow"), AXDisclosing: { kind: "bool", value: false } }),
    [
      "select",
      "scroll_into_view",
      "expand",
      "collapse",
    ],
  );
  assert.deepEqual(actionsOf({ AXRole: str("AXSomethingNew") }), []);
});

Deno.test("mapNode() makes a RawNode and lists its children's handles", () => {
  const values: AxValue[] = READ_ATTRIBUTES.map((name): AxValue => {
    switch (name) {
      case "AXRole":
        return str("AXWindow");
      case "AXTitle":
        return str("Untitled");
      case "AXMain":
        return yes;
      case "AXFocused":
        return { kind: "bool", value: false };
      case "AXChildren":
        return {
          kind: "array",
          items: [{ kind: "element", element: "1:a" }, str("junk"), {
            kind: "element",
            element: "1:b",
          }],
        };
      default:
        return missing;
    }
  });
  const { node, children } = mapNode("1:w", attributesOf(READ_ATTRIBUTES, values));
  assert.deepEqual(node, {
    handle: "1:w",
    role: "AXWindow",
    name: "Untitled",
    bounds: { x: 0, y: 0, w: 0, h: 0 },
    enabled: true,
    // The main window counts as focused, as an active frame does on Linux.
    focused: true,
    actions: ["focus"],
    children: [],
  });
  assert.deepEqual(children, ["1:a", "1:b"]);
  assert.equal(mapNode("1:x", {}).node.role, "AXUnknown");
});
