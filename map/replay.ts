/**
 * Replay by crop (design document: "The vision fallback and replay use it to recognise an
 * element whose tree data changed"): an id planned on an earlier version that the current
 * map no longer holds, whose crop that version kept, is looked for among the current
 * elements of the same role by its pixels. A renamed or relabelled button that still
 * looks the same is found again.
 *
 * @module
 */
import { addCrops, cropDistance, nearestByCrop } from "../model/crop.ts";
import type { Capture, RawNode } from "../model/engine.ts";
import type { Element } from "../protocol/element.ts";
import type { WindowMap } from "./window_map.ts";

/** Largest Hamming distance (of 64 bits) at which two crops show the same element. */
export const REPLAY_MAX_DISTANCE = 6;

/** An element found again by its crop. */
export interface CropMatch {
  /** The current element. */
  element: Element;
  /** The engine node to act on. */
  node: RawNode;
  /** Bits of 64 in which the crops differ. */
  distance: number;
}

/**
 * The current element that looks like `planned` (an element of an earlier version, with
 * its crop) in `capture` of the window, or undefined when none is close enough.
 */
export function findByCrop(
  map: WindowMap,
  planned: Element & { crop: string },
  capture: Capture,
): CropMatch | undefined {
  const candidates = addCrops(map.elements.filter((e) => e.role === planned.role), capture);
  const element = nearestByCrop(planned.crop, candidates, REPLAY_MAX_DISTANCE, planned.bounds);
  const node = element && map.handle(element.id);
  if (!element || !node) return undefined;
  return { element, node, distance: cropDistance(planned.crop, element.crop!) };
}
