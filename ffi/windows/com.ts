/**
 * A small COM client layer over `Deno.UnsafeFnPointer`: call an interface method by its
 * vtable slot, own interface pointers (Release exactly once, in `finally` or through
 * `using`), and turn failed HRESULTs into typed errors.
 *
 * A COM object is a pointer to a pointer to its vtable, an array of function pointers;
 * every method takes the object itself as its first argument. Slots 0-2 are IUnknown's
 * QueryInterface, AddRef and Release; an interface's own methods follow in IDL order.
 *
 * @module
 */
import { checkHr } from "./hresult.ts";
import type { Guid } from "./guid.ts";

/** Native types a method takes after its `this` pointer. */
export type Params = readonly Deno.NativeType[];

/** One method of a COM interface. */
export interface ComMethod<P extends Params = Params, R extends "i32" | "u32" = "i32" | "u32"> {
  /** `Interface::Method`, for error messages. */
  readonly name: string;
  /** Index in the vtable. */
  readonly slot: number;
  /** Parameters after `this`. */
  readonly parameters: P;
  /** `i32` (an HRESULT) for everything but AddRef/Release (`u32` counts). */
  readonly result: R;
}

/** Declares a method returning an HRESULT. */
export function method<const P extends Params>(
  name: string,
  slot: number,
  parameters: P,
): ComMethod<P, "i32"> {
  return { name, slot, parameters, result: "i32" };
}

/** IUnknown, the first three slots of every interface. */
export const IUnknown = {
  QueryInterface: method("IUnknown::QueryInterface", 0, ["buffer", "buffer"]),
  AddRef: { name: "IUnknown::AddRef", slot: 1, parameters: [], result: "u32" },
  Release: { name: "IUnknown::Release", slot: 2, parameters: [], result: "u32" },
} as const satisfies Record<string, ComMethod>;

type Callable = (...args: unknown[]) => number;
type AsyncCallable = (...args: unknown[]) => Promise<number>;

const sync = new WeakMap<ComMethod, Map<bigint, Callable>>();
const nonblocking = new WeakMap<ComMethod, Map<bigint, AsyncCallable>>();

/** The function pointer in `self`'s vtable at `slot`. */
export function vtableEntry(self: Deno.PointerObject, slot: number): Deno.PointerObject {
  const vtable = new Deno.UnsafePointerView(self).getPointer(0);
  if (!vtable) throw new TypeError("COM object has a null vtable");
  const fn = new Deno.UnsafePointerView(vtable).getPointer(slot * 8);
  if (!fn) throw new TypeError(`COM vtable slot ${slot} is null`);
  return fn;
}

function bind<F>(
  cache: WeakMap<ComMethod, Map<bigint, F>>,
  self: Deno.PointerObject,
  m: ComMethod,
  blocking: boolean,
): F {
  const fn = vtableEntry(self, m.slot);
  let byPointer = cache.get(m);
  if (!byPointer) cache.set(m, byPointer = new Map());
  const key = Deno.UnsafePointer.value(fn);
  let bound = byPointer.get(key);
  if (!bound) {
    const definition = {
      parameters: ["pointer", ...m.parameters],
      result: m.result,
      nonblocking: !blocking,
    } as Deno.ForeignFunction;
    const pointer = new Deno.UnsafeFnPointer(
      fn as Deno.PointerObject<Omit<Deno.ForeignFunction, "nonblocking">>,
      definition,
    );
    bound = pointer.call.bind(pointer) as unknown as F;
    byPointer.set(key, bound);
  }
  return bound;
}

/** Calls `m` on `self` and returns its raw result (an HRESULT, or a count). */
export function invoke<P extends Params, R extends "i32" | "u32">(
  self: Deno.PointerObject,
  m: ComMethod<P, R>,
  ...args: Deno.ToNativeParameterTypes<P>
): number {
  return bind<Callable>(sync, self, m, true)(self, ...args);
}

/**
 * Calls `m` on one of Deno's blocking-pool threads and resolves with its HRESULT, so this
 * thread's event loop keeps running meanwhile. Used for the few UIA calls that wait for
 * our own event-handler objects, whose callbacks are delivered through that loop.
 */
