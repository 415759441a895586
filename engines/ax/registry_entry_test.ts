import assert from "node:assert/strict";
import { ENGINES, loadEngines } from "../registry.ts";
import { AX_OPS } from "./ops.ts";

Deno.test("the registry lists the ax engine for darwin with its ops, unloaded elsewhere", async () => {
  const entry = ENGINES.find((e) => e.name === "ax");
  assert.ok(entry);
  assert.deepEqual(entry.os, ["darwin"]);
  assert.deepEqual(entry.ops, AX_OPS);
  const [loaded] = await loadEngines([entry], "linux");
  assert.equal(loaded!.engine, undefined);
  assert.deepEqual(loaded!.availability, { available: false, reason: "wrong_os: needs darwin" });
});

Deno.test({
  name: "loading the ax entry off macOS fails with the engine's own wrong_os message",
  ignore: Deno.build.os === "darwin",
  async fn() {
    // As if the registry were asked to load it anyway: the module imports, the engine refuses.
    const entry = ENGINES.find((e) => e.name === "ax")!;
    const [loaded] = await loadEngines([{ ...entry, os: [Deno.build.os] }]);
    assert.deepEqual(loaded!.availability, {
      available: false,
      reason: `The AX engine runs only on macOS: this is "${Deno.build.os}"`,
    });
  },
});
