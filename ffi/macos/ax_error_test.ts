import assert from "node:assert/strict";
import { DriverError } from "../../protocol/errors.ts";
import { AX_ERROR, axError, axErrorName, AxStatusError, checkAx, notTrusted } from "./ax_error.ts";

function codeOf(status: number): [string, Record<string, unknown>] {
  const err = axError(status, "read attributes", { timeoutMs: 1000, actions: ["AXPress"] });
  assert.ok(err instanceof DriverError);
  assert.ok(err.cause instanceof AxStatusError);
  assert.equal((err.cause as AxStatusError).status, status);
  return [err.code, err.data];
}

Deno.test("axError() maps kAXErrorAPIDisabled to driver_unavailable / accessibility_not_trusted", () => {
  const [code, data] = codeOf(AX_ERROR.kAXErrorAPIDisabled);
  assert.equal(code, "driver_unavailable");
  assert.equal(data.reason, "accessibility_not_trusted");
  assert.equal(data.ax_error, "kAXErrorAPIDisabled");
});

Deno.test("axError() maps kAXErrorCannotComplete to timeout with the timeout in force", () => {
  const [code, data] = codeOf(AX_ERROR.kAXErrorCannotComplete);
  assert.equal(code, "timeout");
  assert.equal(data.ms, 1000);
});

Deno.test("axError() maps kAXErrorInvalidUIElement to element_not_found", () => {
  const [code, data] = codeOf(AX_ERROR.kAXErrorInvalidUIElement);
  assert.equal(code, "element_not_found");
  assert.equal(data.version, 0);
});

Deno.test("axError() maps unsupported attributes, actions and arguments to action_not_supported", () => {
  for (
    const status of [
      AX_ERROR.kAXErrorAttributeUnsupported,
      AX_ERROR.kAXErrorActionUnsupported,
      AX_ERROR.kAXErrorParameterizedAttributeUnsupported,
      AX_ERROR.kAXErrorIllegalArgument,
      AX_ERROR.kAXErrorNoValue,
      AX_ERROR.kAXErrorNotImplemented,
    ]
  ) {
    const [code, data] = codeOf(status);
    assert.equal(code, "action_not_supported", axErrorName(status));
    assert.deepEqual(data.actions, ["AXPress"]);
  }
});

Deno.test("axError() maps failures and unknown statuses to internal with the AX name", () => {
  assert.equal(codeOf(AX_ERROR.kAXErrorFailure)[0], "internal");
  assert.equal(codeOf(AX_ERROR.kAXErrorInvalidUIElementObserver)[0], "internal");
  const [code, data] = codeOf(-1);
  assert.equal(code, "internal");
  assert.equal(data.ax_error, "AXError -1");
});

Deno.test("axError() messages are sentence case and name the status", () => {
  const err = axError(AX_ERROR.kAXErrorCannotComplete, 'read "AXValue"');
  assert.equal(
    err.message,
    'Cannot read "AXValue": the app did not answer in time (kAXErrorCannotComplete)',
  );
});

Deno.test("checkAx() passes kAXErrorSuccess and throws otherwise", () => {
  checkAx(AX_ERROR.kAXErrorSuccess, "press");
  assert.throws(() => checkAx(AX_ERROR.kAXErrorInvalidUIElement, "press"), DriverError);
});

Deno.test("notTrusted() says driver_unavailable with reason accessibility_not_trusted", () => {
  const err = notTrusted();
  assert.equal(err.code, "driver_unavailable");
  assert.equal(err.data.reason, "accessibility_not_trusted");
  assert.match(err.message, /^Accessibility access is not granted/);
});
