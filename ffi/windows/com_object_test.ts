import assert from "node:assert/strict";
import { ComPtr, invoke, method, outPointer } from "./com.ts";
import { impl, LocalComObject } from "./com_object.ts";
import { parseGuid } from "./guid.ts";
import { HR } from "./hresult.ts";
import { writeI32 } from "./memory.ts";

const IID_IHANDLER = parseGuid("c270f6b5-5c69-4290-9745-7a7f97169468");
const IID_IAGILE = parseGuid("94ea2b94-e9cc-49e0-c0ff-ee64ca8f5b90");
const Handle = method("IHandler::Handle", 3, ["pointer", "i32"]);
const Twice = method("IHandler::Twice", 4, ["i32", "buffer"]);

function handler(seen: number[], onError?: (e: unknown) => void) {
  let finalReleases = 0;
  const obj = new LocalComObject({
    iids: [IID_IHANDLER, IID_IAGILE],
    methods: [
      impl(["pointer", "i32"], (_sender, id) => {
        seen.push(id);
        if (id < 0) throw new Error("handler bug");
        return HR.S_OK;
      }),
      impl(["i32", "pointer"], (n, out) => {
        writeI32(out, n * 2);
        return HR.S_OK;
      }),
    ],
    onFinalRelease: () => finalReleases++,
    ...(onError ? { onError } : {}),
  });
  return { obj, finalReleases: () => finalReleases };
}

Deno.test("LocalComObject: methods follow IUnknown's three slots and get their arguments", () => {
  const seen: number[] = [];
  const { obj } = handler(seen);
  try {
    assert.equal(invoke(obj.pointer, Handle, null, 20005), HR.S_OK);
    const out = new Int32Array(1);
    assert.equal(invoke(obj.pointer, Twice, 21, out), HR.S_OK);
    assert.deepEqual(seen, [20005]);
    assert.equal(out[0], 42);
  } finally {
    obj.releaseOwn();
    assert.ok(obj.close());
  }
});

Deno.test("LocalComObject: QueryInterface answers IUnknown and its IIDs, AddRef/Release balance", () => {
  const { obj, finalReleases } = handler([]);
  const caller = new ComPtr(obj.pointer, "IUnknown");
  const asHandler = caller.query(IID_IHANDLER, "IHandler");
  const asUnknown = caller.query(parseGuid("00000000-0000-0000-c000-000000000046"), "IUnknown");
  assert.ok(asHandler && asUnknown);
  assert.equal(caller.query(parseGuid("00000003-0000-0000-c000-000000000046"), "IMarshal"), null);
  assert.equal(obj.refCount, 3);
  const out = outPointer();
  assert.equal(
    invoke(obj.pointer, method("IUnknown::QueryInterface", 0, ["buffer", "buffer"]), null, out),
    HR.E_INVALIDARG,
  );
  asHandler.release();
  asUnknown.release();
  assert.equal(obj.refCount, 1);
  assert.equal(obj.close(), false, "callbacks stay while a reference is held");
  caller.detach();
  obj.releaseOwn();
  assert.equal(obj.refCount, 0);
  assert.equal(finalReleases(), 1);
  assert.ok(obj.close());
});

Deno.test("LocalComObject: a throwing method answers E_FAIL and reports the error", () => {
  const errors: unknown[] = [];
  const { obj } = handler([], (e) => errors.push(e));
  try {
    assert.equal(invoke(obj.pointer, Handle, null, -1), HR.E_FAIL);
    assert.equal(errors.length, 1);
  } finally {
    obj.releaseOwn();
    obj.close();
  }
});

Deno.test("LocalComObject: thread-safe methods answer calls made from another thread", async () => {
  const seen: number[] = [];
  const obj = new LocalComObject({
    iids: [IID_IHANDLER],
    methods: [impl(["pointer", "i32"], (_s, id) => (seen.push(id), HR.S_OK))],
    threadSafe: true,
  });
  try {
    {
      using held = new ComPtr(obj.pointer, "IHandler").addRef();
      assert.equal(obj.refCount, 2);
      await held.callNonblocking(Handle, null, 20002);
    }
    assert.deepEqual(seen, [20002]);
    assert.equal(obj.refCount, 1, "the other owner's reference was released");
  } finally {
    obj.releaseOwn();
    obj.close();
  }
});
