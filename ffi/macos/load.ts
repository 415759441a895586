/**
 * Loads the macOS frameworks, once per isolate (the AXHub's worker loads its own). Off
 * macOS every loader refuses with `driver_unavailable` (reason `wrong_os`) before touching
 * `Deno.dlopen`, so the engine's modules can be imported and type-checked anywhere.
 *
 * The paths are fixed system locations (served from the dyld shared cache since macOS
 * 11), so unlike the X11 libraries there is no environment override.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import { type ApplicationServices, AX_PATH, AX_SYMBOLS } from "./application_services.ts";
import { CF_PATH, CF_SYMBOLS, type CoreFoundation } from "./core_foundation.ts";
import { CG_PATH, CG_SYMBOLS, type CoreGraphics } from "./core_graphics.ts";
import { APPKIT_PATH, OBJC_PATH, OBJC_SYMBOLS, type ObjcRuntime } from "./objc.ts";

/** Every framework the AX engine uses. */
export interface MacFrameworks {
  /** CoreFoundation. */
  cf: CoreFoundation;
  /** ApplicationServices (AX). */
  ax: ApplicationServices;
  /** CoreGraphics. */
  cg: CoreGraphics;
  /** Objective-C runtime (with AppKit loaded). */
  objc: ObjcRuntime;
}

/**
 * Throws unless `os` is macOS.
 *
 * @throws {DriverError} `driver_unavailable` with `reason: "wrong_os"`.
 */
export function requireMacos(os: typeof Deno.build.os = Deno.build.os): void {
  if (os === "darwin") return;
  throw new DriverError(
    "driver_unavailable",
    `The AX engine runs only on macOS: this is "${os}"`,
    { reason: "wrong_os" },
  );
}

function open<S extends Deno.ForeignLibraryInterface>(
  path: string,
  symbols: S,
): Deno.DynamicLibrary<S>["symbols"] {
  try {
    return Deno.dlopen(path, symbols).symbols;
  } catch (err) {
    if (err instanceof Deno.errors.PermissionDenied) throw err;
    throw new DriverError(
      "driver_unavailable",
      `Cannot load "${path}": ${err instanceof Error ? err.message : String(err)}`,
      { reason: "framework_missing" },
      { cause: err },
    );
  }
}

let cf: CoreFoundation | undefined;
let ax: ApplicationServices | undefined;
let cg: CoreGraphics | undefined;
let objc: ObjcRuntime | undefined;

/** CoreFoundation, loaded on first use. */
export function loadCoreFoundation(os: typeof Deno.build.os = Deno.build.os): CoreFoundation {
  requireMacos(os);
  return cf ??= open(CF_PATH, CF_SYMBOLS);
}

/** ApplicationServices (AX), loaded on first use. */
export function loadApplicationServices(
  os: typeof Deno.build.os = Deno.build.os,
): ApplicationServices {
  requireMacos(os);
  return ax ??= open(AX_PATH, AX_SYMBOLS);
}

/** CoreGraphics, loaded on first use. */
export function loadCoreGraphics(os: typeof Deno.build.os = Deno.build.os): CoreGraphics {
  requireMacos(os);
  return cg ??= open(CG_PATH, CG_SYMBOLS);
}

/** The Objective-C runtime, with AppKit loaded so its classes resolve. */
export function loadObjc(os: typeof Deno.build.os = Deno.build.os): ObjcRuntime {
  requireMacos(os);
  if (!objc) {
    // An empty table: AppKit is opened only for its class registrations.
    open(APPKIT_PATH, {});
    objc = open(OBJC_PATH, OBJC_SYMBOLS);
  }
  return objc;
}

/**
 * Every framework the engine needs.
 *
 * @throws {DriverError} `driver_unavailable`: `wrong_os` off macOS, `framework_missing`
 *   when a library or required symbol is absent.
 */
export function loadMacFrameworks(os: typeof Deno.build.os = Deno.build.os): MacFrameworks {
  return {
    cf: loadCoreFoundation(os),
    ax: loadApplicationServices(os),
    cg: loadCoreGraphics(os),
    objc: loadObjc(os),
  };
}
