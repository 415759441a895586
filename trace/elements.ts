/**
 * What the recorder knows of each window's elements, from the answers it records
 * (`read_ui` maps and diffs, the diffs of acts and batches): enough to put the acted
 * element's bounds on a step and to tell a password field by its role before its text
 * is written to the trace.
 *
 * @module
 */
import type { Rect } from "./format.ts";

/** What is kept of one element. */
export interface Known {
  /** Role, e.g. `AXSecureTextField`. */
  role: string;
  /** Name. */
  name: string;
  /** Bounds in screen points. */
  bounds: Rect;
}

/** An element as answers carry it (only the members used here). */
interface Wire {
  id: string;
  role: string;
  name: string;
  bounds: Rect;
}

function isWire(e: unknown): e is Wire {
  if (typeof e !== "object" || e === null) return false;
  const w = e as Record<string, unknown>;
  return typeof w.id === "string" && typeof w.role === "string" &&
    typeof w.name === "string" && typeof w.bounds === "object" && w.bounds !== null;
}

/** Elements per window, as last answered. */
export class ElementIndex {
  readonly #windows = new Map<string, Map<string, Known>>();

  /** Takes in an answer about `window`: a whole map (`elements`) or a diff. */
  learn(window: string, answer: Record<string, unknown>): void {
    let map = this.#windows.get(window);
    if (Array.isArray(answer.elements)) {
      map = new Map();
      this.#windows.set(window, map);
    }
    if (map === undefined) {
      map = new Map();
      this.#windows.set(window, map);
    }
    for (const list of [answer.elements, answer.added, answer.changed]) {
      if (!Array.isArray(list)) continue;
      for (const e of list) {
        if (isWire(e)) map.set(e.id, { role: e.role, name: e.name, bounds: e.bounds });
      }
    }
    if (Array.isArray(answer.removed)) {
      for (const id of answer.removed) if (typeof id === "string") map.delete(id);
    }
  }

  /** The element `id` names in `window` (a unique prefix of 6+ characters will do). */
  find(window: string, id: string): ({ id: string } & Known) | undefined {
    const map = this.#windows.get(window);
    if (map === undefined) return undefined;
    const exact = map.get(id);
    if (exact) return { id, ...exact };
    if (id.length < 6) return undefined;
    let hit: ({ id: string } & Known) | undefined;
    for (const [full, known] of map) {
      if (!full.startsWith(id)) continue;
      if (hit) return undefined; // Ambiguous: the driver refused it too.
      hit = { id: full, ...known };
    }
    return hit;
  }
}
