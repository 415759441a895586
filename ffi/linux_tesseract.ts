/**
 * libtesseract (Tesseract 5's C API, `capi.h`) through `Deno.dlopen`: the symbol table
 * and its loader. Debian's `tesseract-ocr` package pulls in `libtesseract5`.
 *
 * Kept beside the vision engine rather than in `ffi/` because nothing else loads it.
 *
 * @module
 */
import { libraryPresent, openLibrary } from "./open.ts";
import { isFile } from "../util/paths.ts";

/** libtesseract symbols. `TessBaseAPI *` and `char *` results are pointers. */
export const TESSERACT_SYMBOLS = {
  // const char *TessVersion(void);
  TessVersion: { parameters: [], result: "pointer" },
  // TessBaseAPI *TessBaseAPICreate(void);
  TessBaseAPICreate: { parameters: [], result: "pointer" },
  // void TessBaseAPIDelete(TessBaseAPI *handle);
  TessBaseAPIDelete: { parameters: ["pointer"], result: "void" },
  // int TessBaseAPIInit3(TessBaseAPI *handle, const char *datapath, const char *language);
  TessBaseAPIInit3: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // void TessBaseAPIEnd(TessBaseAPI *handle);
  TessBaseAPIEnd: { parameters: ["pointer"], result: "void" },
  // BOOL TessBaseAPISetVariable(TessBaseAPI *handle, const char *name, const char *value);
  TessBaseAPISetVariable: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // void TessBaseAPISetPageSegMode(TessBaseAPI *handle, TessPageSegMode mode);
  TessBaseAPISetPageSegMode: { parameters: ["pointer", "i32"], result: "void" },
  // void TessBaseAPISetImage(TessBaseAPI *handle, const unsigned char *imagedata, int width,
  //                          int height, int bytes_per_pixel, int bytes_per_line);
  TessBaseAPISetImage: {
    parameters: ["pointer", "buffer", "i32", "i32", "i32", "i32"],
    result: "void",
  },
  // void TessBaseAPISetSourceResolution(TessBaseAPI *handle, int ppi);
  TessBaseAPISetSourceResolution: { parameters: ["pointer", "i32"], result: "void" },
  // void TessBaseAPISetRectangle(TessBaseAPI *handle, int left, int top, int width, int height);
  TessBaseAPISetRectangle: {
    parameters: ["pointer", "i32", "i32", "i32", "i32"],
    result: "void",
  },
  // int TessBaseAPIRecognize(TessBaseAPI *handle, ETEXT_DESC *monitor);
  // Off the JS thread: one line takes a millisecond or two, a window tens to hundreds.
  TessBaseAPIRecognize: { parameters: ["pointer", "pointer"], result: "i32", nonblocking: true },
  // char *TessBaseAPIGetTsvText(TessBaseAPI *handle, int page_number);
  TessBaseAPIGetTsvText: { parameters: ["pointer", "i32"], result: "pointer" },
  // void TessBaseAPIClear(TessBaseAPI *handle);
  TessBaseAPIClear: { parameters: ["pointer"], result: "void" },
  // void TessDeleteText(const char *text);
  TessDeleteText: { parameters: ["pointer"], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Bound libtesseract functions. */
export type Tesseract = Deno.DynamicLibrary<typeof TESSERACT_SYMBOLS>["symbols"];

/** `TessPageSegMode` values used here. */
export const PSM = {
  /** One text line. */
  SINGLE_LINE: 7,
} as const;

let lib: Tesseract | undefined;

/**
 * Loads libtesseract once: `ALLTERNIT_LIBTESSERACT`, then `libtesseract.so.5`; else
 * `driver_unavailable` with reason `no_tesseract`.
 *
 * OpenMP threads are capped at one first (unless the caller set `OMP_THREAD_LIMIT`):
 * libgomp reads the limit when it loads, and on small images its spinning worker threads
 * made each recognition about three times slower on the 2-core test machine.
 */
export function loadTesseract(): Tesseract {
  if (lib) return lib;
  if (Deno.env.get("OMP_THREAD_LIMIT") === undefined) Deno.env.set("OMP_THREAD_LIMIT", "1");
  lib = openLibrary(
    "ALLTERNIT_LIBTESSERACT",
    "libtesseract.so.5",
    TESSERACT_SYMBOLS,
    "no_tesseract",
    "apt-get install tesseract-ocr, or set ALLTERNIT_LIBTESSERACT",
  );
  return lib;
}

/**
 * Why Tesseract could not be used, judged from its files without loading it (`no_tesseract`
 * for the library, `no_tesseract_data` for the `language` model), or undefined when both
 * are there. Loading it costs the process about 33 MB, so availability asks this instead.
 */
export function tesseractMissing(language = "eng"): string | undefined {
  if (!libraryPresent("ALLTERNIT_LIBTESSERACT", "libtesseract.so.5")) return "no_tesseract";
  const prefix = Deno.env.get("TESSDATA_PREFIX");
  const dirs = prefix
    ? [prefix, `${prefix}/tessdata`]
    : ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata"];
  return dirs.some((d) => isFile(`${d}/${language}.traineddata`)) ? undefined : "no_tesseract_data";
}

/** Reads a NUL-terminated string Tesseract allocated, then frees it with `TessDeleteText`. */
export function takeText(tess: Tesseract, ptr: Deno.PointerValue): string {
  if (ptr === null) return "";
  try {
    return new Deno.UnsafePointerView(ptr).getCString();
  } finally {
    tess.TessDeleteText(ptr);
  }
}
