import assert from "node:assert/strict";
import { isDriverError } from "../../protocol/errors.ts";
import { ENGINES, loadEngines } from "../registry.ts";
import { UiaEngine } from "./engine.ts";
import { UIA_OPS } from "./ops.ts";
import { WorkerClient } from "./worker_client.ts";

const offWindows = Deno.build.os !== "windows";

Deno.test({
  name: "UiaEngine refuses to load off Windows with driver_unavailable / wrong_os",
  ignore: !offWindows,
  fn: () => {
    assert.throws(() => new UiaEngine(), (err: unknown) => {
      assert.ok(isDriverError(err, "driver_unavailable"));
      assert.equal(err.data.reason, "wrong_os");
      assert.equal(err.message, `The UIA engine runs only on Windows: this is "${Deno.build.os}"`);
      return true;
    });
  },
});

Deno.test({
  name: "the registry lists uia for Windows and reports wrong_os here",
  ignore: !offWindows,
  fn: async () => {
    const entry = ENGINES.find((e) => e.name === "uia");
    assert.ok(entry);
    assert.deepEqual(entry.os, ["windows"]);
    assert.deepEqual(entry.ops, UIA_OPS);
    const [loaded] = await loadEngines([entry]);
    assert.equal(loaded!.availability.available, false);
    assert.equal(loaded!.availability.reason, "wrong_os: needs windows");
    await assert.rejects(entry.load(), (e: unknown) => isDriverError(e, "driver_unavailable"));
  },
});

Deno.test({
  name: "the real COM worker answers init with wrong_os through the message protocol",
  ignore: !offWindows,
  fn: async () => {
    const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
    const client = new WorkerClient(worker);
    try {
      await assert.rejects(client.call("init", {}, AbortSignal.timeout(10_000)), (e: unknown) => {
        assert.ok(isDriverError(e, "driver_unavailable"));
        assert.equal(e.data.reason, "wrong_os");
        return true;
      });
      // A call before init is refused as a worker failure, and the worker keeps serving.
      await assert.rejects(
        client.call("focused", { timeoutMs: 10 }, AbortSignal.timeout(10_000)),
        (e: unknown) => isDriverError(e, "internal") && /init was not called/.test(e.message),
      );
      assert.deepEqual(await client.call("close", {}, AbortSignal.timeout(10_000)), { ok: true });
    } finally {
      client.close();
      worker.terminate();
    }
  },
});
