/**
 * UIA event handlers: COM objects built in memory (a vtable of thread-safe
 * `UnsafeCallback`s implementing IUnknown and one handler interface) that turn structure,
 * property, focus and automation events into {@link EngineEvent}s. UIA calls them on its
 * own threads; each call is queued to the worker's event loop and answered there.
 *
 * A handler reads only what the `events` cache request cached on the sender (runtime id,
 * process id): no call back into the app, as the design document asks of the
 * notification path. Registration and removal run on Deno's blocking pool
 * (`callNonblocking`) because UIA may call our handlers while they run, and those calls
 * need this thread's event loop free.
 *
 * @module
 */
import { ComPtr, invoke } from "../../ffi/windows/com.ts";
import { impl, LocalComObject } from "../../ffi/windows/com_object.ts";
import { HR } from "../../ffi/windows/hresult.ts";
import type { EngineEvent } from "../../model/engine.ts";
import { log } from "../../util/log.ts";
import type { CacheRequests } from "./cache.ts";
import { cachedRuntimeId, handleOfRuntimeId, type OleLib } from "./element_props.ts";
import {
  automationEvent,
  FocusTracker,
  propertyEvent,
  structureEvent,
  WATCHED_PROPERTIES,
} from "./event_map.ts";
import { EVENT, PROP, TREE_SCOPE } from "./ids.ts";
import { isStub, type UiaCompat } from "./compat.ts";
import { receiveVariant } from "../../ffi/windows/variant.ts";
import { IID, IUIAutomation as U, IUIAutomationElement as E } from "./interfaces.ts";

/** Windows whose subtrees are watched at once; the least recently read one is dropped. */
const WATCH_LIMIT = 8;

/** What the handlers need. */
export interface EventSetup {
  /** oleaut32. */
  ole: OleLib;
  /** The IUIAutomation2 object. */
  automation: ComPtr;
  /** Cache requests (`events` is used). */
  requests: CacheRequests;
  /** Where registrations UIA answers with a stub result are noted (Wine). */
  compat?: UiaCompat;
}

// A sender whose cache is empty (Wine caches nothing): its process and runtime id, live.
function liveSender(ole: OleLib, sender: Deno.PointerObject): { pid: number; handle: string } {
  const get = (p: number) =>
    receiveVariant(ole, (v) => void invoke(sender, E.GetCurrentPropertyValueEx, p, 0, v));
  const ids = get(PROP.RuntimeId);
  return {
    pid: Number(get(PROP.ProcessId) ?? 0),
    handle: handleOfRuntimeId(Array.isArray(ids) ? ids.map(Number) : []),
  };
}

/**
 * An Int32Array over its own ArrayBuffer: V8 may keep small typed arrays inside its heap,
 * where GC can move them, and this one is read by a call running on another thread.
 */
function offHeap(values: number[]): Int32Array<ArrayBuffer> {
  const out = new Int32Array(new ArrayBuffer(values.length * 4));
  out.set(values);
  return out;
}

/** The sender's process id and handle, from its cache only. */
function senderOf(ole: OleLib, sender: Deno.PointerValue): { pid: number; handle: string } {
  if (!sender) throw new TypeError("event without a sender");
  const el = new ComPtr(sender, "IUIAutomationElement");
  try {
    const pid = new Int32Array(1);
    if (invoke(sender, E.get_CachedProcessId, pid) < 0) return liveSender(ole, sender);
    return { pid: pid[0]!, handle: handleOfRuntimeId(cachedRuntimeId(ole, el)) };
  } catch (err) {
    if (isStub(err)) return liveSender(ole, sender);
    throw err;
  } finally {
    el.detach(); // borrowed for the call: UIA keeps its reference
  }
}

/** The engine's event subscription inside the COM worker. */
export class UiaEvents {
  readonly #setup: EventSetup;
  readonly #emit: (e: EngineEvent) => void;
  readonly #focus = new FocusTracker();
  readonly #watched = new Map<string, ComPtr>();
  readonly #properties = offHeap([...WATCHED_PROPERTIES.keys()]);
  readonly #handlers: LocalComObject[];
  readonly #automation: LocalComObject;
  readonly #property: LocalComObject;
  readonly #structure: LocalComObject;
  readonly #focusHandler: LocalComObject;

