import assert from "node:assert/strict";
import { DriverError } from "../../protocol/errors.ts";
import {
  ComPtr,
  invoke,
  IUnknown,
  method,
  outPointer,
  pointerIn,
  vtableEntry,
  withPtr,
} from "./com.ts";
import { guidAt, parseGuid } from "./guid.ts";
import { HR, HResultError } from "./hresult.ts";
import { writeI32, writePointer } from "./memory.ts";

const IID_ICALC = parseGuid("0d1f7a3c-5b6e-4f80-9a1b-2c3d4e5f6a7b");
const IID_IUNKNOWN = parseGuid("00000000-0000-0000-c000-000000000046");

/** ICalc's own methods as a client declares them (slots follow IUnknown's three). */
const ICalc = {
  Add: method("ICalc::Add", 3, ["i32", "i32", "buffer"]),
  Fail: method("ICalc::Fail", 4, ["i32"]),
  GetChild: method("ICalc::GetChild", 5, ["buffer"]),
  IsSelf: method("ICalc::IsSelf", 6, ["pointer", "buffer"]),
} as const;

interface HandBuilt {
  ptr: Deno.PointerObject;
  refs: () => number;
  calls: string[];
  close(): void;
}

/**
 * A COM object built by hand: a vtable (BigUint64Array of UnsafeCallback pointers) and an
 * object whose first word points at it, exactly the layout COM specifies.
 */
function handBuilt(children: HandBuilt[] = []): HandBuilt {
  let refs = 1;
  const calls: string[] = [];
  const cbs: Deno.UnsafeCallback[] = [];
  const object = new BigUint64Array(1);
  const self = Deno.UnsafePointer.of(object)!;
  const add = <D extends Deno.UnsafeCallbackDefinition>(
    d: D,
    f: Deno.UnsafeCallbackFunction<D["parameters"], D["result"]>,
  ) => cbs.push(new Deno.UnsafeCallback(d, f) as unknown as Deno.UnsafeCallback);
  add(
    { parameters: ["pointer", "pointer", "pointer"], result: "i32" } as const,
    (_s, riid, ppv) => {
      calls.push("QueryInterface");
      if (riid && (guidAt(riid, IID_ICALC) || guidAt(riid, IID_IUNKNOWN))) {
        refs++;
        writePointer(ppv, self);
        return HR.S_OK;
      }
      writePointer(ppv, null);
      return HR.E_NOINTERFACE;
    },
  );
  add({ parameters: ["pointer"], result: "u32" } as const, () => ++refs);
  add({ parameters: ["pointer"], result: "u32" } as const, () => --refs);
  add(
    { parameters: ["pointer", "i32", "i32", "pointer"], result: "i32" } as const,
    (s, a, b, out) => {
      calls.push(`Add(${a},${b}) this=${Deno.UnsafePointer.equals(s, self)}`);
      writeI32(out, a + b);
      return HR.S_OK;
    },
  );
  add({ parameters: ["pointer", "i32"], result: "i32" } as const, (_s, hr) => hr);
  add({ parameters: ["pointer", "pointer"], result: "i32" } as const, (_s, out) => {
    const child = handBuilt();
    children.push(child);
    writePointer(out, child.ptr); // the caller owns the child's first reference
    return HR.S_OK;
  });
  add({ parameters: ["pointer", "pointer", "pointer"], result: "i32" } as const, (s, p, out) => {
    writeI32(out, Deno.UnsafePointer.equals(s, p) ? 1 : 0);
    return HR.S_OK;
  });
  const vtable = new BigUint64Array(cbs.map((cb) => Deno.UnsafePointer.value(cb.pointer)));
  object[0] = Deno.UnsafePointer.value(Deno.UnsafePointer.of(vtable));
  return {
    ptr: self,
    refs: () => refs,
    calls,
    close: () => {
      void vtable; // keep the vtable alive as long as the object
      for (const cb of cbs) cb.close();
    },
  };
}

Deno.test("vtableEntry() reads the object's vtable pointer, then the slot's function", () => {
  const obj = handBuilt();
  try {
    const vtable = new Deno.UnsafePointerView(obj.ptr).getPointer(0)!;
    for (const slot of [0, 3, 6]) {
      assert.equal(
        Deno.UnsafePointer.value(vtableEntry(obj.ptr, slot)),
        new Deno.UnsafePointerView(vtable).getBigUint64(slot * 8),
      );
    }
  } finally {
    obj.close();
  }
});

Deno.test("invoke() calls the method at its slot with the object as `this`", () => {
  const obj = handBuilt();
  try {
    const sum = new Int32Array(1);
    assert.equal(invoke(obj.ptr, ICalc.Add, 40, 2, sum), HR.S_OK);
    assert.equal(sum[0], 42);
    assert.deepEqual(obj.calls, ["Add(40,2) this=true"]);
    const same = new Int32Array(1);
    invoke(obj.ptr, ICalc.IsSelf, obj.ptr, same);
    assert.equal(same[0], 1);
  } finally {
    obj.close();
  }
});

