/**
 * Everything UIA inside the COM worker: the apartment, the `CUIAutomation8` object, the
 * cache requests, the handle table and the event subscription. One instance per worker;
 * every method runs on the worker's thread.
 *
 * @module
 */
import { ComPtr, outPointer } from "../../ffi/windows/com.ts";
import { DriverError, isDriverError } from "../../protocol/errors.ts";
import { log } from "../../util/log.ts";
import type { EngineEvent, NodeRequest, RawNode } from "../../model/engine.ts";
import { type ActReply, performAction } from "./actions.ts";
import { buildCacheRequests, type CacheRequests, releaseCacheRequests } from "./cache.ts";
import type { OleLib } from "./element_props.ts";
import { UiaEvents } from "./events.ts";
import { HandleTable, WindowHandles } from "./handles.ts";
import { IUIAutomation as U } from "./interfaces.ts";
import { controlViewChildCount, focusedHandle } from "./probe.ts";
import { type ApartmentLib, createAutomation } from "./apartment.ts";
import { readPatch } from "./patch.ts";
import { UiaTimeouts } from "./timeouts.ts";
import { UiaCompat } from "./compat.ts";
import {
  elementOfWindow,
  liveChildren,
  liveFacts,
  liveProperty,
  type LiveSetup,
  nativeWindow,
  readLiveTree,
} from "./live_read.ts";
import { win32Action } from "./live_actions.ts";
import type { Win32Lib } from "./win32_controls.ts";
import { PROP } from "./ids.ts";
import { handleOfRuntimeId, rawNodeOf } from "./element_props.ts";
import { readCachedTree, type TreeRead } from "./tree_read.ts";
import { walkBounded } from "./tree_walk.ts";
import type { WorkerCalls } from "./worker_protocol.ts";

/** The native functions the session needs. */
export interface SessionLibs {
  /** ole32. */
  ole32: ApartmentLib;
  /** oleaut32. */
  ole: OleLib;
  /** user32 and kernel32, for Win32 controls where UIA gives no more (Wine). */
  user32: Win32Lib;
}

/** The compat key under which a window read falls back to live properties. */
const CACHED_READS = "cached reads (ElementFromHandleBuildCache, GetCachedPropertyValue)";

type Params<K extends keyof WorkerCalls> = WorkerCalls[K]["params"];

/** How long a window whose subtree read timed out is read with the bounded walk. */
const BIG_WINDOW_MS = 60_000;

function hwndPointer(hex: string): Deno.PointerValue {
  return Deno.UnsafePointer.create(BigInt(`0x${hex}`));
}

/** A read that failed because the window is gone says so. */
function windowGone(err: unknown, window: string): unknown {
  if (isDriverError(err, "element_not_found")) {
    return new DriverError("window_not_found", `Window "${window}" is gone`, { version: 0 }, {
      cause: err,
    });
  }
  return err;
}

/** UIA inside the worker. */
export class UiaSession {
  readonly #libs: SessionLibs;
  readonly #automation: ComPtr;
  readonly #requests: CacheRequests;
  readonly #walker: ComPtr | undefined;
  readonly #compat = new UiaCompat();
  readonly #handles = new HandleTable();
  readonly #timeouts: UiaTimeouts;
  /**
   * Windows whose one-call subtree read timed out, and until when they are read with the
   * bounded walk instead (a hung app looks the same as a huge window, so it is retried).
   */
  readonly #big = new Map<string, number>();
  #events: UiaEvents | undefined;
  #calls = 0;
  #closed = false;

  private constructor(libs: SessionLibs, automation: ComPtr) {
    this.#libs = libs;
    this.#automation = automation;
    this.#timeouts = new UiaTimeouts(automation, this.#compat);
    this.#requests = buildCacheRequests(automation, this.#compat);
    try {
      this.#walker = this.#compat.run(
        "IUIAutomation::get_ControlViewWalker",
        "a tree walker made with CreateTreeWalker on the control view condition",
        () => {
          const out = outPointer();
          automation.call(U.get_ControlViewWalker, out);
          return ComPtr.expectOut(out, "IUIAutomationTreeWalker", "get_ControlViewWalker");
        },
        () => this.#treeWalker(),
      );
    } catch (err) {
      releaseCacheRequests(this.#requests);
      throw err;
    }
  }

