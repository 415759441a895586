/**
 * The C library's `alarm(2)`, for the driver's watchdog on Linux and macOS: the kernel
 * delivers SIGALRM when the timer runs out, and its default action ends the process. A
 * driver whose event loop stalled can then be ended without a thread of its own watching
 * it (a watchdog worker costs about 12 MB).
 *
 * @module
 */
import { openLibrary } from "./open.ts";

/** libc symbols. */
export const LIBC_SYMBOLS = {
  // unsigned int alarm(unsigned int seconds);
  alarm: { parameters: ["u32"], result: "u32" },
} as const;

let libc: Deno.DynamicLibrary<typeof LIBC_SYMBOLS>["symbols"] | undefined;

/**
 * Sets the process's alarm to `seconds` from now (0 cancels it), replacing any earlier one.
 * Throws `driver_unavailable` where there is no POSIX C library (Windows).
 */
export function setAlarm(seconds: number): void {
  libc ??= openLibrary(
    "ALLTERNIT_LIBC",
    Deno.build.os === "darwin" ? "/usr/lib/libSystem.B.dylib" : "libc.so.6",
    LIBC_SYMBOLS,
    "no_libc",
  );
  libc.alarm(Math.max(0, Math.ceil(seconds)));
}
