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
export { clientWindowOf } from "./client_window.ts";
export {
  activeWindow,
  clientsOf,
  rootChildren,
  type TopLevelWindow,
  topLevelWindows,
} from "./top_level.ts";
export { type ClientProcess, clientProcesses, type PidSource } from "./clients.ts";
export { processName } from "./processes.ts";
export { parseKeys } from "./keys.ts";
export {
  type Cover,
  coversOf,
  overlap,
  type PlacedWindow,
  type RaiseOptions,
  raiseWindow,
  stackingOrder,
  windowManager,
  windowsAt,
} from "./stacking.ts";
export { coverFacts, type InputOwner, uncover } from "./uncover.ts";
export {
  clientWindowAt,
  type FocusHolder,
  focusHolder,
  type FocusTarget,
  focusTarget,
  takeFocus,
} from "./focus.ts";
export {
  operateWindow,
  reached,
  requestWindow,
  type WindowAction,
  type WindowFacts,
  windowFacts,
  type WindowRequest,
} from "./window_ops.ts";
export {
  readSelection,
  type ReadSelectionOptions,
  type SelectionName,
  SelectionOwner,
  type SelectionOwnerOptions,
  type SelectionText,
} from "./clipboard.ts";
