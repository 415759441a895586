import assert from "node:assert/strict";
import { HR, hresultError } from "../../ffi/windows/hresult.ts";
import { isStub, UiaCompat } from "./compat.ts";

Deno.test("UiaCompat runs the native call while it works, and names no fallback", () => {
  const compat = new UiaCompat();
  assert.equal(compat.run("X::A", "instead", () => "native", () => "fallback"), "native");
  assert.deepEqual(compat.list(), []);
});

Deno.test("UiaCompat takes the fallback on E_NOTIMPL, names it, and skips the stub after", () => {
  const compat = new UiaCompat();
  let calls = 0;
  const native = () => {
    calls++;
    throw hresultError(HR.E_NOTIMPL, "X::A");
  };
  assert.equal(compat.run("X::A", "done another way", native, () => 1), 1);
  assert.equal(compat.run("X::A", "done another way", native, () => 2), 2);
  assert.equal(calls, 1, "the stub is asked once");
  assert.equal(compat.has("X::A"), true);
  assert.deepEqual(compat.list(), ["X::A: done another way"]);
});

Deno.test("UiaCompat passes real failures through: only a stub answer is a fallback", () => {
  const compat = new UiaCompat();
  const failed = hresultError(HR.E_INVALIDARG, "X::A");
  assert.equal(isStub(failed), false);
  assert.throws(() =>
    compat.run("X::A", "instead", () => {
      throw failed;
    }, () => 0), failed);
  assert.deepEqual(compat.list(), []);
});
