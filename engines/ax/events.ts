/**
 * AXHub notifications turned into the engine events the live map routes. AX names only
 * the newly focused element when focus moves, so the converter remembers each app's last
 * focused element and announces it too: the map must clear its `focused` flag.
 *
 * @module
 */
import { keepsHandle } from "./hub/notifications.ts";
import type { HubEvent } from "./hub/ax_hub.ts";
import type { EngineEvent } from "../../model/engine.ts";
import { appIdOf } from "./apps.ts";

/** Converts hub events, keeping per-app focus. */
export class EventConverter {
  readonly #focused = new Map<number, string>();

  /** The engine events for one hub event (one, or two when focus moved). */
  convert(e: HubEvent): EngineEvent[] {
    const app = appIdOf(e.pid);
    const event: EngineEvent = { app, kind: e.kind };
    if (e.note) event.detail = e.note;
    if (e.handle === undefined || !keepsHandle(e.note)) return [event];
    event.handle = e.handle;
    if (e.note !== "AXFocusedUIElementChanged") return [event];
    const before = this.#focused.get(e.pid);
    this.#focused.set(e.pid, e.handle);
    if (before === undefined || before === e.handle) return [event];
    return [event, { app, kind: "state", handle: before, detail: "AXFocusedUIElementChanged" }];
  }

  /** Records what the probe saw as focused, so the next focus move clears it. */
  sawFocus(pid: number, handle: string | null): void {
    if (handle === null) this.#focused.delete(pid);
    else this.#focused.set(pid, handle);
  }

  /** Forgets an app that quit. */
  forget(pid: number): void {
    this.#focused.delete(pid);
  }
}
