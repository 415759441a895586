import assert from "node:assert/strict";
import type { DBusSignal } from "../../platform/dbus/mod.ts";
import { Variant } from "../../platform/dbus/mod.ts";
import { eventOf } from "./events.ts";

const bounds = (rect: number[]): DBusSignal =>
  ({
    sender: ":1.5",
    path: "/org/a11y/atspi/accessible/7",
    interface: "org.a11y.atspi.Event.Object",
    member: "BoundsChanged",
    body: ["", 0, 0, new Variant("(iiii)", rect), {}],
  }) as unknown as DBusSignal;

Deno.test("eventOf() says when a bounds change gives a node an area", () => {
  assert.equal(eventOf(bounds([0, 80, 480, 50]))?.detail, "sized");
  assert.equal(eventOf(bounds([0, 80, 0, 0]))?.detail, undefined);
  assert.equal(eventOf(bounds([0, 80, 0, 0]))?.kind, "bounds");
});

Deno.test("eventOf() takes a tree view's row and model signals as structure changes", () => {
  for (const member of ["RowInserted", "RowDeleted", "RowReordered", "ModelChanged"]) {
    const signal = { ...bounds([0, 0, 1, 1]), member, body: ["", 3, 1, new Variant("i", 0), {}] };
    const event = eventOf(signal as unknown as DBusSignal);
    assert.equal(event?.kind, "structure", member);
    assert.equal(event?.handle, ":1.5|/org/a11y/atspi/accessible/7");
  }
});
