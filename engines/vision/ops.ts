/**
 * The ops the vision engine serves; separate so a registry can list them without loading
 * the engine (and libtesseract).
 *
 * @module
 */

/** Ops this engine serves: reads, element actions as pixel input, and raw input. */
export const VISION_OPS = [
  "list_apps",
  "read_ui",
  "act",
  "run_batch",
  "verify",
  "find",
  "screenshot",
  "zoom",
  "pixel_click",
  "pixel_move",
  "pixel_drag",
  "pixel_scroll",
  "pixel_type_text",
  "pixel_key",
  "hold_key",
] as const;
