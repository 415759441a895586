/**
 * The `busy` error a lock wait ends with when it times out: it says what holds the lock,
 * for how long, so the caller can decide to retry, wait longer or stop the holder.
 *
 * @module
 */
import { DriverError } from "../protocol/errors.ts";
import type { Holder } from "./queue.ts";

/** Which lock a request waited for. */
export type LockKind = "walk" | "input";

/**
 * `busy` for a request on `window` (null: the screen) that gave up after `timeoutMs`.
 * `blocker` holds the lock, or with `queued` is a request waiting ahead of it.
 */
export function busyError(
  lock: LockKind,
  window: string | null,
  blocker: Holder | undefined,
  now: number,
  timeoutMs: number,
  queued = false,
): DriverError {
  const target = window === null ? "The screen" : `Window "${window}"`;
  const what = lock === "walk" ? "the tree walk" : "input";
  if (blocker === undefined) {
    return new DriverError("busy", `${target} is busy: gave up after ${timeoutMs} ms`, {
      lock,
      timeout_ms: timeoutMs,
    });
  }
  const ms = Math.max(0, Math.round(now - blocker.since));
  const where = blocker.window === null
    ? " (screen-wide)"
    : blocker.window === window
    ? ""
    : ` on window "${blocker.window}"`;
  const doing = queued
    ? `has waited ahead of it for ${what} for ${ms} ms`
    : `has held ${what} for ${ms} ms`;
  return new DriverError(
    "busy",
    `${target} is busy: "${blocker.op}"${where} ${doing}; gave up after ${timeoutMs} ms`,
    {
      lock,
      timeout_ms: timeoutMs,
      holder: { op: blocker.op, window: blocker.window, ms, ...(queued ? { queued: true } : {}) },
    },
  );
}
