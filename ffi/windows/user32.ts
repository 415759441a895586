/**
 * user32.dll: top-level windows, synthetic input and screen metrics. Window handles
 * (`HWND`) are pointers; the engine's window ids carry their numeric value.
 *
 * @module
 */

/** `WNDENUMPROC`: `BOOL CALLBACK EnumWindowsProc(HWND hwnd, LPARAM lParam);` */
export const WNDENUMPROC = { parameters: ["pointer", "isize"], result: "i32" } as const;

/** `GetSystemMetrics` indexes of the virtual screen (every monitor). */
export const SM = {
  XVIRTUALSCREEN: 76,
  YVIRTUALSCREEN: 77,
  CXVIRTUALSCREEN: 78,
  CYVIRTUALSCREEN: 79,
} as const;

/** `PrintWindow` flag: ask DWM for the window's content, including DirectComposition. */
export const PW_RENDERFULLCONTENT = 0x2;

/**
 * `DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2`, the handle value `(HANDLE)-4`: UIA
 * bounds, window rects, capture and `SendInput` then all speak physical pixels.
 */
export const DPI_PER_MONITOR_AWARE_V2 = 0xffff_ffff_ffff_fffcn;

/** user32 symbols. */
export const USER32_SYMBOLS = {
  // UINT SendInput(UINT cInputs, LPINPUT pInputs, int cbSize);
  SendInput: { parameters: ["u32", "buffer", "i32"], result: "u32" },
  // HWND GetForegroundWindow(void);
  GetForegroundWindow: { parameters: [], result: "pointer" },
  // BOOL SetForegroundWindow(HWND hWnd);
  SetForegroundWindow: { parameters: ["pointer"], result: "i32" },
  // BOOL GetWindowRect(HWND hWnd, LPRECT lpRect);
  GetWindowRect: { parameters: ["pointer", "buffer"], result: "i32" },
  // BOOL EnumWindows(WNDENUMPROC lpEnumFunc, LPARAM lParam);
  EnumWindows: { parameters: ["function", "isize"], result: "i32" },
  // BOOL EnumChildWindows(HWND hWndParent, WNDENUMPROC lpEnumFunc, LPARAM lParam);
  EnumChildWindows: { parameters: ["pointer", "function", "isize"], result: "i32" },
  // DWORD GetWindowThreadProcessId(HWND hWnd, LPDWORD lpdwProcessId);
  GetWindowThreadProcessId: { parameters: ["pointer", "buffer"], result: "u32" },
  // int GetWindowTextW(HWND hWnd, LPWSTR lpString, int nMaxCount);
  GetWindowTextW: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  // BOOL IsWindowVisible(HWND hWnd);
  IsWindowVisible: { parameters: ["pointer"], result: "i32" },
  // BOOL IsWindow(HWND hWnd);
  IsWindow: { parameters: ["pointer"], result: "i32" },
  // BOOL PrintWindow(HWND hwnd, HDC hdcBlt, UINT nFlags);
  PrintWindow: { parameters: ["pointer", "pointer", "u32"], result: "i32" },
  // HDC GetDC(HWND hWnd);
  GetDC: { parameters: ["pointer"], result: "pointer" },
  // int ReleaseDC(HWND hWnd, HDC hDC);
  ReleaseDC: { parameters: ["pointer", "pointer"], result: "i32" },
  // int GetSystemMetrics(int nIndex);
  GetSystemMetrics: { parameters: ["i32"], result: "i32" },
  // HWND FindWindowExW(HWND hWndParent, HWND hWndChildAfter, LPCWSTR lpszClass, LPCWSTR lpszWindow);
  FindWindowExW: { parameters: ["pointer", "pointer", "pointer", "pointer"], result: "pointer" },
  // int GetClassNameW(HWND hWnd, LPWSTR lpClassName, int nMaxCount);
  GetClassNameW: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  // LONG_PTR GetWindowLongPtrW(HWND hWnd, int nIndex);
  GetWindowLongPtrW: { parameters: ["pointer", "i32"], result: "isize" },
  // BOOL PostMessageW(HWND hWnd, UINT Msg, WPARAM wParam, LPARAM lParam);
  PostMessageW: { parameters: ["pointer", "u32", "usize", "isize"], result: "i32" },
  // LRESULT SendMessageTimeoutW(HWND, UINT Msg, WPARAM, LPARAM, UINT fuFlags, UINT uTimeout,
  //                             PDWORD_PTR lpdwResult);
  SendMessageTimeoutW: {
    parameters: ["pointer", "u32", "usize", "buffer", "u32", "u32", "buffer"],
    result: "isize",
  },
  // HWND GetAncestor(HWND hwnd, UINT gaFlags);
  GetAncestor: { parameters: ["pointer", "u32"], result: "pointer" },
  // BOOL AttachThreadInput(DWORD idAttach, DWORD idAttachTo, BOOL fAttach);
  AttachThreadInput: { parameters: ["u32", "u32", "i32"], result: "i32" },
  // HWND SetFocus(HWND hWnd);
  SetFocus: { parameters: ["pointer"], result: "pointer" },
  // SHORT VkKeyScanW(WCHAR ch);
  VkKeyScanW: { parameters: ["u16"], result: "i16" },
  // BOOL SetProcessDpiAwarenessContext(DPI_AWARENESS_CONTEXT value);  (Windows 10 1703+)
  SetProcessDpiAwarenessContext: { parameters: ["pointer"], result: "i32", optional: true },
} as const satisfies Deno.ForeignLibraryInterface;

/** Bound user32 functions. */
export type User32 = Deno.DynamicLibrary<typeof USER32_SYMBOLS>["symbols"];
