/**
 * AT-SPI change notifications. Apps only emit what some listener registered with the
 * registry, so the engine registers the events the live map needs, adds bus match rules,
 * and turns each signal into an {@link EngineEvent} without any call back to the app
 * (the design document's rule for the notification path).
 *
 * Window, focus and quit signals are matched for every app; the object-level ones only
 * for the apps the live map follows (one subscriber per watched app), so a busy app
 * nobody reads costs nothing. Repeated bounds are dropped and a sustained bounds flood
 * mutes that app's bounds for {@link MUTE_MS} ({@link BoundsFilter}).
 *
 * @module
 */
import { type DBusConnection, type DBusSignal, Variant } from "../../platform/dbus/mod.ts";
import type { EngineEvent } from "../../model/engine.ts";
import { handleOf } from "./client.ts";
import { BoundsFilter } from "./flood.ts";

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
  // A tree view's model changes: Thunar announces a file created in the folder it shows
  // by row-inserted alone, no children-changed.
  "object:row-inserted",
  "object:row-deleted",
  "object:row-reordered",
  "object:model-changed",
  "window:",
  "focus:",
] as const;

/** An app is a connection to the a11y bus: its name losing its owner means it quit. */
const NAME_LOST = "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus'," +
  "member='NameOwnerChanged'";

/** Matched for every app: window-level changes, focus, and quits. */
const GLOBAL_MATCHES = [
  ...["Window", "Focus"].map((i) => `type='signal',interface='org.a11y.atspi.Event.${i}'`),
  NAME_LOST,
];

/** Object-level members the live map reads, matched per followed app. */
const OBJECT_MEMBERS = [
  "ChildrenChanged",
  "PropertyChange",
  "StateChanged",
  "TextChanged",
  "BoundsChanged",
  "ActiveDescendantChanged",
  "SelectionChanged",
  "ValueChanged",
  "RowInserted",
  "RowDeleted",
  "RowReordered",
  "ModelChanged",
] as const;

/**
 * How long an app that flooded bounds stays muted before it is heard again; each
 * further flood doubles it, up to {@link MAX_MUTE_MS}, so a steady animation costs
 * a couple of seconds of signals every few minutes.
 */
export const MUTE_MS = 30_000;

/** The longest mute. */
export const MAX_MUTE_MS = 300_000;

const objectRule = (app: string, member: string) =>
  `type='signal',sender='${app}',interface='org.a11y.atspi.Event.Object',member='${member}'`;

/** Is `data` (a BoundsChanged's variant of `(iiii)`) a box of some area? */
function hasArea(data: unknown): boolean {
  const rect = data instanceof Variant ? data.value : data;
  if (!Array.isArray(rect) || rect.length < 4) return false;
  const [, , w, h] = rect as number[];
  return typeof w === "number" && typeof h === "number" && w > 0 && h > 0;
}

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
    case "RowInserted":
    case "RowDeleted":
    case "RowReordered":
    case "ModelChanged":
      return { app, kind: "structure", handle };
    case "PropertyChange":
      return { app, kind: "property", handle };
    case "StateChanged":
      return { app, kind: detail === "focused" ? "focus" : "state", handle, detail };
    case "TextChanged":
      return { app, kind: "text", handle };
    case "BoundsChanged":
      // `sized`: it now has an area to show in (a GTK 4 stack's page flipped into view).
      return { app, kind: "bounds", handle, ...(hasArea(s.body[3]) ? { detail: "sized" } : {}) };
    case "ActiveDescendantChanged":
    case "SelectionChanged":
      return { app, kind: "state", handle };
    case "ValueChanged":
      return { app, kind: "property", handle };
    default:
      return undefined;
  }
}

const REGISTRY = {
  destination: "org.a11y.atspi.Registry",
  path: "/org/a11y/atspi/registry",
  interface: "org.a11y.atspi.Registry",
};

/** One subscription on the a11y bus: registered events, match rules, followed apps. */
export class AtspiEvents {
  readonly #bus: DBusConnection;
  readonly #listener: (e: EngineEvent) => void;
  readonly #bounds: BoundsFilter;
  readonly #muteMs: number;
  /** Followed apps and the object members currently matched for each. */
  readonly #rules = new Map<string, Set<string>>();
  readonly #muted = new Map<string, ReturnType<typeof setTimeout>>();
  /** Floods so far per followed app (the mute doubles with each). */
  readonly #floods = new Map<string, number>();
  #off: () => void = () => {};
  #queue: Promise<void> = Promise.resolve();

  constructor(
    bus: DBusConnection,
    listener: (e: EngineEvent) => void,
    options: { bounds?: BoundsFilter; muteMs?: number } = {},
  ) {
    this.#bus = bus;
    this.#listener = listener;
    this.#bounds = options.bounds ?? new BoundsFilter();
    this.#muteMs = options.muteMs ?? MUTE_MS;
  }

