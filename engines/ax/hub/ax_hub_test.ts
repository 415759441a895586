import assert from "node:assert/strict";
import { DriverError } from "../../../protocol/errors.ts";
import { AxHub } from "./ax_hub.ts";

Deno.test({
  name: "AxHub.start() off macOS: the run-loop worker refuses with wrong_os",
  ignore: Deno.build.os === "darwin",
  async fn() {
    // The real worker module: it loads the frameworks first, which refuses off macOS.
    // A loaded machine can take seconds to start a worker: the deadline is generous.
    const hub = new AxHub({
      startTimeoutMs: 60_000,
      stopRunLoop: () => assert.fail("no run loop to stop"),
    });
    await assert.rejects(() => hub.start(), (err: unknown) => {
      assert.ok(err instanceof DriverError);
      assert.equal(err.code, "driver_unavailable");
      assert.equal(err.data.reason, "wrong_os");
      assert.match(err.message, /^Cannot watch apps: The AX engine runs only on macOS/);
      return true;
    });
    hub.watch(42); // ignored: no worker
    await hub.close();
    await hub.close();
  },
});
