/**
 * The X11 backend: pointer and keyboard input through XTEST, screen and window capture
 * through `XGetImage`. Everything takes an {@link X11Display}.
 *
 * ```ts
 * using display = X11Display.open();
 * await sendInput(display, { kind: "type", text: "Hello" }, AbortSignal.timeout(5000));
 * const shot = captureScreen(display);
 * ```
 *
 * @module
 */
export { X11Display } from "./display.ts";
export { sendInput } from "./input.ts";
export { captureScreen, captureWindow } from "./capture.ts";
export { windowBounds, windowsForPid } from "./windows.ts";
export { activeWindow, type TopLevelWindow, topLevelWindows } from "./top_level.ts";
export { parseKeys } from "./keys.ts";
export { type PlacedWindow, raiseWindow, windowsAt } from "./stacking.ts";