  /** Registers the events with the registry and adds the global match rules. */
  async start(): Promise<void> {
    this.#off = this.#bus.onSignal(this.#onSignal);
    await Promise.all(GLOBAL_MATCHES.map((rule) => this.#bus.addMatch(rule)));
    await Promise.all(
      EVENTS.map((ev) =>
        this.#bus.call({ ...REGISTRY, member: "RegisterEvent", signature: "s", body: [ev] }, {
          timeoutMs: 3_000,
        })
      ),
    );
  }

  /**
   * Object-level events come for exactly `apps` from when this resolves. Calls are
   * applied in order; a rule the bus refuses rejects this call and leaves that app
   * unfollowed.
   */
  follow(apps: readonly string[]): Promise<void> {
    const next = this.#queue.then(() => this.#apply(new Set(apps)));
    this.#queue = next.catch(() => {});
    return next;
  }

  async #apply(want: Set<string>): Promise<void> {
    const drops = [...this.#rules.keys()].filter((app) => !want.has(app));
    for (const app of drops) await this.#unfollow(app);
    const failures: unknown[] = [];
    for (const app of want) {
      if (this.#rules.has(app)) continue;
      const members = OBJECT_MEMBERS.filter((m) =>
        !(m === "BoundsChanged" && this.#muted.has(app))
      );
      const added = new Set<string>();
      this.#rules.set(app, added);
      const results = await Promise.allSettled(
        members.map((m) => this.#bus.addMatch(objectRule(app, m)).then(() => added.add(m))),
      );
      const failed = results.find((r) => r.status === "rejected");
      if (failed) {
        await this.#unfollow(app);
        failures.push(failed.reason);
      }
    }
    if (failures.length > 0) throw failures[0];
  }

  async #unfollow(app: string): Promise<void> {
    const members = this.#rules.get(app);
    this.#rules.delete(app);
    clearTimeout(this.#muted.get(app));
    this.#muted.delete(app);
    this.#floods.delete(app);
    this.#bounds.forget(app);
    if (!members || this.#bus.closed) return;
    await Promise.allSettled([...members].map((m) => this.#bus.removeMatch(objectRule(app, m))));
  }

  readonly #onSignal = (s: DBusSignal): void => {
    if (s.interface === "org.freedesktop.DBus" && s.member === "NameOwnerChanged") {
      const [name, , owner] = s.body as [string, string, string];
      if (name.startsWith(":") && owner === "") {
        this.#bounds.forget(name);
        this.#listener({ app: name, kind: "gone" });
      }
      return;
    }
    if (!s.interface.startsWith("org.a11y.atspi.Event.")) return;
    if (s.member === "BoundsChanged") {
      // In flight when the mute began: the app is already reported degraded.
      if (this.#muted.has(s.sender)) return;
      const verdict = this.#bounds.see(s.sender, s.path, JSON.stringify(s.body[3] ?? null));
      if (verdict === "repeat") return;
      if (verdict === "flood") return this.#mute(s.sender);
    }
    const e = eventOf(s);
    if (e) this.#listener(e);
  };

  /** Stops matching `app`'s bounds for a while and says so; then listens again. */
  #mute(app: string): void {
    const members = this.#rules.get(app);
    if (!members || this.#muted.has(app)) return;
    members.delete("BoundsChanged");
    this.#bounds.forget(app);
    const floods = (this.#floods.get(app) ?? 0) + 1;
    this.#floods.set(app, floods);
    const ms = Math.min(this.#muteMs * 2 ** (floods - 1), Math.max(this.#muteMs, MAX_MUTE_MS));
    const rate = this.#bounds.limits.perSecond;
    const reason = `bounds_flood: the app posts more than ${rate} bounds changes a second; ` +
      `they are not followed for ${ms / 1000} s`;
    const t = setTimeout(() => {
      this.#muted.delete(app);
      this.#queue = this.#queue.then(async () => {
        const rules = this.#rules.get(app);
        if (!rules || this.#bus.closed) return;
        await this.#bus.addMatch(objectRule(app, "BoundsChanged"));
        rules.add("BoundsChanged");
        // Missed changes: the live map reads the app's windows in full again.
        this.#listener({ app, kind: "unmuted" });
      }).catch(() => {});
    }, ms);
    Deno.unrefTimer(t);
    this.#muted.set(app, t);
    this.#listener({ app, kind: "muted", detail: reason });
    this.#queue = this.#queue.then(() => this.#bus.removeMatch(objectRule(app, "BoundsChanged")))
      .catch(() => {});
  }

  /** Removes every rule and registration; safe on a closed bus. */
  async close(): Promise<void> {
    this.#off();
    for (const t of this.#muted.values()) clearTimeout(t);
    this.#muted.clear();
    if (this.#bus.closed) return;
    await this.#queue;
    const follows = [...this.#rules.keys()];
    await Promise.allSettled([
      ...follows.map((app) => this.#unfollow(app)),
      ...GLOBAL_MATCHES.map((rule) => this.#bus.removeMatch(rule)),
      ...EVENTS.map((ev) =>
        this.#bus.call({ ...REGISTRY, member: "DeregisterEvent", signature: "s", body: [ev] }, {
          timeoutMs: 3_000,
        })
      ),
    ]);
  }
}
