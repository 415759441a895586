/**
 * A fake COM class for unit tests: one vtable of `Deno.UnsafeCallback`s shared by all its
 * objects (IUnknown plus the slots a test declares; undeclared slots answer E_NOTIMPL),
 * with state and a reference count per object, so tests can check that code under test
 * released every reference it took. Never used outside tests.
 *
 * @module
 */
import { type Guid, guidAt } from "./guid.ts";
import { HR } from "./hresult.ts";
import { writePointer } from "./memory.ts";
import type { Params } from "./com.ts";

/** One declared slot: parameter types after `this`, and the body (gets the state first). */
export type FakeSlot<S> = [Params, (s: S, ...args: never[]) => number];

type Body = (self: bigint, ...args: never[]) => number;
interface Instance<S> {
  state: S;
  refs: number;
  cell: BigUint64Array<ArrayBuffer>;
}

const IID_IUNKNOWN: Guid = new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0xc0, 0, 0, 0, 0, 0, 0, 0x46]);

/** A fake COM class: one vtable shared by its objects, state and refcount per object. */
export class FakeClass<S> {
  readonly instances = new Map<bigint, Instance<S>>();
  readonly #callbacks: { pointer: Deno.PointerObject; close(): void }[] = [];
  readonly #vtable: BigUint64Array<ArrayBuffer>;

  constructor(
    iids: Guid[],
    slots: Record<number, FakeSlot<S>>,
    onFinal: (s: S) => void = () => {},
  ) {
    const top = Math.max(2, ...Object.keys(slots).map(Number));
    const self = (p: Deno.PointerValue) => this.instances.get(Deno.UnsafePointer.value(p))!;
    const cb = (params: Params, result: "i32" | "u32", fn: Body) => {
      const c = new Deno.UnsafeCallback(
        { parameters: ["pointer", ...params], result } as Deno.UnsafeCallbackDefinition,
        ((p: Deno.PointerValue, ...a: never[]) => fn(Deno.UnsafePointer.value(p), ...a)) as never,
      );
      this.#callbacks.push(c as unknown as { pointer: Deno.PointerObject; close(): void });
      return Deno.UnsafePointer.value(c.pointer);
    };
    const ptrs: bigint[] = [
      cb(
        ["pointer", "pointer"],
        "i32",
        ((me: bigint, riid: Deno.PointerValue, ppv: Deno.PointerValue) => {
          if (riid && [IID_IUNKNOWN, ...iids].some((g) => guidAt(riid, g))) {
            this.instances.get(me)!.refs++;
            writePointer(ppv, Deno.UnsafePointer.create(me));
            return HR.S_OK;
          }
          writePointer(ppv, null);
          return HR.E_NOINTERFACE;
        }) as Body,
      ),
      cb([], "u32", ((me: bigint) => ++this.instances.get(me)!.refs) as Body),
      cb(
        [],
        "u32",
        ((me: bigint) => {
          const inst = this.instances.get(me)!;
          if (--inst.refs === 0) onFinal(inst.state);
          if (inst.refs < 0) throw new Error("released more often than referenced");
          return inst.refs;
        }) as Body,
      ),
    ];
    for (let slot = 3; slot <= top; slot++) {
      const s = slots[slot];
      ptrs.push(
        s
          ? cb(
            s[0],
            "i32",
            ((me: bigint, ...a: never[]) =>
              s[1](self(Deno.UnsafePointer.create(me)).state, ...a)) as Body,
          )
          : cb([], "i32", () => HR.E_NOTIMPL),
      );
    }
    this.#vtable = new BigUint64Array(ptrs);
  }

  /** A new object with one reference (the caller's). */
  create(state: S): Deno.PointerObject {
    const cell = new BigUint64Array([
      Deno.UnsafePointer.value(Deno.UnsafePointer.of(this.#vtable)),
    ]);
    const p = Deno.UnsafePointer.of(cell)!;
    this.instances.set(Deno.UnsafePointer.value(p), { state, refs: 1, cell });
    return p;
  }

  /** Objects someone still references. */
  live(): number {
    return [...this.instances.values()].filter((i) => i.refs > 0).length;
  }

  close(): void {
    for (const c of this.#callbacks) c.close();
  }
}