  /** Joins the MTA and creates the automation object. */
  static open(libs: SessionLibs): UiaSession {
    const automation = createAutomation(libs.ole32);
    try {
      return new UiaSession(libs, automation);
    } catch (err) {
      automation.release();
      libs.ole32.CoUninitialize();
      throw err;
    }
  }

  // The control view condition's own walker, or none where that is a stub too.
  #treeWalker(): ComPtr | undefined {
    const out = outPointer();
    this.#automation.call(U.get_ControlViewCondition, out);
    using cond = ComPtr.expectOut(out, "IUIAutomationCondition", "get_ControlViewCondition");
    return this.#compat.run(
      "IUIAutomation::CreateTreeWalker",
      "children from child windows only",
      () => {
        this.#automation.call(U.CreateTreeWalker, cond.ptr, out);
        return ComPtr.expectOut(out, "IUIAutomationTreeWalker", "CreateTreeWalker");
      },
      () => undefined,
    );
  }

  /** The fallbacks this automation object needed (empty on Windows). */
  get fallbacks(): string[] {
    return this.#compat.list();
  }

  /** Windows are read with live properties: UIA here cannot cache. */
  get #live(): boolean {
    return this.#requests.subtree === undefined || this.#compat.has(CACHED_READS);
  }

  #liveSetup(timeoutMs: number): LiveSetup {
    return {
      ole: this.#libs.ole,
      user32: this.#libs.user32,
      automation: this.#automation,
      walker: this.#walker,
      timeoutMs,
      countCall: this.#count,
      compat: this.#compat,
    };
  }

  /** Cross-process calls so far (approximate: one per UIA method that reaches an app). */
  get calls(): number {
    return this.#calls;
  }

  #count = () => {
    this.#calls++;
  };

  #fromHandle(hwnd: string, request: ComPtr): ComPtr {
    const out = outPointer();
    this.#count();
    this.#automation.call(U.ElementFromHandleBuildCache, hwndPointer(hwnd), request.ptr, out);
    return ComPtr.expectOut(out, "IUIAutomationElement", "ElementFromHandleBuildCache");
  }

  /** Reads a window: one cached-subtree call, or the bounded walk for windows too big. */
  async read(p: Params<"read">): Promise<TreeRead> {
    const deadline = performance.now() + p.budgetMs;
    const table = new WindowHandles();
    let tree: TreeRead | undefined;
    try {
      tree = this.#timeouts.run(p.timeoutMs, () => {
        if (this.#live) return undefined;
        if ((this.#big.get(p.window) ?? 0) > performance.now()) return undefined;
        try {
          const subtree = this.#requests.subtree!;
          return this.#compat.run(
            CACHED_READS,
            "windows read element by element with live properties",
            () =>
              readCachedTree(
                this.#libs.ole,
                this.#fromHandle(p.hwnd, subtree),
                p.maxElements,
                table,
              ),
            () => (table.release(), undefined),
          );
        } catch (err) {
          if (!isDriverError(err, "timeout")) throw err;
          // Too much for one call: walk it within the budget, and for a while after.
          this.#big.set(p.window, performance.now() + BIG_WINDOW_MS);
          table.release();
          return undefined;
        }
      });
      if (!tree && this.#live) {
        const setup = this.#liveSetup(p.timeoutMs);
        tree = readLiveTree(
          setup,
          elementOfWindow(setup, BigInt(`0x${p.hwnd}`)),
          p.maxElements,
          deadline,
          table,
        );
      }
      tree ??= this.#timeouts.run(p.timeoutMs, () =>
        walkBounded(
          {
            ole: this.#libs.ole,
            walker: this.#walker!,
            request: this.#requests.element,
            countCall: this.#count,
          },
          this.#fromHandle(p.hwnd, this.#requests.element),
          p.maxElements,
          deadline,
          table,
        ));
    } catch (err) {
      table.release();
      throw windowGone(err, p.window);
    }
    for (const w of this.#handles.replace(p.window, table)) await this.#events?.unwatch(w);
    const root = table.get(tree.root.handle);
    try {
      if (this.#events && root) await this.#events.watch(p.window, root);
    } catch (err) {
      // The read stands; the window is then kept fresh by the live map's probe only.
      log("warn", "cannot watch the window's UIA events", {
        window: p.window,
        error: String(err),
      });
    }
    return tree;
  }

  /** Re-reads the named nodes of a window read before. */
  readNodes(p: Params<"readNodes">): [string, RawNode | null][] {
    const table = this.#handles.window(p.window);
    return p.requests.map((r: NodeRequest): [string, RawNode | null] => {
      const el = table?.get(r.handle);
      if (!table || !el) return [r.handle, null];
      if (this.#live) return [r.handle, this.#livePatch(table, r, el, p.maxElements, p.timeoutMs)];
      return [
        r.handle,
        this.#timeouts.run(p.timeoutMs, () =>
          readPatch(
            { ole: this.#libs.ole, requests: this.#requests, countCall: this.#count },
            table,
            r,
            el,
            p.maxElements,
          )),
      ];
    });
  }

  // A patch from live properties: the node, or its subtree read again.
  #livePatch(
    table: WindowHandles,
    r: NodeRequest,
    el: ComPtr,
    max: number,
    timeoutMs: number,
  ): RawNode | null {
    const setup = this.#liveSetup(timeoutMs);
    try {
      if (r.scope !== "subtree") return rawNodeOf(liveFacts(setup, el).facts, r.handle);
      table.dropDescendants(r.handle);
      return readLiveTree(setup, el.addRef(), max, performance.now() + timeoutMs, table, r.handle)
        .root;
    } catch (err) {
      if (isDriverError(err, "element_not_found")) return null;
      throw err;
    }
  }

  /** Control-view children of the window element (the staleness probe). */
  childCount(p: Params<"childCount">): number {
    if (this.#live) {
      const setup = this.#liveSetup(p.timeoutMs);
      using el = elementOfWindow(setup, BigInt(`0x${p.hwnd}`));
      const kids = liveChildren(setup, el, nativeWindow(setup, el), 10_000);
      for (const k of kids) k.release();
      return kids.length;
    }
    return this.#timeouts.run(p.timeoutMs, () => {
      const table = this.#handles.window(p.window);
      const known = table?.root && table.get(table.root);
      using el = known ? known.addRef() : this.#fromHandle(p.hwnd, this.#requests.bounds);
      this.#count();
      return controlViewChildCount(this.#automation, el);
    });
  }

  /** Handle of the element with keyboard focus, anywhere. */
  focused(p: Params<"focused">): string | null {
    if (this.#live) {
      const out = outPointer();
      this.#count();
      this.#automation.call(U.GetFocusedElement, out);
      using el = ComPtr.fromOut(out, "IUIAutomationElement");
      const ids = el && liveProperty(this.#liveSetup(p.timeoutMs), el, PROP.RuntimeId);
      return Array.isArray(ids) ? handleOfRuntimeId(ids.map(Number)) : null;
    }
    return this.#timeouts.run(p.timeoutMs, () => {
      this.#count();
      return focusedHandle(this.#libs.ole, this.#automation, this.#requests.events);
    });
  }

  /** Performs an element action on a node of a window read before. */
  act(p: Params<"act">): ActReply {
    const el = this.#handles.window(p.window)?.get(p.handle);
    if (!el) {
      throw new DriverError(
        "element_not_found",
        `Element "${p.target.name || p.target.role}" is no longer held: read the window again`,
        { handle: p.handle },
      );
    }
    this.#count();
    if (this.#live) {
      const done = win32Action(this.#liveSetup(p.timeoutMs), el, p.action, p.value);
      if (done) return done;
    }
    return this.#timeouts.run(
      p.timeoutMs,
      () => performAction(this.#libs.ole, el, p.target, p.action, p.value),
    );
  }

  /** Starts events: focus and new windows now, each window's subtree as it is read. */
  async subscribe(emit: (e: EngineEvent) => void): Promise<void> {
    if (this.#events) return;
    const events = new UiaEvents(
      {
        ole: this.#libs.ole,
        automation: this.#automation,
        requests: this.#requests,
        compat: this.#compat,
      },
      emit,
    );
    this.#events = events;
    this.#count();
    await events.start();
  }

  /** Stops events. */
  async unsubscribe(): Promise<void> {
    const events = this.#events;
    this.#events = undefined;
    await events?.stop();
  }

  /** Releases everything and leaves the apartment; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.unsubscribe();
    } finally {
      this.#handles.clear();
      releaseCacheRequests(this.#requests);
      this.#walker?.release();
      this.#automation.release();
      this.#libs.ole32.CoUninitialize();
    }
  }
}
