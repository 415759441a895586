/**
 * What a trace keeps and how big it may grow: screenshots only around ops that change
 * the screen, scaled down, each distinct image once, and a cap past which images stop
 * (op lines go on: they are small, and the trace says from which op images stopped).
 *
 * @module
 */
import { OPS } from "../protocol/ops.ts";

/** A trace's size policy. */
export interface TracePolicy {
  /** Bytes of screenshots a trace may hold; past it, no more are stored. */
  maxImageBytes: number;
  /** Distinct screenshots a trace may hold. */
  maxImages: number;
  /** Widest a stored screenshot is, in pixels (larger ones are scaled down). */
  maxWidth: number;
}

/** 200 MB or 2,000 images, whichever comes first; 800 px wide at most. */
export const DEFAULT_POLICY: Readonly<TracePolicy> = {
  maxImageBytes: 200 * 1024 * 1024,
  maxImages: 2_000,
  maxWidth: 800,
};

/**
 * Ops that get a screenshot before and after: they act on a window or the screen. Reads
 * never do, so a read-heavy agent's trace stays small.
 */
export const SHOT_OPS: ReadonlySet<string> = new Set([
  "act",
  "run_batch",
  // Every input op of the table: pixel_* and hold_key.
  ...Object.entries(OPS).filter(([, op]) => op.kind === "input").map(([name]) => name),
]);

/** The factor that brings `width` pixels down to at most `maxWidth` (never up). */
export function shrinkFactor(width: number, maxWidth: number): number {
  return width > maxWidth ? maxWidth / width : 1;
}
