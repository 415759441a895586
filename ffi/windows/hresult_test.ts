import assert from "node:assert/strict";
import { checkHr, HR, HResultError, hresultError, hresultHex, hresultName } from "./hresult.ts";

Deno.test("hresultHex() and hresultName() speak Windows' unsigned form", () => {
  assert.equal(hresultHex(HR.UIA_E_ELEMENTNOTAVAILABLE), "0x80040201");
  assert.equal(hresultHex(HR.S_FALSE), "0x00000001");
  assert.equal(hresultName(0x80131505), "UIA_E_TIMEOUT"); // unsigned input works too
  assert.equal(hresultName(0x8badf00d | 0), undefined);
});

Deno.test("checkHr() passes S_OK and S_FALSE, throws on failures", () => {
  checkHr(HR.S_OK, "X::Y");
  checkHr(HR.S_FALSE, "X::Y");
  assert.throws(
    () => checkHr(HR.E_FAIL, "X::Y"),
    /A UI Automation call failed: X::Y returned E_FAIL \(0x80004005\)/,
  );
});

Deno.test("hresultError() maps every named family to the caller's error code", () => {
  const expect: [number, string][] = [
    [HR.UIA_E_ELEMENTNOTAVAILABLE, "element_not_found"],
    [HR.CO_E_OBJNOTCONNECTED, "element_not_found"],
    [HR.ERROR_INVALID_WINDOW_HANDLE, "window_not_found"],
    [HR.UIA_E_TIMEOUT, "timeout"],
    [HR.RPC_E_TIMEOUT, "timeout"],
    [HR.RPC_E_CALL_REJECTED, "timeout"],
    [HR.RPC_E_SERVERCALL_RETRYLATER, "timeout"],
    [HR.RPC_E_CALL_CANCELED, "timeout"],
    [HR.ERROR_TIMEOUT, "timeout"],
    [HR.RPC_E_DISCONNECTED, "app_not_running"],
    [HR.RPC_E_SERVER_DIED, "app_not_running"],
    [HR.RPC_E_SERVER_DIED_DNE, "app_not_running"],
    [HR.RPC_S_SERVER_UNAVAILABLE, "app_not_running"],
    [HR.UIA_E_ELEMENTNOTENABLED, "action_not_supported"],
    [HR.UIA_E_NOTSUPPORTED, "action_not_supported"],
    [HR.UIA_E_INVALIDOPERATION, "action_not_supported"],
    [HR.E_NOTIMPL, "action_not_supported"],
    [HR.REGDB_E_CLASSNOTREG, "driver_unavailable"],
    [HR.E_ACCESSDENIED, "driver_unavailable"],
    [HR.E_FAIL, "internal"],
    [HR.E_INVALIDARG, "internal"],
    [0x8badf00d | 0, "internal"],
  ];
  for (const [hr, code] of expect) {
    const err = hresultError(hr, "IUIAutomationElement::FindAll");
    assert.equal(err.code, code, hresultHex(hr));
    assert.ok(err.cause instanceof HResultError);
    assert.equal(err.data.hresult, hresultHex(hr));
  }
});

Deno.test("hresultError() carries the timeout in force and the reason for unavailability", () => {
  const t = hresultError(HR.UIA_E_TIMEOUT, "IUIAutomation::ElementFromHandleBuildCache", {
    timeoutMs: 1000,
  });
  assert.equal(t.data.ms, 1000);
  assert.match(t.message, /^The app did not answer in time: /);
  const u = hresultError(HR.REGDB_E_CLASSNOTREG, "CoCreateInstance");
  assert.equal(u.data.reason, "uia_regdb_e_classnotreg");
  assert.deepEqual(
    hresultError(HR.UIA_E_NOTSUPPORTED, "IUIAutomationInvokePattern::Invoke").data.actions,
    [],
  );
});
