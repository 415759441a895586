/**
 * Replaying a recorded batch against a later map: each step names the element it acted
 * on by id, and also by crop and bounds, so it can be found again when the id is gone.
 *
 * Per step: when the batch was recorded on the same window and the id is still there
 * with a crop within the threshold of the recorded one (or either has no crop), the step
 * is found by id. Otherwise the nearest crop within the threshold is taken, preferring
 * elements of the recorded role, and among equally near crops the one closest to where
 * the element was, measured from the window's corner (so a window that moved is no
 * obstacle). Ids are only meaningful together with their window (map/ids.ts), so a batch
 * replayed on another window (the app restarted, a second instance) is found by crop only.
 *
 * @module
 */
import { cropDistance, nearestByCrop } from "../../model/crop.ts";
import type { ActionName, Bounds, Element } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";

/** One recorded step: what was done to which element, and how it looked. */
export interface RecordedStep {
  /** The element's id when recorded. */
  id: string;
  /** The action. */
  action: ActionName;
  /** Its value (set_value, type_text). */
  value?: string;
  /** The element's role when recorded. */
  role?: string;
  /** The element's crop when recorded. */
  crop?: string;
  /** The element's bounds when recorded (screen points). */
  bounds: Bounds;
}

/** A batch as recorded, ready to be stored and replayed. */
export interface RecordedBatch {
  /** The window it was recorded on. */
  window: string;
  /** That window's corner when recorded (screen points). */
  origin: { x: number; y: number };
  /** The steps, in order. */
  steps: RecordedStep[];
}

/** How one step was found again. */
export interface ReplayStep {
  /** Index of the step in the batch. */
  step: number;
  /** The recorded id. */
  id: string;
  /** `id`: the id still names the element; `crop`: re-found by crop; `none`: not found. */
  found: "id" | "crop" | "none";
  /** Hamming distance between the recorded crop and the element's, when both have one. */
  distance?: number;
  /** The element to act on now (absent when not found). */
  element?: Element;
}

/** Tunables of {@link replayBatch}. */
export interface ReplayOptions {
  /** Largest crop distance accepted, of 64 bits (default 10, as model/crop.ts). */
  maxDistance?: number;
}

/**
 * Records a batch from the elements it was planned on.
 *
 * @param window The window the elements belong to.
 * @param elements The map's elements (with crops), the window first.
 * @param steps What to do to which id.
 * @throws {DriverError} `element_not_found` when a step's id is not among `elements`.
 */
export function recordBatch(
  window: string,
  elements: readonly Element[],
  steps: readonly { id: string; action: ActionName; value?: string }[],
): RecordedBatch {
  const byId = new Map(elements.map((e) => [e.id, e]));
  const root = elements.find((e) => e.parent === undefined);
  return {
    window,
    origin: { x: root?.bounds.x ?? 0, y: root?.bounds.y ?? 0 },
    steps: steps.map((s) => {
      const el = byId.get(s.id);
      if (!el) {
        throw new DriverError(
          "element_not_found",
          `Cannot record a step on "${s.id}": no such element`,
          {
            id: s.id,
          },
        );
      }
      const step: RecordedStep = { id: s.id, action: s.action, role: el.role, bounds: el.bounds };
      if (s.value !== undefined) step.value = s.value;
      if (el.crop !== undefined) step.crop = el.crop;
      return step;
    }),
  };
}

/**
 * Finds each step's element in a later map.
 *
 * @param batch The recorded batch.
 * @param window The window it is replayed on.
 * @param elements That window's current elements (with crops), the window first.
 * @returns One answer per step, in order.
 */
export function replayBatch(
  batch: RecordedBatch,
  window: string,
  elements: readonly Element[],
  options: ReplayOptions = {},
): ReplayStep[] {
  const max = options.maxDistance ?? 10;
  const root = elements.find((e) => e.parent === undefined);
  const dx = (root?.bounds.x ?? batch.origin.x) - batch.origin.x;
  const dy = (root?.bounds.y ?? batch.origin.y) - batch.origin.y;
  const byId = new Map(elements.map((e) => [e.id, e]));
  const candidates = elements.filter((e) => e !== root);
  return batch.steps.map((s, step): ReplayStep => {
    const el = batch.window === window ? byId.get(s.id) : undefined;
    if (el) {
      if (s.crop === undefined || el.crop === undefined) {
        return { step, id: s.id, found: "id", element: el };
      }
      const distance = cropDistance(s.crop, el.crop);
      if (distance <= max) return { step, id: s.id, found: "id", distance, element: el };
    }
    if (s.crop === undefined) return { step, id: s.id, found: "none" };
    const was = { ...s.bounds, x: s.bounds.x + dx, y: s.bounds.y + dy };
    const sameRole = candidates.filter((e) => e.role === s.role);
    const best = nearestByCrop(s.crop, sameRole, max, was) ??
      nearestByCrop(s.crop, candidates, max, was);
    if (!best) return { step, id: s.id, found: "none" };
    return {
      step,
      id: s.id,
      found: "crop",
      distance: cropDistance(s.crop, best.crop!),
      element: best,
    };
  });
}
