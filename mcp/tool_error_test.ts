import assert from "node:assert/strict";
import { DriverError } from "../protocol/errors.ts";
import { toolError } from "./tool_error.ts";
import { CLOSE, OPEN } from "./untrusted.ts";

Deno.test("toolError() carries stale_version's current map as an outline", () => {
  const err = new DriverError("stale_version", 'Version "1" of window "w1" is stale', {
    map: {
      window: "w1",
      version: 3,
      elements: [{
        id: "b7",
        role: "AXButton",
        name: "7",
        bounds: { x: 0, y: 0, w: 10, h: 10 },
        enabled: true,
        focused: false,
        actions: ["press"],
      }],
    },
  });
  const r = toolError(err);
  assert.equal(r.isError, true);
  assert.equal(
    r.content[0]!.text,
    'error stale_version: Version "1" of window "w1" is stale\ncurrent map: window=w1 version=3 elements=1\n' +
      `${OPEN}\nb7 AXButton "7"\n${CLOSE}`,
  );
});

Deno.test("toolError() lists invalid_params issues and other data as key=value", () => {
  const bad = toolError(
    new DriverError("invalid_params", "Bad", {
      issues: [{ path: ["steps", 0, "id"], message: "Required" }],
    }),
  );
  assert.equal(bad.content[0]!.text, "error invalid_params: Bad\nissues:\n  steps.0.id: Required");
  const na = toolError(
    new DriverError("action_not_supported", "No", { actions: ["focus", "click"] }),
  );
  assert.equal(na.content[0]!.text, "error action_not_supported: No\nactions=focus,click");
});

Deno.test("toolError() makes a bug an internal error without repeating its message", () => {
  assert.equal(toolError(new Error("Boom")).content[0]!.text, "error internal: Boom");
});
