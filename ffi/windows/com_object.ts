/**
 * COM objects implemented in TypeScript: a vtable of `Deno.UnsafeCallback`s with
 * IUnknown's QueryInterface, AddRef and Release first, then the interface's own methods.
 * The UIA engine hands these to UIA as event handlers; tests build fake UIA objects the
 * same way.
 *
 * The reference count lives in JS. The object starts with one reference, ours; UIA adds
 * and drops its own. Callbacks are freed by {@link LocalComObject.close} only once every
 * reference is gone, because a function pointer UIA still holds must stay callable.
 *
 * @module
 */
import { type Guid, guidAt } from "./guid.ts";
import { HR } from "./hresult.ts";
import { writePointer } from "./memory.ts";
import type { Params } from "./com.ts";

/** IID_IUnknown. */
export const IID_IUNKNOWN_TEXT = "00000000-0000-0000-c000-000000000046";

/** One method after IUnknown's three: its parameters after `this`, and its body. */
export interface MethodImpl {
  /** Native parameter types after `this`. */
  readonly parameters: Params;
  /** The body; returns an HRESULT. A throw answers E_FAIL. */
  readonly fn: (...args: never[]) => number;
}

/** Declares a method body with its parameter types (keeps `fn`'s arguments typed). */
export function impl<const P extends Params>(
  parameters: P,
  fn: (...args: Deno.FromNativeParameterTypes<P>) => number,
): MethodImpl {
  // Erased for storage: the vtable passes exactly the arguments `parameters` declares.
  return { parameters, fn: fn as unknown as (...args: never[]) => number };
}

/** How to build a {@link LocalComObject}. */
export interface LocalComOptions {
  /** IIDs QueryInterface answers besides IUnknown. */
  iids: readonly Guid[];
  /** Methods for slots 3, 4, ... in order. */
  methods: readonly MethodImpl[];
  /**
   * Callbacks that foreign threads may call (UIA's event threads): they are queued to
   * this thread's event loop, and the calling thread waits for the answer.
   */
  threadSafe?: boolean;
  /** Called when the last reference is released. */
  onFinalRelease?: () => void;
  /** Called when a method body threw (the caller gets E_FAIL). */
  onError?: (err: unknown) => void;
}

/** What the object keeps of each callback. */
type AnyCallback = { readonly pointer: Deno.PointerObject; close(): void };

/** A COM object whose methods run in this isolate. */
export class LocalComObject {
  readonly #callbacks: AnyCallback[] = [];
  readonly #vtable: BigUint64Array<ArrayBuffer>;
  readonly #object: BigUint64Array<ArrayBuffer>;
  readonly #iids: readonly Guid[];
  readonly #options: LocalComOptions;
  #refs = 1;
  #closed = false;

  /** Builds the object; the caller owns its first reference. */
  constructor(options: LocalComOptions) {
    this.#options = options;
    this.#iids = options.iids;
    const make = options.threadSafe
      ? <D extends Deno.UnsafeCallbackDefinition>(
        d: D,
        f: Deno.UnsafeCallbackFunction<D["parameters"], D["result"]>,
      ) => {
        const cb = Deno.UnsafeCallback.threadSafe(d, f);
        cb.unref(); // wake this loop from UIA's threads, but never keep a stopping process alive
        return cb;
      }
      : <D extends Deno.UnsafeCallbackDefinition>(
        d: D,
        f: Deno.UnsafeCallbackFunction<D["parameters"], D["result"]>,
      ) => new Deno.UnsafeCallback(d, f);
    const guard = (fn: () => number): number => {
      try {
        return fn();
      } catch (err) {
        options.onError?.(err);
        return HR.E_FAIL;
      }
    };
    const qi = make(
      { parameters: ["pointer", "pointer", "pointer"], result: "i32" } as const,
      (_self, riid, ppv) => guard(() => this.#queryInterface(riid, ppv)),
    );
    const addRef = make(
      { parameters: ["pointer"], result: "u32" } as const,
      () => ++this.#refs,
    );
    const release = make({ parameters: ["pointer"], result: "u32" } as const, () => {
      const left = --this.#refs;
      if (left === 0) options.onFinalRelease?.();
      return Math.max(0, left);
    });
    const own = options.methods.map((m) =>
      make(
        {
          parameters: ["pointer", ...m.parameters],
          result: "i32",
        } as Deno.UnsafeCallbackDefinition,
        // The first argument is `this`, which every method here already closes over.
        ((_self: unknown, ...args: unknown[]) =>
          guard(() => (m.fn as (...a: unknown[]) => number)(...args))) as never,
      )
    );
    this.#callbacks.push(qi, addRef, release, ...own);
    // Both live as long as the object and are read by foreign code at any time, so each
    // gets its own ArrayBuffer (off V8's heap, where GC never moves it).
    this.#vtable = new BigUint64Array(new ArrayBuffer(this.#callbacks.length * 8));
    this.#callbacks.forEach((cb, i) => this.#vtable[i] = Deno.UnsafePointer.value(cb.pointer));
    this.#object = new BigUint64Array(new ArrayBuffer(8));
    this.#object[0] = Deno.UnsafePointer.value(Deno.UnsafePointer.of(this.#vtable));
  }

  #queryInterface(riid: Deno.PointerValue, ppv: Deno.PointerValue): number {
    if (!ppv) return HR.E_POINTER;
    if (!riid) {
      writePointer(ppv, null);
      return HR.E_INVALIDARG;
    }
    if (guidAt(riid, IID_IUNKNOWN) || this.#iids.some((iid) => guidAt(riid, iid))) {
      writePointer(ppv, this.pointer);
      this.#refs++;
      return HR.S_OK;
    }
    writePointer(ppv, null);
    return HR.E_NOINTERFACE;
  }

  /** The interface pointer to hand out (`this` of every method). */
  get pointer(): Deno.PointerObject {
    return Deno.UnsafePointer.of(this.#object)!;
  }

  /** References held, ours included. */
  get refCount(): number {
    return this.#refs;
  }

  /** Drops our own reference (the one the constructor gave). */
  releaseOwn(): void {
    if (this.#refs <= 0) return;
    if (--this.#refs === 0) this.#options.onFinalRelease?.();
  }

  /**
   * Frees the callbacks when no reference is left; returns false (and keeps them) while
   * someone still holds one. `force` frees them anyway (only when the holder is gone).
   */
  close(force = false): boolean {
    if (this.#closed) return true;
    if (this.#refs > 0 && !force) return false;
    this.#closed = true;
    for (const cb of this.#callbacks) cb.close();
    return true;
  }
}

const IID_IUNKNOWN: Guid = new Uint8Array([
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
  0xc0,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
  0x46,
]);
