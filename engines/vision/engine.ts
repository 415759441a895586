/**
 * The vision engine: windows read from their pixels, for apps with no accessibility tree
 * (plain X apps, canvases, games). A read captures the window, proposes boxes and text
 * lines (analyse.ts), reads the lines with Tesseract, and answers a {@link RawNode} tree
 * the element map gives ids like any other. Reads are cached by the capture's hash, so
 * unchanged pixels cost a capture and a hash, no OCR. Actions are pixel input at the
 * element's centre. There are no notifications: {@link VisionEngine.subscribe} delivers
 * nothing, and a caller learns of changes by reading again. A read sees only the visible
 * part of a window: what other windows cover is left out, and the read says `covered`
 * (covered.ts). Input goes to an element only while its window is on top there
 * (platform/x11/uncover.ts): the window is raised first, or the input refused `obscured`.
 *
 * @module
 */
import type { ActionName, Bounds } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import { log } from "../../util/log.ts";
import {
  type ActOutcome,
  type AppInfo,
  type Availability,
  type Capture,
  type Engine,
  type EngineEvent,
  type EngineStats,
  type InputGate,
  isKeys,
  type NodeRequest,
  type PixelInput,
  type RawNode,
  type ReadBudget,
  ungated,
  type WindowRequest,
  type WindowTree,
} from "../../model/engine.ts";
import { type ActOptions, refuseOptions } from "../../model/engine.ts";
import {
  captureScreen,
  captureWindow,
  clientsOf,
  coverFacts,
  coversOf,
  focusTarget,
  operateWindow,
  rootChildren,
  sendInput,
  uncover,
  windowBounds,
  type WindowFacts,
  X11Display,
} from "../../platform/x11/mod.ts";
import type { Covering } from "../../protocol/results.ts";
import { dropCovered, maskCovered, toPixels } from "./covered.ts";
import { pixelPlan } from "./act.ts";
import { analyse, type Analysis } from "./analyse.ts";
import { captureKey, LruCache } from "./cache.ts";
import { type LineReader, TesseractReader } from "./ocr.ts";
import { tesseractMissing } from "../../ffi/linux_tesseract.ts";
import { trimMalloc } from "../../ffi/posix_libc.ts";
import { VISION_OPS } from "./ops.ts";
import { nodesFrom, toTree } from "./tree.ts";
import { findWindow, listWindows, parseWindowId, type WindowHint, windowId } from "./windows.ts";

/** A line reader the engine owns and closes. */
export type OwnedReader = LineReader & { close?(): void | Promise<void> };

/** Engine settings. */
export interface VisionOptions {
  /** Environment lookup (`DISPLAY`). */
  env?: (k: string) => string | undefined;
  /** Makes the OCR (default: Tesseract through libtesseract, English). */
  reader?: () => OwnedReader;
  /** Analyses kept by capture hash (default 32; 0: every read runs OCR). */
  cacheSize?: number;
  /** The OCR is closed this long after its last read, and made again by the next (ms). */
  ocrIdleMs?: number;
}

/**
 * How long the OCR stays loaded after its last read (ms). Tesseract costs the driver about
 * 33 MB, and the trees that need it are few: an agent that read one X app by its pixels
 * keeps the model for a minute, not for the driver's life. Closed and trimmed, it gives
 * back about 14 MB (its libraries stay mapped: dlclose does not unmap them); loading it
 * again costs 100-300 ms.
 */
export const OCR_IDLE_MS = 60_000;

/** One vision read: the tree, each node's crop, and the pixels it came from. */
export interface VisionRead extends WindowTree {
  /** Crop of each node, by handle (see model/crop.ts). */
  crops: Map<string, string>;
  /** The capture the tree was read from. */
  capture: Capture;
  /** Hash of the capture's pixels. */
  key: string;
  /** Answered from the cache: the pixels were seen before, no OCR ran. */
  cached: boolean;
}

/** Pixels + Tesseract. */
export class VisionEngine implements Engine {
  readonly name = "vision";
  readonly ops: readonly string[] = VISION_OPS;
  /** Pixels announce nothing: the live map reads vision windows again after a short reuse. */
  readonly notifies = false;
  readonly #env: (k: string) => string | undefined;
  readonly #makeReader: () => OwnedReader;
  /** Why the reader could not be made, judged without making it (undefined: it can). */
  readonly #readerMissing: () => string | undefined;
  readonly #cache: LruCache<Analysis>;
  readonly #pending = new Map<string, Promise<Analysis>>();
  readonly #facts = new Map<string, { title: string; focused: boolean }>();
  readonly #last = new Map<string, { capture: Capture; bounds: Bounds }>();
  #display: X11Display | undefined;
  #reader: OwnedReader | undefined;
  readonly #ocrIdleMs: number;
  #unloadTimer: ReturnType<typeof setTimeout> | undefined;
  /** Readers made so far: each load of the OCR. */
  #loads = 0;
  #walks = 0;
  #lines = 0;
  #closed = false;

