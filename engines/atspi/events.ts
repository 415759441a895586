/**
 * AT-SPI change notifications. Apps only emit what some listener registered with the
 * registry, so the engine registers the events the live map needs, adds bus match rules,
 * and turns each signal into an {@link EngineEvent} without any call back to the app
 * (the design document's rule for the notification path).
 *
 * @module
 */
import type { DBusConnection, DBusSignal } from "../../dbus/mod.ts";
import type { EngineEvent } from "../engine.ts";
import { handleOf } from "./client.ts";

/** Events registered with the registry (AT-SPI event names). */
export const EVENTS = [
  "object:children-changed",
  "object:property-change",
  "object:state-changed",
  "object:text-changed",
  "object:bounds-changed",
  "object:active-descendant-changed",
  "object:selection-changed",
  "object:value-changed",
  "window:",
  "focus:",
] as const;

/** An app is a connection to the a11y bus: its name losing its owner means it quit. */
const NAME_LOST = "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus'," +
  "member='NameOwnerChanged'";

const MATCHES = [
  ...["Object", "Window", "Focus"].map((i) =>
    `type='signal',interface='org.a11y.atspi.Event.${i}'`
  ),
  NAME_LOST,
];

/** Maps one signal to an event, or `undefined` for signals the live map ignores. */
export function eventOf(s: DBusSignal): EngineEvent | undefined {
  const app = s.sender;
  const handle = handleOf({ bus: app, path: s.path });
  const iface = s.interface.slice("org.a11y.atspi.Event.".length);
  if (iface === "Window") return { app, kind: "window", handle };
  if (iface === "Focus") return { app, kind: "focus", handle };
  const detail = typeof s.body[0] === "string" ? s.body[0] : "";
  switch (s.member) {
    case "ChildrenChanged":
      return { app, kind: "structure", handle };
    case "PropertyChange":
      return { app, kind: "property", handle };
    case "StateChanged":
      return { app, kind: detail === "focused" ? "focus" : "state", handle, detail };
    case "TextChanged":
      return { app, kind: "text", handle };
    case "BoundsChanged":
      return { app, kind: "bounds", handle };
    case "ActiveDescendantChanged":
    case "SelectionChanged":
      return { app, kind: "state", handle };
    case "ValueChanged":
      return { app, kind: "property", handle };
    default:
      return undefined;
  }
}

/** Registers events and match rules; returns the function that undoes both. */
export async function subscribeEvents(
  bus: DBusConnection,
  listener: (e: EngineEvent) => void,
): Promise<() => Promise<void>> {
  const registry = {
    destination: "org.a11y.atspi.Registry",
    path: "/org/a11y/atspi/registry",
    interface: "org.a11y.atspi.Registry",
  };
  const off = bus.onSignal((s) => {
    if (s.interface === "org.freedesktop.DBus" && s.member === "NameOwnerChanged") {
      const [name, , owner] = s.body as [string, string, string];
      if (name.startsWith(":") && owner === "") listener({ app: name, kind: "gone" });
      return;
    }
    if (!s.interface.startsWith("org.a11y.atspi.Event.")) return;
    const e = eventOf(s);
    if (e) listener(e);
  });
  await Promise.all(MATCHES.map((rule) => bus.addMatch(rule)));
  await Promise.all(
    EVENTS.map((ev) =>
      bus.call({ ...registry, member: "RegisterEvent", signature: "s", body: [ev] }, {
        timeoutMs: 3_000,
      })
    ),
  );
  return async () => {
    off();
    if (bus.closed) return;
    await Promise.allSettled([
      ...MATCHES.map((rule) => bus.removeMatch(rule)),
      ...EVENTS.map((ev) =>
        bus.call({ ...registry, member: "DeregisterEvent", signature: "s", body: [ev] }, {
          timeoutMs: 3_000,
        })
      ),
    ]);
  };
}
