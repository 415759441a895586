/**
 * gdi32.dll: copying a window's or the screen's pixels into memory (`capture.ts` in the
 * UIA engine reads them back as 32-bit top-down BGRA through `GetDIBits`).
 *
 * @module
 */

/** `SRCCOPY | CAPTUREBLT`: copy pixels, including layered (translucent) windows. */
export const SRCCOPY_CAPTUREBLT = 0x00cc0020 | 0x40000000;
/** `DIB_RGB_COLORS`. */
export const DIB_RGB_COLORS = 0;
/** `BI_RGB`: uncompressed. */
export const BI_RGB = 0;

/** gdi32 symbols. */
export const GDI32_SYMBOLS = {
  // HDC CreateCompatibleDC(HDC hdc);
  CreateCompatibleDC: { parameters: ["pointer"], result: "pointer" },
  // HBITMAP CreateCompatibleBitmap(HDC hdc, int cx, int cy);
  CreateCompatibleBitmap: { parameters: ["pointer", "i32", "i32"], result: "pointer" },
  // HGDIOBJ SelectObject(HDC hdc, HGDIOBJ h);
  SelectObject: { parameters: ["pointer", "pointer"], result: "pointer" },
  // BOOL BitBlt(HDC hdc, int x, int y, int cx, int cy, HDC hdcSrc, int x1, int y1, DWORD rop);
  BitBlt: {
    parameters: ["pointer", "i32", "i32", "i32", "i32", "pointer", "i32", "i32", "u32"],
    result: "i32",
  },
  // int GetDIBits(HDC hdc, HBITMAP hbm, UINT start, UINT cLines, LPVOID lpvBits,
  //               LPBITMAPINFO lpbmi, UINT usage);
  GetDIBits: {
    parameters: ["pointer", "pointer", "u32", "u32", "buffer", "buffer", "u32"],
    result: "i32",
  },
  // BOOL DeleteObject(HGDIOBJ ho);
  DeleteObject: { parameters: ["pointer"], result: "i32" },
  // BOOL DeleteDC(HDC hdc);
  DeleteDC: { parameters: ["pointer"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Bound gdi32 functions. */
export type Gdi32 = Deno.DynamicLibrary<typeof GDI32_SYMBOLS>["symbols"];
