/**
 * Pixels through GDI: a window through `PrintWindow` (which asks DWM for its content, so
 * an overlapped window comes out whole) with a screen copy as the fallback, or any screen
 * rectangle through `BitBlt`; both read back with `GetDIBits` as top-down 32-bit rows
 * and converted to the engine's RGBA. Every GDI object is freed on every path.
 *
 * @module
 */
import { DIB_RGB_COLORS, SRCCOPY_CAPTUREBLT } from "../../ffi/windows/gdi32.ts";
import type { WindowsLibraries } from "../../ffi/windows/load.ts";
import {
  bgraToRgba,
  bitmapInfo,
  readRect,
  RECT_SIZE,
  rectBounds,
} from "../../ffi/windows/structs.ts";
import { PW_RENDERFULLCONTENT } from "../../ffi/windows/user32.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { Bounds } from "../../protocol/element.ts";
import type { Capture } from "../../model/engine.ts";
import { virtualDesktop } from "./input.ts";

/** Libraries capture uses. */
export type CaptureLibs = Pick<WindowsLibraries, "user32" | "gdi32">;

function failed(what: string): DriverError {
  return new DriverError("internal", `Cannot capture: ${what} failed`, { reason: "gdi" });
}

/**
 * Copies `rect` into a memory bitmap with `draw` (which gets the memory DC and the screen
 * DC) and reads it back as RGBA.
 */
function grab(
  libs: CaptureLibs,
  rect: Bounds,
  draw: (mem: Deno.PointerObject, screen: Deno.PointerObject) => boolean,
): Capture {
  const { user32, gdi32 } = libs;
  const w = Math.max(1, Math.round(rect.w));
  const h = Math.max(1, Math.round(rect.h));
  const screen = user32.GetDC(null);
  if (!screen) throw failed("GetDC");
  try {
    const mem = gdi32.CreateCompatibleDC(screen);
    if (!mem) throw failed("CreateCompatibleDC");
    try {
      const bitmap = gdi32.CreateCompatibleBitmap(screen, w, h);
      if (!bitmap) throw failed("CreateCompatibleBitmap");
      try {
        const old = gdi32.SelectObject(mem, bitmap);
        let drawn: boolean;
        try {
          drawn = draw(mem, screen);
        } finally {
          // GetDIBits needs the bitmap deselected.
          gdi32.SelectObject(mem, old);
        }
        if (!drawn) throw failed("copying the pixels");
        const rgba = new Uint8Array(w * h * 4);
        const rows = gdi32.GetDIBits(mem, bitmap, 0, h, rgba, bitmapInfo(w, h), DIB_RGB_COLORS);
        if (rows !== h) throw failed("GetDIBits");
        return {
          width: w,
          height: h,
          scale: 1,
          origin: { x: rect.x, y: rect.y },
          rgba: bgraToRgba(rgba),
        };
      } finally {
        gdi32.DeleteObject(bitmap);
      }
    } finally {
      gdi32.DeleteDC(mem);
    }
  } finally {
    user32.ReleaseDC(null, screen);
  }
}

/** A rectangle of the screen (the whole virtual desktop without one). */
export function captureScreen(libs: CaptureLibs, rect?: Bounds): Capture {
  const r = rect ?? virtualDesktop(libs.user32);
  return grab(
    libs,
    r,
    (mem, screen) =>
      libs.gdi32.BitBlt(
        mem,
        0,
        0,
        Math.round(r.w),
        Math.round(r.h),
        screen,
        r.x,
        r.y,
        SRCCOPY_CAPTUREBLT,
      ) !== 0,
  );
}

/** One window's pixels, as it would look unobstructed where DWM allows. */
export function captureWindow(libs: CaptureLibs, hwnd: bigint): Capture {
  const handle = Deno.UnsafePointer.create(hwnd);
  const rectBuf = new Uint8Array(RECT_SIZE);
  if (!libs.user32.GetWindowRect(handle, rectBuf)) {
    throw new DriverError("window_not_found", `Window "w${hwnd.toString(16)}" is gone`, {
      version: 0,
    });
  }
  const rect = rectBounds(readRect(rectBuf));
  const copyScreen = (mem: Deno.PointerValue, screen: Deno.PointerValue) =>
    libs.gdi32.BitBlt(mem, 0, 0, rect.w, rect.h, screen, rect.x, rect.y, SRCCOPY_CAPTUREBLT) !==
      0;
  const printed = grab(
    libs,
    rect,
    (mem, screen) =>
      libs.user32.PrintWindow(handle, mem, PW_RENDERFULLCONTENT) !== 0 ||
      // Some windows (old GL, protected content) refuse PrintWindow: copy the screen instead.
      copyScreen(mem, screen),
  );
  // Wine's PrintWindow answers success and draws nothing: an all-black picture is taken
  // from the screen instead. The scan stops at the first lit pixel, in the first row of
  // any real window, so Windows pays nothing for it.
  return allBlack(printed.rgba) ? grab(libs, rect, copyScreen) : printed;
}

/** Every pixel is black (alpha aside). */
export function allBlack(rgba: Uint8Array): boolean {
  for (let i = 0; i < rgba.length; i += 4) {
    if (rgba[i] !== 0 || rgba[i + 1] !== 0 || rgba[i + 2] !== 0) return false;
  }
  return true;
}
