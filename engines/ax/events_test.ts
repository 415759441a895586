import assert from "node:assert/strict";
import { EventConverter } from "./events.ts";

Deno.test("EventConverter keeps handles only where they tell what to read", () => {
  const c = new EventConverter();
  assert.deepEqual(
    c.convert({ pid: 5, kind: "property", note: "AXValueChanged", handle: "5:a", count: 1 }),
    [
      { app: "pid:5", kind: "property", handle: "5:a", detail: "AXValueChanged" },
    ],
  );
  assert.deepEqual(
    c.convert({ pid: 5, kind: "structure", note: "AXCreated", handle: "5:n", count: 3 }),
    [
      { app: "pid:5", kind: "structure", detail: "AXCreated" },
    ],
  );
  assert.deepEqual(c.convert({ pid: 5, kind: "structure", note: "", count: 9 }), [
    { app: "pid:5", kind: "structure" },
  ]);
});

Deno.test("EventConverter announces the element that lost focus", () => {
  const c = new EventConverter();
  const focus = (handle: string) =>
    c.convert({ pid: 5, kind: "focus", note: "AXFocusedUIElementChanged", handle, count: 1 });
  assert.equal(focus("5:a").length, 1);
  assert.deepEqual(focus("5:b").map((e) => [e.kind, e.handle]), [["focus", "5:b"], [
    "state",
    "5:a",
  ]]);
  assert.equal(focus("5:b").length, 1);
  c.sawFocus(5, "5:z");
  assert.deepEqual(focus("5:b").map((e) => e.handle), ["5:b", "5:z"]);
  c.forget(5);
  assert.equal(focus("5:c").length, 1);
});
