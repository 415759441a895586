/**
 * UIA notifications to {@link EngineEvent}s: which kind of change each one is, and which
 * node it names, so the live map patches only what changed. Pure: the handlers in
 * `events.ts` read the sender's cached runtime id and process id and call these.
 *
 * @module
 */
import type { EngineEvent } from "../../model/engine.ts";
import { EVENT, PROP, STRUCTURE_CHANGE } from "./ids.ts";
import { appIdOf } from "./naming.ts";

/** Properties whose changes the engine subscribes to, with the kind each one is. */
export const WATCHED_PROPERTIES: ReadonlyMap<number, EngineEvent["kind"]> = new Map([
  [PROP.Name, "property"],
  [PROP.ValueValue, "property"],
  [PROP.RangeValueValue, "property"],
  [PROP.BoundingRectangle, "bounds"],
  [PROP.IsEnabled, "state"],
  [PROP.HasKeyboardFocus, "state"],
  [PROP.IsOffscreen, "state"],
  [PROP.ToggleState, "state"],
  [PROP.ExpandCollapseState, "state"],
  [PROP.SelectionItemIsSelected, "state"],
]);

/** A property change on `handle` (the sender). */
export function propertyEvent(pid: number, handle: string, property: number): EngineEvent {
  const e: EngineEvent = {
    app: appIdOf(pid),
    kind: WATCHED_PROPERTIES.get(property) ?? "property",
    handle,
  };
  // Coming on screen matters even for nodes the map does not hold (live_map's routing).
  if (property === PROP.IsOffscreen) e.detail = "showing";
  return e;
}

/**
 * A structure change. For ChildAdded the sender is the new child, which no map holds, so
 * the event names no node and the window is read again; for the others the sender is
 * the parent whose children changed, and only its subtree is.
 */
export function structureEvent(pid: number, handle: string, change: number): EngineEvent {
  if (change === STRUCTURE_CHANGE.ChildAdded) return { app: appIdOf(pid), kind: "structure" };
  return { app: appIdOf(pid), kind: "structure", handle };
}

/** An automation event: text edits name their element, opened windows and menus none. */
export function automationEvent(pid: number, handle: string, eventId: number): EngineEvent {
  if (eventId === EVENT.Text_TextChanged) return { app: appIdOf(pid), kind: "text", handle };
  return { app: appIdOf(pid), kind: "window" };
}

/** Remembers each app's focused node, so a focus move also names the node that lost it. */
export class FocusTracker {
  readonly #last = new Map<string, string>();

  /** The events for focus landing on `handle`: the old node (if another) and the new. */
  moved(pid: number, handle: string): EngineEvent[] {
    const app = appIdOf(pid);
    const before = this.#last.get(app);
    this.#last.set(app, handle);
    const now: EngineEvent = { app, kind: "focus", handle };
    return before && before !== handle ? [{ app, kind: "focus", handle: before }, now] : [now];
  }
}
