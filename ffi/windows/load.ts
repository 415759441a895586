/**
 * Loads the Windows system libraries the UIA engine needs, once per thread (the engine's
 * main thread and its COM worker each load their own). Off Windows it refuses with
 * `driver_unavailable` / `wrong_os` before touching `Deno.dlopen`.
 *
 * These are system DLLs and are opened by bare name, which Windows resolves from
 * System32 (they are "known DLLs"); unlike the X11 loader there is no path override,
 * because pointing the driver at another `user32.dll` is a way to hijack it, not a fix.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import { type Dwmapi, DWMAPI_SYMBOLS } from "./dwmapi.ts";
import { type Gdi32, GDI32_SYMBOLS } from "./gdi32.ts";
import { type Kernel32, KERNEL32_SYMBOLS } from "./kernel32.ts";
import { type Ole32, OLE32_SYMBOLS } from "./ole32.ts";
import { type OleAut32, OLEAUT32_SYMBOLS } from "./oleaut32.ts";
import { type User32, USER32_SYMBOLS } from "./user32.ts";

/** Every library the UIA engine binds. */
export interface WindowsLibraries {
  /** COM start-up and creation. */
  ole32: Ole32;
  /** BSTR, VARIANT, SAFEARRAY. */
  oleaut32: OleAut32;
  /** Windows, input, metrics. */
  user32: User32;
  /** Pixels. */
  gdi32: Gdi32;
  /** Process image names. */
  kernel32: Kernel32;
  /** Cloaked windows; `undefined` where DWM is absent (Server Core). */
  dwmapi: Dwmapi | undefined;
}

let loaded: WindowsLibraries | undefined;

/** Throws `driver_unavailable` with reason `wrong_os` unless `os` is Windows. */
export function assertWindows(os: typeof Deno.build.os = Deno.build.os): void {
  if (os === "windows") return;
  throw new DriverError(
    "driver_unavailable",
    `The UIA engine runs only on Windows: this is "${os}"`,
    { reason: "wrong_os" },
  );
}

/** Loads (once) and returns every library; throws `driver_unavailable` when one is missing. */
export function loadWindows(os: typeof Deno.build.os = Deno.build.os): WindowsLibraries {
  assertWindows(os);
  loaded ??= {
    ole32: open("ole32.dll", OLE32_SYMBOLS),
    oleaut32: open("oleaut32.dll", OLEAUT32_SYMBOLS),
    user32: open("user32.dll", USER32_SYMBOLS),
    gdi32: open("gdi32.dll", GDI32_SYMBOLS),
    kernel32: open("kernel32.dll", KERNEL32_SYMBOLS),
    dwmapi: openOptional("dwmapi.dll", DWMAPI_SYMBOLS),
  };
  return loaded;
}

function open<S extends Deno.ForeignLibraryInterface>(
  name: string,
  symbols: S,
): Deno.DynamicLibrary<S>["symbols"] {
  try {
    return Deno.dlopen(name, symbols).symbols;
  } catch (err) {
    // A missing --allow-ffi is the caller's configuration, not a missing library.
    if (err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotCapable) {
      throw err;
    }
    throw new DriverError(
      "driver_unavailable",
      `Cannot load "${name}": ${err instanceof Error ? err.message : String(err)}`,
      { reason: `no_${name.replace(/\.dll$/, "")}` },
      { cause: err },
    );
  }
}

function openOptional<S extends Deno.ForeignLibraryInterface>(
  name: string,
  symbols: S,
): Deno.DynamicLibrary<S>["symbols"] | undefined {
  try {
    return open(name, symbols);
  } catch (err) {
    if (err instanceof DriverError) return undefined;
    throw err;
  }
}
