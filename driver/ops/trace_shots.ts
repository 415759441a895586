/**
 * Screenshots for traces: a window (or the screen) taken by the engine serving the op,
 * inside the op's locks, and encoded later, after the op has answered: the op waits for
 * the two captures only, not for scaling and PNG encoding (done by the image worker, as
 * `screenshot` does).
 *
 * @module
 */
import type { Capture } from "../../model/engine.ts";
import type { DriverCore } from "../core.ts";
import { shrinkFactor } from "../../trace/policy.ts";

/** A screenshot ready to store. */
export interface Shot {
  /** PNG bytes. */
  png: Uint8Array;
  /** Pixels across. */
  width: number;
  /** Pixels down. */
  height: number;
  /** Pixels per screen point. */
  scale: number;
  /** Screen point of the top-left corner. */
  origin: { x: number; y: number };
}

/** Takes `window` (the whole screen when undefined) with the engine named. */
export function takeCapture(
  core: DriverCore,
  engineName: string | undefined,
  window: string | undefined,
  signal: AbortSignal,
): Promise<Capture> {
  return core.engine(engineName).capture(window, signal);
}

/** Nothing aborts an encode once the op has answered: it is the trace's own work. */
const NEVER = new AbortController().signal;

/** `shot` scaled to at most `maxWidth` pixels across and encoded as PNG. */
export async function encodeShot(
  core: DriverCore,
  shot: Capture,
  maxWidth: number,
): Promise<Shot> {
  const origin = { ...shot.origin };
  const factor = shrinkFactor(shot.width, maxWidth);
  const enc = await core.images.encode(() => Promise.resolve(shot), factor, NEVER);
  return { png: pngBytes(enc.png), width: enc.width, height: enc.height, scale: enc.scale, origin };
}

/** `png`, base64 as answers carry it, as bytes. */
export function pngBytes(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}
