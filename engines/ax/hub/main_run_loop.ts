/**
 * Turns the main thread's CFRunLoop from a timer. Deno's main thread runs its own event
 * loop, not Cocoa's, so without this NSWorkspace never processes the notifications that
 * keep `runningApplications` current, and an app launched after the driver started would
 * answer `app_not_running` (design document, "macOS run loop"). Each turn handles what is
 * pending and returns at once (`seconds = 0`): it never blocks the driver.
 *
 * @module
 */
import { readStatic } from "../../../ffi/macos/cf.ts";
import type { CoreFoundation } from "../../../ffi/macos/core_foundation.ts";

/** How often the main run loop is turned. */
export const MAIN_PUMP_MS = 250;

/**
 * Starts turning the main run loop every `intervalMs`.
 *
 * @param cf Loaded CoreFoundation (call on the main thread only).
 * @returns Stops the pump; idempotent.
 */
export function pumpMainRunLoop(cf: CoreFoundation, intervalMs = MAIN_PUMP_MS): () => void {
  const mode = readStatic(cf.kCFRunLoopDefaultMode);
  const timer = setInterval(() => {
    if (mode !== null) cf.CFRunLoopRunInMode(mode, 0, 0);
  }, intervalMs);
  // The pump must never keep a stopping driver alive.
  Deno.unrefTimer(timer);
  return () => clearInterval(timer);
}
