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
