import assert from "node:assert/strict";
import { DriverError } from "../../protocol/errors.ts";
import {
  loadApplicationServices,
  loadCoreFoundation,
  loadCoreGraphics,
  loadMacFrameworks,
  loadObjc,
  requireMacos,
} from "./load.ts";

function refusesWrongOs(fn: () => unknown, os: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "driver_unavailable");
    assert.equal(err.data.reason, "wrong_os");
    assert.equal(err.message, `The AX engine runs only on macOS: this is "${os}"`);
    return true;
  });
}

Deno.test("requireMacos() accepts darwin and refuses every other OS", () => {
  requireMacos("darwin");
  refusesWrongOs(() => requireMacos("linux"), "linux");
  refusesWrongOs(() => requireMacos("windows"), "windows");
});

Deno.test({
  name: "the framework loaders refuse to load off macOS, before any dlopen",
  ignore: Deno.build.os === "darwin",
  fn() {
    const os = Deno.build.os;
    refusesWrongOs(() => loadCoreFoundation(), os);
    refusesWrongOs(() => loadApplicationServices(), os);
    refusesWrongOs(() => loadCoreGraphics(), os);
    refusesWrongOs(() => loadObjc(), os);
    refusesWrongOs(() => loadMacFrameworks(), os);
  },
});
