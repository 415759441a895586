/**
 * Inputs no screen can mean are refused by the schema, naming the field, before they reach
 * an OS call (issue 22): a coordinate past 2^31 used to fail inside the FFI as `internal`,
 * and a scroll of 10^12 steps flooded the accessibility bus. The driver keeps serving.
 */
import assert from "node:assert/strict";
import { session } from "./support/client.ts";
import { requireDesktop } from "./support/apps.ts";

requireDesktop();

Deno.test("out-of-screen coordinates and huge scrolls are invalid_params; the driver serves on", async () => {
  const s = await session();
  try {
    const calls: [string, Record<string, unknown>, string][] = [
      ["pixel_click", { x: 1e12, y: 0 }, "x"],
      ["pixel_move", { x: 0, y: 2 ** 31 }, "y"],
      ["pixel_drag", { from: { x: -1e308, y: 0 }, to: { x: 0, y: 0 } }, "from.x"],
      ["pixel_scroll", { dx: 0, dy: 1e12 }, "dy"],
      ["pixel_scroll", { dx: 0, dy: 1, x: 2 ** 53 + 1 }, "x"],
    ];
    for (const [op, params, field] of calls) {
      const err = await s.client.call(op as "pixel_click", params as never).then(
        () => assert.fail(`${op} ${JSON.stringify(params)} was accepted`),
        (e) => e,
      );
      assert.equal(err.code, "invalid_params", `${op}: ${err.message}`);
      const paths = (err.data.issues as { path: string[] }[]).map((i) => i.path.join("."));
      assert.ok(paths.includes(field), `${op} names ${field}: ${paths}`);
    }
    assert.equal((await s.client.call("hello")).protocol, 1, "still serving");
  } finally {
    await s.close();
  }
});