export function invokeNonblocking<P extends Params>(
  self: Deno.PointerObject,
  m: ComMethod<P, "i32">,
  ...args: Deno.ToNativeParameterTypes<P>
): Promise<number> {
  return bind<AsyncCallable>(nonblocking, self, m, false)(self, ...args);
}

/** An out-parameter slot for an interface pointer (`IFoo **`). */
export function outPointer(): BigUint64Array<ArrayBuffer> {
  return new BigUint64Array(1);
}

/** The pointer a call wrote to `out`, or null. */
export function pointerIn(out: BigUint64Array): Deno.PointerValue {
  return Deno.UnsafePointer.create(out[0]!);
}

/** An owned reference to a COM interface pointer: Released exactly once. */
export class ComPtr implements Disposable {
  #ptr: Deno.PointerObject | null;
  /** Interface name, for messages. */
  readonly iface: string;

  /** Takes ownership of one reference to `ptr`. */
  constructor(ptr: Deno.PointerObject, iface: string) {
    this.#ptr = ptr;
    this.iface = iface;
  }

  /** Owns the pointer a call wrote to `out`; `null` when the call returned none. */
  static fromOut(out: BigUint64Array, iface: string): ComPtr | null {
    const ptr = pointerIn(out);
    return ptr ? new ComPtr(ptr, iface) : null;
  }

  /** Owns the pointer a successful call wrote to `out`; a null pointer is an error. */
  static expectOut(out: BigUint64Array, iface: string, from: string): ComPtr {
    const owned = ComPtr.fromOut(out, iface);
    if (!owned) throw new TypeError(`${from} succeeded but returned no ${iface}`);
    return owned;
  }

  /** The raw pointer, for passing as an argument. Throws once released. */
  get ptr(): Deno.PointerObject {
    if (!this.#ptr) throw new TypeError(`${this.iface} was already released`);
    return this.#ptr;
  }

  /** True after {@link release} or {@link detach}. */
  get released(): boolean {
    return this.#ptr === null;
  }

  /** Calls `m` and throws the mapped DriverError on a failed HRESULT. */
  call<P extends Params>(m: ComMethod<P, "i32">, ...args: Deno.ToNativeParameterTypes<P>): void {
    checkHr(invoke(this.ptr, m, ...args), m.name);
  }

  /** Calls `m` and returns the raw HRESULT (for callers that expect some failures). */
  invoke<P extends Params>(
    m: ComMethod<P, "i32">,
    ...args: Deno.ToNativeParameterTypes<P>
  ): number {
    return invoke(this.ptr, m, ...args);
  }

  /** {@link call} on a blocking-pool thread (see {@link invokeNonblocking}). */
  async callNonblocking<P extends Params>(
    m: ComMethod<P, "i32">,
    ...args: Deno.ToNativeParameterTypes<P>
  ): Promise<void> {
    checkHr(await invokeNonblocking(this.ptr, m, ...args), m.name);
  }

  /** QueryInterface for `iid`; `null` when the object does not implement it. */
  query(iid: Guid, iface: string): ComPtr | null {
    const out = outPointer();
    const hr = invoke(this.ptr, IUnknown.QueryInterface, iid, out);
    if (hr < 0) {
      // QueryInterface must null its out-parameter on failure; never trust that it did.
      return null;
    }
    return ComPtr.expectOut(out, iface, "QueryInterface");
  }

  /** A second, independently owned reference (AddRef). */
  addRef(): ComPtr {
    invoke(this.ptr, IUnknown.AddRef);
    return new ComPtr(this.ptr, this.iface);
  }

  /** Gives up ownership without releasing: the caller now owns the reference. */
  detach(): Deno.PointerObject {
    const ptr = this.ptr;
    this.#ptr = null;
    return ptr;
  }

  /** Releases the reference; idempotent. */
  release(): void {
    const ptr = this.#ptr;
    if (!ptr) return;
    this.#ptr = null;
    invoke(ptr, IUnknown.Release);
  }

  /** `using` support. */
  [Symbol.dispose](): void {
    this.release();
  }
}

/** Runs `fn` with `owned`, releasing it afterwards on every path. */
export function withPtr<T>(owned: ComPtr, fn: (p: ComPtr) => T): T {
  try {
    return fn(owned);
  } finally {
    owned.release();
  }
}