  /** Nothing is opened until the first call. */
  constructor(options: VisionOptions = {}) {
    this.#env = options.env ?? ((k) => Deno.env.get(k));
    this.#makeReader = options.reader ?? (() => TesseractReader.open());
    // Tesseract costs the driver about 33 MB once loaded: availability looks for its
    // files, and the first read loads it.
    this.#readerMissing = options.reader ? () => undefined : () => tesseractMissing();
    this.#cache = new LruCache(options.cacheSize ?? 32);
    this.#ocrIdleMs = options.ocrIdleMs ?? OCR_IDLE_MS;
  }

  availability(): Promise<Availability> {
    try {
      this.#x11();
      const missing = this.#reader ? undefined : this.#readerMissing();
      if (missing) return Promise.resolve({ available: false, reason: missing });
      return Promise.resolve({ available: true });
    } catch (err) {
      const reason = err instanceof DriverError
        ? String(err.data.reason ?? err.message)
        : String(err);
      return Promise.resolve({ available: false, reason });
    }
  }

  #x11(): X11Display {
    if (this.#closed) {
      throw new DriverError("driver_unavailable", "The vision engine is closed", {
        reason: "closed",
      });
    }
    this.#display ??= X11Display.open(this.#env("DISPLAY"));
    return this.#display;
  }

  /** The OCR, loaded for a read of `window` if it is not. */
  #ocr(window: string): OwnedReader {
    if (!this.#reader) {
      // Told: the OCR is a third of the driver's memory, and which window needed it says why.
      log("info", "loading the OCR", { window, loads: this.#loads });
      this.#reader = this.#makeReader();
      this.#loads++;
    }
    this.#unloadLater();
    return this.#reader;
  }

  #unloadLater(): void {
    clearTimeout(this.#unloadTimer);
    const timer = setTimeout(() => this.#unload(), this.#ocrIdleMs);
    Deno.unrefTimer(timer);
    this.#unloadTimer = timer;
  }

  /** Closes an idle OCR; a read still under way puts it off. */
  #unload(): void {
    this.#unloadTimer = undefined;
    if (this.#pending.size > 0) return this.#unloadLater();
    const reader = this.#reader;
    if (!reader) return;
    log("debug", "closing the idle OCR", { idle_ms: this.#ocrIdleMs });
    // Taken away first: a read that starts while this one closes makes a reader of its own.
    this.#reader = undefined;
    // Freed memory stays with the C allocator until it is asked to give it back.
    Promise.resolve(reader.close?.()).then(trimMalloc).catch(() => {});
  }

  #xid(window: string): number {
    const xid = parseWindowId(window);
    if (xid === undefined) {
      throw new DriverError("window_not_found", `No window "${window}"`, { version: 0 });
    }
    return xid;
  }

  listApps(signal: AbortSignal): Promise<AppInfo[]> {
    signal.throwIfAborted();
    const { apps } = listWindows(this.#x11());
    for (const w of apps.flatMap((a) => a.windows)) {
      this.#facts.set(w.window, { title: w.title, focused: w.focused });
    }
    return Promise.resolve(apps);
  }

  screenWindows(signal: AbortSignal): Promise<string[]> {
    signal.throwIfAborted();
    return Promise.resolve(rootChildren(this.#x11()).map(String));
  }

  windowsSince(before: readonly string[], signal: AbortSignal): Promise<string[]> {
    signal.throwIfAborted();
    const display = this.#x11();
    const was = new Set(before);
    const added = rootChildren(display).filter((top) => !was.has(String(top)));
    return Promise.resolve(added.length ? clientsOf(display, added).map(windowId) : []);
  }

  /** The vision window for a window another engine listed; `undefined` when none matches. */
  windowFor(hint: WindowHint): string | undefined {
    return findWindow(listWindows(this.#x11()), hint);
  }

  /** Reads a window from its pixels, with crops and the capture behind them. */
  async read(window: string, budget: ReadBudget): Promise<VisionRead> {
    const started = performance.now();
    budget.signal.throwIfAborted();
    const display = this.#x11();
    const xid = this.#xid(window);
    const bounds = windowBounds(display, xid);
    // What lies on top shows in the capture: paint it out, so only the window is read.
    const covers = coversOf(display, xid);
    const raw = captureWindow(display, xid);
    const hidden = toPixels(covers.map((c) => c.part), raw);
    const capture = maskCovered(raw, hidden);
    const covered: Covering[] = covers.map((c) => ({ ...coverFacts(c.window), bounds: c.part }));
    const key = captureKey(capture);
    let analysis = this.#cache.get(key);
    const cached = analysis !== undefined;
    if (analysis === undefined) {
      analysis = await this.#analyse(key, capture, budget.signal, window);
    }
    // New pixels may come with a new title or focus; listing is cheap beside OCR.
    if (!cached || !this.#facts.has(window)) await this.listApps(budget.signal);
    const tree = toTree(
      dropCovered(analysis.proposals, hidden),
      capture,
      { window, title: "", focused: false, ...this.#facts.get(window) },
      budget.maxElements,
    );
    this.#last.set(window, { capture, bounds });
    return {
      ...tree,
      ms: performance.now() - started,
      capture,
      key,
      cached,
      ...(covered.length ? { covered } : {}),
    };
  }

  #analyse(key: string, capture: Capture, signal: AbortSignal, window: string): Promise<Analysis> {
    const pending = this.#pending.get(key);
    if (pending) return pending;
    this.#walks++;
    const run = analyse(capture, this.#ocr(window), signal).then((a) => {
      this.#lines += a.lines;
      this.#cache.set(key, a);
      return a;
    }).finally(() => this.#pending.delete(key));
    this.#pending.set(key, run);
    return run;
  }

  async readWindow(window: string, budget: ReadBudget): Promise<WindowTree> {
    const { root, nodes, ms, truncated, covered } = await this.read(window, budget);
    return { root, nodes, ms, truncated, ...(covered ? { covered } : {}) };
  }

  async readNodes(
    window: string,
    requests: readonly NodeRequest[],
    budget: ReadBudget,
  ): Promise<Map<string, RawNode | null>> {
    // A node can't be read alone from pixels: read the window (cached when unchanged).
    return nodesFrom((await this.read(window, budget)).root, requests);
  }

  async childCount(window: string, signal: AbortSignal): Promise<number> {
    const { root } = await this.read(window, { maxElements: Infinity, signal });
    return root.children.length;
  }

  /** Pixels show no keyboard focus: always `null`. */
  focusedHandle(_window: string, signal: AbortSignal): Promise<string | null> {
    signal.throwIfAborted();
    return Promise.resolve(null);
  }

  async act(
    window: string,
    node: RawNode,
    action: ActionName,
    value: string | undefined,
    signal: AbortSignal,
    gate: InputGate = ungated,
    options?: ActOptions,
  ): Promise<ActOutcome> {
    refuseOptions(this.name, node, options);
    const display = this.#x11();
    // Every vision action lands by screen position: the whole plan runs under the gate,
    // the window's place read inside it so nothing moves it in between.
    await gate(async () => {
      const xid = this.#xid(window);
      const now = windowBounds(display, xid);
      // The element was read at the window's old place; follow the window if it moved.
      const then = this.#last.get(window)?.bounds ?? now;
      const plan = pixelPlan(node, action, value, { dx: now.x - then.x, dy: now.y - then.y });
      for (const input of plan) {
        // Never into another window: a click only where this one is on top (raised if
        // need be), keys only once it holds the keyboard focus (focus.ts).
        const keys = isKeys(input);
        if (!keys) await uncover(display, input, { xid });
        await sendInput(display, input, signal, keys ? focusTarget(display, xid) : undefined);
      }
    });
    return { via: "pixel" };
  }

  async input(input: PixelInput, signal: AbortSignal, window?: string): Promise<void> {
    const display = this.#x11();
    const aimed = window !== undefined && isKeys(input);
    await sendInput(
      display,
      input,
      signal,
      aimed ? focusTarget(display, this.#xid(window)) : undefined,
    );
  }

  async windowOp(
    window: string,
    request: WindowRequest,
    signal: AbortSignal,
  ): Promise<{ state: WindowFacts; reached: boolean }> {
    signal.throwIfAborted();
    return await operateWindow(this.#x11(), this.#xid(window), request);
  }

  capture(window: string | undefined, signal: AbortSignal): Promise<Capture> {
    signal.throwIfAborted();
    const display = this.#x11();
    if (window === undefined) return Promise.resolve(captureScreen(display));
    return Promise.resolve(captureWindow(display, this.#xid(window)));
  }

  /** The capture behind the latest read of `window` (for `crops`, without capturing again). */
  lastCapture(window: string): Capture | undefined {
    return this.#last.get(window)?.capture;
  }

  /**
   * Vision has no notifications: nothing is ever delivered. A change shows only when the
   * window is read again (a new capture; unchanged pixels are answered from the cache).
   */
  subscribe(_listener: (event: EngineEvent) => void): Promise<() => Promise<void>> {
    log("debug", "vision engine has no notifications; windows are re-read to see changes");
    return Promise.resolve(() => Promise.resolve());
  }

  /** `walks`: OCR runs (reads that were not answered from the cache); `calls`: OCR lines. */
  stats(): EngineStats {
    return { calls: this.#lines, walks: this.#walks };
  }

  /** How many times the OCR was loaded, and whether it is loaded now. */
  ocrLoads(): { loads: number; loaded: boolean } {
    return { loads: this.#loads, loaded: this.#reader !== undefined };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#unloadTimer);
    await Promise.allSettled([...this.#pending.values()]);
    await this.#reader?.close?.();
    this.#display?.close();
  }
}
