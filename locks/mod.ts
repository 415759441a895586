/**
 * Locks per window: one tree walk at a time (a reader that waited reuses a walk that just
 * finished), one input owner at a time, and screen-wide pixel input excluding all window
 * input. Every wait is bounded by a timeout and the request's AbortSignal and ends in
 * `busy` naming the holder.
 *
 * ```ts
 * import { WindowLocks } from "./locks/mod.ts";
 *
 * const locks = new WindowLocks({ timeoutMs: 10_000, walkReuseMs: 250 });
 * const { value: tree, reused } = await locks.walk("0x3a", "read_ui", () => readTree(), signal);
 * await locks.input("0x3a", "act", () => press(button), signal);
 * await locks.input(null, "pixel_click", () => click(10, 20), signal); // screen-wide
 * ```
 *
 * @module
 */
export { type HeldLocks, WindowLocks, type WindowLocksOptions } from "./window_locks.ts";
export { WalkLocks, type WalkLocksOptions, type WalkResult } from "./walks.ts";
export { InputLocks, type InputLocksOptions } from "./inputs.ts";
export { PixelLock, type PixelLockOptions } from "./pixels.ts";
export { busyError, type LockKind } from "./busy.ts";
export type { Holder } from "./queue.ts";
