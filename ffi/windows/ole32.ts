/**
 * ole32.dll: COM start-up and object creation. The UIA engine's worker enters the
 * process's multithreaded apartment with these and creates `CUIAutomation8`.
 *
 * Windows x64 and arm64 only: pointers are 8 bytes and every COM call uses the one
 * platform C convention (`__stdcall` is the default convention there).
 *
 * @module
 */

/** `COINIT_MULTITHREADED`: join the process's MTA (the design document's one MTA thread). */
export const COINIT_MULTITHREADED = 0x0;
/** `CLSCTX_INPROC_SERVER`: UIAutomationCore.dll loads into this process. */
export const CLSCTX_INPROC_SERVER = 0x1;

/** ole32 symbols. */
export const OLE32_SYMBOLS = {
  // HRESULT CoInitializeEx(LPVOID pvReserved, DWORD dwCoInit);
  CoInitializeEx: { parameters: ["pointer", "u32"], result: "i32" },
  // void CoUninitialize(void);
  CoUninitialize: { parameters: [], result: "void" },
  // HRESULT CoCreateInstance(REFCLSID rclsid, LPUNKNOWN pUnkOuter, DWORD dwClsContext,
  //                          REFIID riid, LPVOID *ppv);
  CoCreateInstance: {
    parameters: ["buffer", "pointer", "u32", "buffer", "buffer"],
    result: "i32",
  },
  // void CoTaskMemFree(LPVOID pv);
  CoTaskMemFree: { parameters: ["pointer"], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Bound ole32 functions. */
export type Ole32 = Deno.DynamicLibrary<typeof OLE32_SYMBOLS>["symbols"];
