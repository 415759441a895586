/**
 * Text lines read by Tesseract through its C API: one engine instance, initialised once
 * (the English model loads in about 250 ms), then per read one `SetImage` and per line a
 * `SetRectangle` and a single-line `Recognize`, off the JS thread.
 *
 * Why the C API and not the `tesseract` command (bench/vision_bench.ts, xcalc: 58 lines,
 * 2 cores, under load from other work): a Recognize per line through the API took 89 to
 * 105 ms for the whole window and named 42 of its 55 keys right, every digit and operator
 * among them. The command reads one image per process and reloads the model each time, so
 * the same per-line reading took 4.0 to 4.2 s (a process per line); one process over the
 * whole window with Tesseract's own page layout took 148 to 202 ms and named 39 of 55
 * right, reading ÷ as a second "+" (sparse-text mode, `--psm 11`, named 26, no digits:
 * it drops lone glyphs as noise). The API also takes the pixels as they are (no PNG, no
 * temporary file). The cost is a native library in the driver's process: a Tesseract crash
 * would take the driver down, where a crashed command would only fail one read.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import type { GreyImage } from "./scale.ts";
import type { PixelRect } from "./segment.ts";
import { type OcrWord, parseTsv } from "./tsv.ts";
import { loadTesseract, PSM, takeText, type Tesseract } from "../../ffi/linux_tesseract.ts";

/** Reads the words of text lines; the vision analysis depends only on this. */
export interface LineReader {
  /**
   * The words of each line of `image`.
   *
   * @param image The (enlarged) grey image.
   * @param lines Rectangles in `image` pixels, one text line each.
   * @param scale How much `image` was enlarged; word boxes come back divided by it.
   * @returns One list of words per line, in the order given.
   */
  readLines(
    image: GreyImage,
    lines: readonly PixelRect[],
    scale: number,
    signal: AbortSignal,
  ): Promise<OcrWord[][]>;
}

/** Screen text is about 96 dpi; Tesseract uses this to size its expectations. */
const SCREEN_DPI = 96;

/** Tesseract through libtesseract. {@link close} releases it; idempotent. */
export class TesseractReader implements LineReader {
  readonly #tess: Tesseract;
  #api: Deno.PointerObject | null;
  #queue: Promise<unknown> = Promise.resolve();
  /** `Recognize` calls so far. */
  recognitions = 0;

  private constructor(tess: Tesseract, api: Deno.PointerObject) {
    this.#tess = tess;
    this.#api = api;
  }

  /**
   * Loads libtesseract and the `language` model. Throws `driver_unavailable` with reason
   * `no_tesseract` (library) or `no_tesseract_data` (model).
   */
  static open(language = "eng"): TesseractReader {
    const tess = loadTesseract();
    const api = tess.TessBaseAPICreate();
    if (api === null) {
      throw new DriverError("driver_unavailable", "Cannot start Tesseract: out of memory", {
        reason: "no_tesseract",
      });
    }
    const enc = new TextEncoder();
    if (tess.TessBaseAPIInit3(api, null, enc.encode(`${language}\0`)) !== 0) {
      tess.TessBaseAPIDelete(api);
      throw new DriverError(
        "driver_unavailable",
        `Cannot start Tesseract: no "${language}" model (apt-get install tesseract-ocr-${language})`,
        { reason: "no_tesseract_data", language },
      );
    }
    // Tesseract's own diagnostics would go to stderr, which carries the driver's log.
    tess.TessBaseAPISetVariable(api, enc.encode("debug_file\0"), enc.encode("/dev/null\0"));
    tess.TessBaseAPISetPageSegMode(api, PSM.SINGLE_LINE);
    return new TesseractReader(tess, api);
  }

  /** Tesseract's version string. */
  get version(): string {
    const ptr = this.#tess.TessVersion();
    return ptr === null ? "" : new Deno.UnsafePointerView(ptr).getCString();
  }

  readLines(
    image: GreyImage,
    lines: readonly PixelRect[],
    scale: number,
    signal: AbortSignal,
  ): Promise<OcrWord[][]> {
    // One image at a time: the API object holds the image and the rectangle.
    const run = this.#queue.then(() => this.#read(image, lines, scale, signal));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #read(
    image: GreyImage,
    lines: readonly PixelRect[],
    scale: number,
    signal: AbortSignal,
  ): Promise<OcrWord[][]> {
    const tess = this.#tess;
    const api = this.#handle();
    // SetImage copies the pixels, so `image` may be reused as soon as it returns.
    tess.TessBaseAPISetImage(api, image.data, image.width, image.height, 1, image.width);
    tess.TessBaseAPISetSourceResolution(api, SCREEN_DPI * scale);
    const out: OcrWord[][] = [];
    try {
      for (const r of lines) {
        signal.throwIfAborted();
        tess.TessBaseAPISetRectangle(api, r.x, r.y, r.w, r.h);
        this.recognitions++;
        const status = await tess.TessBaseAPIRecognize(api, null);
        if (status !== 0) {
          throw new DriverError("internal", `Cannot read text: Tesseract failed (${status})`, {
            reason: "ocr_failed",
          });
        }
        out.push(parseTsv(takeText(tess, tess.TessBaseAPIGetTsvText(api, 0)), scale));
      }
    } finally {
      tess.TessBaseAPIClear(api);
    }
    return out;
  }

  #handle(): Deno.PointerObject {
    if (this.#api === null) {
      throw new DriverError("driver_unavailable", "Tesseract is closed", { reason: "closed" });
    }
    return this.#api;
  }

  /** Frees the engine after any read in flight. Idempotent. */
  async close(): Promise<void> {
    await this.#queue;
    const api = this.#api;
    if (api === null) return;
    this.#api = null;
    this.#tess.TessBaseAPIEnd(api);
    this.#tess.TessBaseAPIDelete(api);
  }
}
