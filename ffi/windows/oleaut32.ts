/**
 * oleaut32.dll: the automation types UIA hands back (BSTR strings, VARIANTs, SAFEARRAYs).
 * `bstr.ts`, `variant.ts` and `safearray.ts` wrap these so each value is freed by the
 * code that received it.
 *
 * @module
 */

/** oleaut32 symbols. */
export const OLEAUT32_SYMBOLS = {
  // BSTR SysAllocString(const OLECHAR *psz);
  SysAllocString: { parameters: ["buffer"], result: "pointer" },
  // BSTR SysAllocStringLen(const OLECHAR *strIn, UINT ui);
  SysAllocStringLen: { parameters: ["buffer", "u32"], result: "pointer" },
  // void SysFreeString(BSTR bstrString);
  SysFreeString: { parameters: ["pointer"], result: "void" },
  // UINT SysStringLen(BSTR pbstr);
  SysStringLen: { parameters: ["pointer"], result: "u32" },
  // void VariantInit(VARIANTARG *pvarg);
  VariantInit: { parameters: ["buffer"], result: "void" },
  // HRESULT VariantClear(VARIANTARG *pvarg);
  VariantClear: { parameters: ["buffer"], result: "i32" },
  // HRESULT SafeArrayGetLBound(SAFEARRAY *psa, UINT nDim, LONG *plLbound);
  SafeArrayGetLBound: { parameters: ["pointer", "u32", "buffer"], result: "i32" },
  // HRESULT SafeArrayGetUBound(SAFEARRAY *psa, UINT nDim, LONG *plUbound);
  SafeArrayGetUBound: { parameters: ["pointer", "u32", "buffer"], result: "i32" },
  // HRESULT SafeArrayAccessData(SAFEARRAY *psa, void HUGEP **ppvData);
  SafeArrayAccessData: { parameters: ["pointer", "buffer"], result: "i32" },
  // HRESULT SafeArrayUnaccessData(SAFEARRAY *psa);
  SafeArrayUnaccessData: { parameters: ["pointer"], result: "i32" },
  // HRESULT SafeArrayDestroy(SAFEARRAY *psa);
  SafeArrayDestroy: { parameters: ["pointer"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Bound oleaut32 functions. */
export type OleAut32 = Deno.DynamicLibrary<typeof OLEAUT32_SYMBOLS>["symbols"];
