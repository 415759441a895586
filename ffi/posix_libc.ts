/**
 * The C library's `alarm(2)`, for the driver's watchdog on Linux and macOS: the kernel
 * delivers SIGALRM when the timer runs out, and its default action ends the process. A
 * driver whose event loop stalled can then be ended without a thread of its own watching
 * it (a watchdog worker costs about 12 MB).
 *
 * And the allocator's way of giving freed memory back to the system: glibc keeps the free
 * chunks of every thread's arena resident until `malloc_trim` returns them, macOS's zones
 * until `malloc_zone_pressure_relief` does. Neither exists in every C library (musl has
 * neither), so both are optional symbols.
 *
 * @module
 */
import { openLibrary } from "./open.ts";

/** libc symbols. */
export const LIBC_SYMBOLS = {
  // unsigned int alarm(unsigned int seconds);
  alarm: { parameters: ["u32"], result: "u32" },
  // int malloc_trim(size_t pad); (glibc)
  malloc_trim: { parameters: ["usize"], result: "i32", optional: true },
  // size_t malloc_zone_pressure_relief(malloc_zone_t *zone, size_t goal); (macOS)
  malloc_zone_pressure_relief: {
    parameters: ["pointer", "usize"],
    result: "usize",
    optional: true,
  },
} as const;

let libc: Deno.DynamicLibrary<typeof LIBC_SYMBOLS>["symbols"] | undefined;

/**
 * Sets the process's alarm to `seconds` from now (0 cancels it), replacing any earlier one.
 * Throws `driver_unavailable` where there is no POSIX C library (Windows).
 */
export function setAlarm(seconds: number): void {
  open().alarm(Math.max(0, Math.ceil(seconds)));
}

/**
 * Gives the allocator's free memory back to the system (every glibc arena, every macOS
 * zone). Answers whether this C library can: false where it has no such call.
 */
export function trimMalloc(): boolean {
  const c = open();
  if (c.malloc_trim) {
    c.malloc_trim(0n);
    return true;
  }
  if (c.malloc_zone_pressure_relief) {
    // A null zone and a goal of 0: every zone, as much as it can.
    c.malloc_zone_pressure_relief(null, 0n);
    return true;
  }
  return false;
}

function open(): Deno.DynamicLibrary<typeof LIBC_SYMBOLS>["symbols"] {
  return libc ??= openLibrary(
    "ALLTERNIT_LIBC",
    Deno.build.os === "darwin" ? "/usr/lib/libSystem.B.dylib" : "libc.so.6",
    LIBC_SYMBOLS,
    "no_libc",
  );
}
