/**
 * dwmapi.dll: whether DWM hides ("cloaks") a window that `IsWindowVisible` still reports,
 * as it does for suspended UWP apps' frames and windows on other virtual desktops.
 *
 * @module
 */

/** `DWMWA_CLOAKED`. */
export const DWMWA_CLOAKED = 14;

/** dwmapi symbols. */
export const DWMAPI_SYMBOLS = {
  // HRESULT DwmGetWindowAttribute(HWND hwnd, DWORD dwAttribute, PVOID pvAttribute,
  //                               DWORD cbAttribute);
  DwmGetWindowAttribute: { parameters: ["pointer", "u32", "buffer", "u32"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Bound dwmapi functions. */
export type Dwmapi = Deno.DynamicLibrary<typeof DWMAPI_SYMBOLS>["symbols"];
