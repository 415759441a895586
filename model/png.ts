/**
 * PNG encoding of {@link Capture}s (screenshots, zoom), used by the image worker. Kept
 * apart from the pixel helpers (model/capture.ts) so the driver's event-loop code never
 * loads the encoder.
 *
 * @module
 */
import { encode } from "fast-png";
import type { Capture } from "./engine.ts";

/** Encodes `capture` as an 8-bit RGBA PNG. */
export function encodePng(capture: Capture): Uint8Array {
  return encode({
    width: capture.width,
    height: capture.height,
    data: capture.rgba,
    depth: 8,
    channels: 4,
  });
}
