/**
 * The vision engine: windows read from their pixels for apps with no accessibility tree,
 * OCR by Tesseract, actions as pixel input, and replay of recorded batches by crop.
 *
 * ```ts
 * import { buildSnapshot, addCrops } from "../../map/mod.ts";
 * import { VisionEngine } from "./mod.ts";
 *
 * const vision = new VisionEngine();
 * const read = await vision.read("x400016", { maxElements: 5000, signal });
 * const snapshot = buildSnapshot(read.root);
 * const elements = addCrops(snapshot.elements, read.capture);
 * ```
 *
 * @module
 */
export { type OwnedReader, VisionEngine, type VisionOptions, type VisionRead } from "./engine.ts";
export { VISION_OPS } from "./ops.ts";
export { type LineReader, TesseractReader } from "./ocr.ts";
export { analyse, type Analysis, OCR_SCALE } from "./analyse.ts";
export { type Proposal, type VisionRole } from "./regions.ts";
export { findWindow, parseWindowId, type WindowHint, windowId } from "./windows.ts";
export {
  recordBatch,
  type RecordedBatch,
  type RecordedStep,
  replayBatch,
  type ReplayOptions,
  type ReplayStep,
} from "./replay.ts";
