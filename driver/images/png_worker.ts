/**
 * The image worker: scales and PNG-encodes captures off the driver's event loop. A
 * full-screen PNG takes hundreds of milliseconds of JS; on the main thread that was time
 * every other client waited.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { encodePng } from "../../model/png.ts";
import { base64, scaleCapture } from "../../model/capture.ts";
import type { EncodeReply, EncodeRequest } from "./pool.ts";

self.onmessage = (e: MessageEvent<EncodeRequest>) => {
  const { id, capture, factor } = e.data;
  try {
    const out = factor === 1 ? capture : scaleCapture(capture, factor);
    const reply: EncodeReply = {
      id,
      png: base64(encodePng(out)),
      width: out.width,
      height: out.height,
      scale: out.scale,
    };
    self.postMessage(reply);
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
