/**
 * Sends an input plan through `SendInput`. Every key or button a plan presses is
 * released even when a pause is aborted or a batch is refused, so no modifier stays held.
 *
 * @module
 */
import { INPUT_SIZE, type InputEvent, packInputs } from "../../ffi/windows/structs.ts";
import { SM, type User32 } from "../../ffi/windows/user32.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { PixelInput } from "../../model/engine.ts";
import { type Desktop, planInput, unreleased } from "./input_plan.ts";

/** The virtual desktop's rectangle. */
export function virtualDesktop(user32: User32): Desktop {
  return {
    x: user32.GetSystemMetrics(SM.XVIRTUALSCREEN),
    y: user32.GetSystemMetrics(SM.YVIRTUALSCREEN),
    w: user32.GetSystemMetrics(SM.CXVIRTUALSCREEN),
    h: user32.GetSystemMetrics(SM.CYVIRTUALSCREEN),
  };
}

function send(user32: User32, events: InputEvent[]): void {
  if (events.length === 0) return;
  const sent = user32.SendInput(events.length, packInputs(events), INPUT_SIZE);
  if (sent !== events.length) {
    throw new DriverError(
      "driver_unavailable",
      `SendInput inserted ${sent} of ${events.length} events: input is blocked (an elevated ` +
        `window has focus, or a secure desktop is showing)`,
      { reason: "input_blocked" },
    );
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** Performs `input` on the interactive desktop. */
export async function sendInput(
  user32: User32,
  input: PixelInput,
  signal: AbortSignal,
): Promise<void> {
  signal.throwIfAborted();
  const plan = planInput(input, virtualDesktop(user32), (ch) => user32.VkKeyScanW(ch));
  // Counted as sent before the call: a batch SendInput refused halfway is released too.
  const attempted: InputEvent[] = [];
  try {
    for (const step of plan) {
      if ("pause" in step) await pause(step.pause, signal);
      else {
        attempted.push(...step.events);
        send(user32, step.events);
      }
    }
  } finally {
    const releases = unreleased(attempted);
    if (releases.length) {
      try {
        send(user32, releases);
      } catch {
        // Best effort on a path that is already failing; releasing an unpressed key is harmless.
      }
    }
  }
}
