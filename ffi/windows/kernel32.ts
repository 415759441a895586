/**
 * kernel32.dll: a process's executable, which names the app the way callers type it
 * (`notepad`, `CalculatorApp`).
 *
 * @module
 */

/** `PROCESS_QUERY_LIMITED_INFORMATION`: enough for the image name, granted across users. */
export const PROCESS_QUERY_LIMITED_INFORMATION = 0x1000;

/** kernel32 symbols. */
export const KERNEL32_SYMBOLS = {
  // HANDLE OpenProcess(DWORD dwDesiredAccess, BOOL bInheritHandle, DWORD dwProcessId);
  OpenProcess: { parameters: ["u32", "i32", "u32"], result: "pointer" },
  // BOOL QueryFullProcessImageNameW(HANDLE hProcess, DWORD dwFlags, LPWSTR lpExeName,
  //                                 PDWORD lpdwSize);
  QueryFullProcessImageNameW: {
    parameters: ["pointer", "u32", "buffer", "buffer"],
    result: "i32",
  },
  // BOOL CloseHandle(HANDLE hObject);
  CloseHandle: { parameters: ["pointer"], result: "i32" },
  // DWORD GetCurrentThreadId(void);
  GetCurrentThreadId: { parameters: [], result: "u32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Bound kernel32 functions. */
export type Kernel32 = Deno.DynamicLibrary<typeof KERNEL32_SYMBOLS>["symbols"];
