/**
 * Screen and window pixels through CoreGraphics: `CGWindowListCreateImage` (a single
 * window by its CGWindowID, even when covered, or an on-screen rectangle), else
 * `CGDisplayCreateImageForRect`, drawn into an RGBA bitmap we own. Both are deprecated
 * from macOS 14 in favour of ScreenCaptureKit (an asynchronous Objective-C API this engine
 * does not use yet), so both are optional symbols and a missing one is reported plainly.
 *
 * @module
 */
import type { Cf } from "../../ffi/macos/cf.ts";
import { CG, type CoreGraphics } from "../../ffi/macos/core_graphics.ts";
import { CG_RECT_NULL, decodeCGRect, encodeCGRect, type Rect } from "../../ffi/macos/marshal.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { Capture } from "../../model/engine.ts";

/** Captures pixels. */
export class CgCapture {
  readonly #cg: CoreGraphics;
  readonly #cf: Cf;

  /** Uses loaded CoreGraphics and CoreFoundation. */
  constructor(cg: CoreGraphics, cf: Cf) {
    this.#cg = cg;
    this.#cf = cf;
  }

  /** The main display's bounds in global points. */
  screenBounds(): Rect {
    return decodeCGRect(this.#cg.CGDisplayBounds(this.#cg.CGMainDisplayID()));
  }

  /**
   * Pixels of `area` (default: the main display), or of one window.
   *
   * @param area Global points; for a window, its frame (origin and scale come from it).
   * @param windowNumber The window's CGWindowID, to capture it even when covered.
   * @throws {DriverError} `driver_unavailable` with reason `screen_recording_not_granted`
   *   or `screen_capture_unavailable`.
   */
  capture(area: Rect = this.screenBounds(), windowNumber?: number): Capture {
    const cg = this.#cg;
    if (cg.CGPreflightScreenCaptureAccess && !cg.CGPreflightScreenCaptureAccess()) {
      // Without the permission macOS still returns images, of the wallpaper only.
      throw new DriverError(
        "driver_unavailable",
        "Screen recording is not granted to this process: allow it in System Settings > " +
          "Privacy & Security > Screen Recording",
        { reason: "screen_recording_not_granted" },
      );
    }
    const image = this.#image(area, windowNumber);
    if (image === null) {
      throw new DriverError(
        "internal",
        "Cannot capture the screen: CoreGraphics returned no image",
      );
    }
    try {
      const width = Number(cg.CGImageGetWidth(image));
      const height = Number(cg.CGImageGetHeight(image));
      const rgba = new Uint8Array(width * height * 4);
      const space = cg.CGColorSpaceCreateDeviceRGB();
      try {
        // Screen pixels are opaque, so premultiplied RGBA equals straight RGBA.
        const ctx = cg.CGBitmapContextCreate(
          rgba,
          BigInt(width),
          BigInt(height),
          8n,
          BigInt(width * 4),
          space,
          CG.rgbaPremultiplied,
        );
        if (ctx === null) throw new DriverError("internal", "Cannot create a bitmap context");
        try {
          cg.CGContextDrawImage(ctx, encodeCGRect({ x: 0, y: 0, w: width, h: height }), image);
        } finally {
          cg.CGContextRelease(ctx);
        }
      } finally {
        if (space !== null) cg.CGColorSpaceRelease(space);
      }
      return {
        width,
        height,
        scale: area.w > 0 ? width / area.w : 1,
        origin: { x: area.x, y: area.y },
        rgba,
      };
    } finally {
      this.#cf.release(image);
    }
  }

  #image(area: Rect, windowNumber: number | undefined): Deno.PointerValue {
    const cg = this.#cg;
    const listImage = cg.CGWindowListCreateImage;
    if (listImage && windowNumber !== undefined) {
      return listImage(
        encodeCGRect(CG_RECT_NULL),
        CG.optionIncludingWindow,
        windowNumber,
        CG.imageBoundsIgnoreFraming | CG.imageBestResolution,
      );
    }
    if (listImage) {
      return listImage(
        encodeCGRect(area),
        CG.optionOnScreenOnly,
        CG.nullWindowId,
        CG.imageBestResolution,
      );
    }
    if (cg.CGDisplayCreateImageForRect) {
      // Display-relative: the main display's origin is the global origin.
      return cg.CGDisplayCreateImageForRect(cg.CGMainDisplayID(), encodeCGRect(area));
    }
    throw new DriverError(
      "driver_unavailable",
      "Cannot capture the screen: this macOS exports neither CGWindowListCreateImage nor " +
        "CGDisplayCreateImageForRect",
      { reason: "screen_capture_unavailable" },
    );
  }
}
