/**
 * What the AX engine is built from on a Mac: the FFI source, CoreGraphics input and
 * capture, the AXHub and the main run-loop pump. Kept apart from the engine so tests can
 * build the engine from a fixture source and fakes without loading any framework.
 *
 * @module
 */
import { Cf } from "../../ffi/macos/cf.ts";
import { loadMacFrameworks } from "../../ffi/macos/load.ts";
import type { Rect } from "../../ffi/macos/marshal.ts";
import { AxHub, type HubEvent } from "./hub/ax_hub.ts";
import { pumpMainRunLoop } from "./hub/main_run_loop.ts";
import type { Capture, PixelInput } from "../../model/engine.ts";
import { CgCapture } from "./cg_capture.ts";
import { CgInput } from "./cg_input.ts";
import { FfiSource } from "./ffi_source.ts";
import type { AxSource } from "./source.ts";

/** Screen-wide input and pixels. */
export interface AxDesktop {
  /** Sends pointer or keyboard input. */
  input(input: PixelInput, signal: AbortSignal): Promise<void>;
  /** Pixels of `area` (default: the main display), or of window `windowNumber`. */
  capture(area?: Rect, windowNumber?: number): Capture;
}

/** The part of the AXHub the engine uses (tests pass a fake). */
export interface AxNotifier {
  /** Starts the run-loop thread. */
  start(): Promise<void>;
  /** Observes an app. */
  watch(pid: number): void;
  /** Stops observing an app. */
  unwatch(pid: number): void;
  /** Subscribes a web area (an element address retained once for the hub). */
  watchWebArea(pid: number, element: bigint): void;
  /** Listens; returns the function that stops listening. */
  onEvent(listener: (e: HubEvent) => void): () => void;
  /** Stops the thread; idempotent. */
  close(): Promise<void>;
}

/** Everything the engine needs on a Mac. */
export interface MacParts {
  /** Accessibility. */
  source: AxSource;
  /** Input and capture. */
  desktop: AxDesktop;
  /** Notifications. */
  hub: AxNotifier;
  /** Stops the main run-loop pump. */
  stopPump: () => void;
}

/**
 * Loads the frameworks and builds the engine's parts.
 *
 * @throws {DriverError} `driver_unavailable` with reason `wrong_os` off macOS.
 */
export function macParts(): MacParts {
  const fw = loadMacFrameworks();
  const cf = new Cf(fw.cf);
  const input = new CgInput(fw.cg, cf);
  const capture = new CgCapture(fw.cg, cf);
  return {
    source: new FfiSource(fw),
    desktop: {
      input: (i, signal) => input.send(i, signal),
      capture: (area, windowNumber) => capture.capture(area, windowNumber),
    },
    hub: new AxHub(),
    stopPump: pumpMainRunLoop(fw.cf),
  };
}
