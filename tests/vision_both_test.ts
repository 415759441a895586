/**
 * read_ui `source: both` (issue 8): an app on the accessibility bus whose tree is too
 * thin to use (a GTK window that is one drawing area) is read from its tree and its
 * pixels together; the tree's nodes keep their ids, the drawn button is a vision
 * element, and pressing it is pixel input the app reacts to.
 */
import assert from "node:assert/strict";
import { session } from "./support/client.ts";
import { canvasApp, requireDesktop } from "./support/apps.ts";

requireDesktop();

Deno.test("a thin tree is read with vision: source both, drawn elements pressable by id", async () => {
  const app = await canvasApp();
  const s = await session();
  try {
    // The first frame may not be painted yet when the window maps: read until it is.
    let r = await s.client.call("read_ui", { app: "canvas-app" });
    for (let i = 0; i < 20 && !r.elements!.some((e) => e.name === "Press"); i++) {
      await new Promise((done) => setTimeout(done, 250));
      r = await s.client.call("read_ui", { window: r.window, fresh: true });
    }
    assert.equal(r.source, "both", `source_reason: ${r.source_reason}`);
    assert.equal(r.source_reason, "sparse_tree");
    assert.equal(r.degraded, true);
    assert.equal(r.engine, "atspi+vision");
    const names = r.elements!.map((e) => e.name);
    assert.ok(names.includes("Canvas app"), "the tree's window");
    assert.ok(names.some((n) => /Ready/.test(n)), `drawn status among ${JSON.stringify(names)}`);
    const press = r.elements!.find((e) => /^Press$/.test(e.name))!;
    assert.ok(press, `the drawn button among ${JSON.stringify(names)}`);

    const res = await s.client.call("act", {
      window: r.window,
      version: r.version,
      id: press.id,
      action: "press",
    });
    assert.equal(res.ok, true);
    const after = await s.client.call("read_ui", { window: r.window, fresh: true });
    assert.equal(after.source, "both");
    const now = after.elements!.map((e) => e.name);
    assert.ok(now.some((n) => /Pressed/.test(n)), `status after the press: ${JSON.stringify(now)}`);
    const win = (els: typeof r.elements) => els!.find((e) => e.name === "Canvas app")!.id;
    assert.equal(win(after.elements), win(r.elements), "tree ids do not move");
  } finally {
    await s.close();
    await app.stop();
  }
});