  /** Builds the four handler objects; nothing is registered until {@link start}. */
  constructor(setup: EventSetup, emit: (e: EngineEvent) => void) {
    this.#setup = setup;
    this.#emit = emit;
    const ole = setup.ole;
    const onError = (err: unknown) =>
      log("warn", "UIA event handler failed", { error: String(err) });
    const make = (iid: Uint8Array<ArrayBuffer>, body: ReturnType<typeof impl>) =>
      new LocalComObject({
        iids: [iid, IID.IAgileObject],
        methods: [body],
        threadSafe: true,
        onError,
      });
    this.#automation = make(
      IID.IUIAutomationEventHandler,
      impl(["pointer", "i32"], (sender, eventId) => {
        const s = senderOf(ole, sender);
        emit(automationEvent(s.pid, s.handle, eventId));
        return HR.S_OK;
      }),
    );
    this.#property = make(
      IID.IUIAutomationPropertyChangedEventHandler,
      // The VARIANT newValue arrives by reference (64-bit convention) and is UIA's to free.
      impl(["pointer", "i32", "pointer"], (sender, property) => {
        const s = senderOf(ole, sender);
        emit(propertyEvent(s.pid, s.handle, property));
        return HR.S_OK;
      }),
    );
    this.#structure = make(
      IID.IUIAutomationStructureChangedEventHandler,
      impl(["pointer", "i32", "pointer"], (sender, change) => {
        const s = senderOf(ole, sender);
        emit(structureEvent(s.pid, s.handle, change));
        return HR.S_OK;
      }),
    );
    this.#focusHandler = make(
      IID.IUIAutomationFocusChangedEventHandler,
      impl(["pointer"], (sender) => {
        const s = senderOf(ole, sender);
        for (const e of this.#focus.moved(s.pid, s.handle)) emit(e);
        return HR.S_OK;
      }),
    );
    this.#handlers = [this.#automation, this.#property, this.#structure, this.#focusHandler];
  }

  /** Focus changes anywhere, and windows and menus opening on the desktop. */
  async start(): Promise<void> {
    const { automation, requests } = this.#setup;
    await automation.callNonblocking(
      U.AddFocusChangedEventHandler,
      requests.events.ptr,
      this.#focusHandler.pointer,
    );
    const out = new BigUint64Array(1);
    automation.call(U.GetRootElement, out);
    using root = ComPtr.expectOut(out, "IUIAutomationElement", "GetRootElement");
    for (const id of [EVENT.Window_WindowOpened, EVENT.MenuOpened]) {
      await this.#register(`AddAutomationEventHandler(${id})`, () =>
        automation.callNonblocking(
          U.AddAutomationEventHandler,
          id,
          root.ptr,
          TREE_SCOPE.Children,
          requests.events.ptr,
          this.#automation.pointer,
        ));
    }
  }

  /** Watches one window's subtree (on its first read); drops the least recent beyond 8. */
  async watch(window: string, element: ComPtr): Promise<void> {
    if (this.#watched.has(window)) {
      const el = this.#watched.get(window)!;
      this.#watched.delete(window);
      this.#watched.set(window, el); // most recent last
      return;
    }
    const el = element.addRef();
    this.#watched.set(window, el);
    const { automation, requests } = this.#setup;
    const req = requests.events.ptr;
    await this.#register("AddStructureChangedEventHandler", () =>
      automation.callNonblocking(
        U.AddStructureChangedEventHandler,
        el.ptr,
        TREE_SCOPE.Subtree,
        req,
        this.#structure.pointer,
      ));
    await this.#register("AddPropertyChangedEventHandler", () =>
      automation.callNonblocking(
        U.AddPropertyChangedEventHandlerNativeArray,
        el.ptr,
        TREE_SCOPE.Subtree,
        req,
        this.#property.pointer,
        this.#properties,
        this.#properties.length,
      ));
    await this.#register("AddAutomationEventHandler(TextChanged)", () =>
      automation.callNonblocking(
        U.AddAutomationEventHandler,
        EVENT.Text_TextChanged,
        el.ptr,
        TREE_SCOPE.Subtree,
        req,
        this.#automation.pointer,
      ));
    while (this.#watched.size > WATCH_LIMIT) {
      await this.unwatch(this.#watched.keys().next().value!);
    }
  }

  // A registration UIA lacks (a stub result) is noted and skipped: the live map's probe
  // then finds those changes instead. Any other failure is the caller's.
  async #register(name: string, add: () => Promise<unknown>): Promise<void> {
    const compat = this.#setup.compat;
    const call = `IUIAutomation::${name}`;
    if (compat?.has(call)) return;
    try {
      await add();
    } catch (err) {
      if (!compat || !isStub(err)) throw err;
      compat.note(call, "those changes found by the live map's probe");
    }
  }

  /** Stops watching a window's subtree. */
  async unwatch(window: string): Promise<void> {
    const el = this.#watched.get(window);
    if (!el) return;
    this.#watched.delete(window);
    const a = this.#setup.automation;
    const removals: [typeof U.RemoveStructureChangedEventHandler, Deno.PointerObject][] = [
      [U.RemoveStructureChangedEventHandler, this.#structure.pointer],
      [U.RemovePropertyChangedEventHandler, this.#property.pointer],
    ];
    try {
      for (const [m, handler] of removals) await a.callNonblocking(m, el.ptr, handler);
      await a.callNonblocking(
        U.RemoveAutomationEventHandler,
        EVENT.Text_TextChanged,
        el.ptr,
        this.#automation.pointer,
      );
    } catch (err) {
      // A window already closed takes its registrations with it.
      log("debug", "removing a window's UIA handlers failed", { window, error: String(err) });
    }
    el.release();
  }

  /** Removes every handler and frees the handler objects once UIA let go of them. */
  async stop(): Promise<void> {
    try {
      await this.#setup.automation.callNonblocking(U.RemoveAllEventHandlers);
    } finally {
      for (const el of this.#watched.values()) el.release();
      this.#watched.clear();
      for (const h of this.#handlers) {
        h.releaseOwn();
        if (!h.close()) {
          // UIA still holds it: its callbacks must stay valid, so they are leaked on purpose.
          log("warn", "UIA still holds an event handler; leaving it allocated", {
            refs: h.refCount,
          });
        }
      }
    }
  }
}