Deno.test("ComPtr releases exactly once: release() is idempotent and `using` disposes", () => {
  const obj = handBuilt();
  try {
    invoke(obj.ptr, IUnknown.AddRef);
    invoke(obj.ptr, IUnknown.AddRef);
    assert.equal(obj.refs(), 3);
    const a = new ComPtr(obj.ptr, "ICalc");
    a.release();
    a.release();
    assert.equal(obj.refs(), 2);
    assert.throws(() => a.ptr, /already released/);
    {
      using _b = new ComPtr(obj.ptr, "ICalc");
    }
    assert.equal(obj.refs(), 1);
    const c = new ComPtr(obj.ptr, "ICalc");
    const d = c.addRef();
    assert.equal(obj.refs(), 2);
    assert.throws(() =>
      withPtr(d, () => {
        throw new Error("boom");
      })
    );
    assert.equal(obj.refs(), 1, "withPtr releases on the throwing path");
    c.release();
    assert.equal(obj.refs(), 0);
  } finally {
    obj.close();
  }
});

Deno.test("query() AddRefs what it returns and answers null on E_NOINTERFACE", () => {
  const obj = handBuilt();
  try {
    const owner = new ComPtr(obj.ptr, "IUnknown");
    const calc = owner.query(IID_ICALC, "ICalc");
    assert.ok(calc);
    assert.equal(obj.refs(), 2);
    assert.equal(owner.query(parseGuid("11111111-2222-3333-4444-555555555555"), "IOther"), null);
    assert.equal(obj.refs(), 2, "a refused QueryInterface takes no reference");
    calc.release();
    owner.release();
    assert.equal(obj.refs(), 0);
    assert.equal(obj.calls.filter((c) => c === "QueryInterface").length, 2);
  } finally {
    obj.close();
  }
});

Deno.test("out-parameter objects are owned by the caller and released once", () => {
  const children: HandBuilt[] = [];
  const obj = handBuilt(children);
  try {
    using parent = new ComPtr(obj.ptr, "ICalc");
    const out = outPointer();
    parent.call(ICalc.GetChild, out);
    const child = ComPtr.expectOut(out, "ICalc", "ICalc::GetChild");
    assert.equal(children[0]!.refs(), 1);
    child.release();
    assert.equal(children[0]!.refs(), 0);
    assert.equal(ComPtr.fromOut(new BigUint64Array(1), "ICalc"), null);
    assert.equal(pointerIn(new BigUint64Array(1)), null);
  } finally {
    for (const c of children) c.close();
    obj.close();
  }
});

Deno.test("ComPtr.call() maps failed HRESULTs to DriverErrors with an HResultError cause", () => {
  const obj = handBuilt();
  try {
    using calc = new ComPtr(obj.ptr, "ICalc");
    calc.call(ICalc.Fail, HR.S_FALSE); // success codes pass
    const cases: [number, string][] = [
      [HR.E_FAIL, "internal"],
      [HR.E_INVALIDARG, "internal"],
      [HR.UIA_E_ELEMENTNOTAVAILABLE, "element_not_found"],
      [HR.UIA_E_TIMEOUT, "timeout"],
      [HR.RPC_E_CALL_REJECTED, "timeout"],
      [HR.RPC_E_SERVERCALL_RETRYLATER, "timeout"],
      [HR.RPC_E_DISCONNECTED, "app_not_running"],
      [HR.UIA_E_NOTSUPPORTED, "action_not_supported"],
    ];
    for (const [hr, code] of cases) {
      assert.throws(() => calc.call(ICalc.Fail, hr), (err: unknown) => {
        assert.ok(err instanceof DriverError);
        assert.equal(err.code, code);
        assert.ok(err.cause instanceof HResultError);
        assert.equal(err.cause.hr, hr);
        assert.equal(err.cause.method, "ICalc::Fail");
        assert.match(err.message, /ICalc::Fail returned /);
        return true;
      });
    }
    assert.equal(calc.invoke(ICalc.Fail, HR.E_FAIL), HR.E_FAIL, "invoke() returns raw HRESULTs");
  } finally {
    obj.close();
  }
});

Deno.test("callNonblocking() runs the call on another thread; a thread-safe object answers", async () => {
  let onThread = 0;
  const cb = Deno.UnsafeCallback.threadSafe(
    { parameters: ["pointer", "i32"], result: "i32" } as const,
    (_self, hr) => {
      onThread++;
      return hr;
    },
  );
  const noop = new Deno.UnsafeCallback(
    { parameters: ["pointer"], result: "u32" } as const,
    () => 1,
  );
  const vtable = new BigUint64Array([
    Deno.UnsafePointer.value(noop.pointer),
    Deno.UnsafePointer.value(noop.pointer),
    Deno.UnsafePointer.value(noop.pointer),
    0n,
    Deno.UnsafePointer.value(cb.pointer),
  ]);
  const object = new BigUint64Array([Deno.UnsafePointer.value(Deno.UnsafePointer.of(vtable))]);
  try {
    const p = new ComPtr(Deno.UnsafePointer.of(object)!, "ICalc");
    await p.callNonblocking(ICalc.Fail, HR.S_OK);
    await assert.rejects(
      p.callNonblocking(ICalc.Fail, HR.UIA_E_TIMEOUT),
      (err: unknown) => err instanceof DriverError && err.code === "timeout",
    );
    assert.equal(onThread, 2);
    p.detach();
  } finally {
    cb.close();
    noop.close();
  }
});
