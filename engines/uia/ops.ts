/**
 * The ops the UIA engine serves; separate so the registry can list them without loading
 * the engine (and its FFI) on other OSes.
 *
 * @module
 */

/** Ops this engine serves. */
export const UIA_OPS = [
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
