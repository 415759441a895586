/**
 * The vision fallback through the served driver (issue 8): an app with no accessibility
 * tree is found and read from pixels, says so, and is operated by element id.
 */
import assert from "node:assert/strict";
import { session } from "./support/client.ts";
import { requireDesktop, waitForWindow } from "./support/apps.ts";
import type { Element } from "../protocol/element.ts";
import type { DriverClient } from "../rpc/client.ts";

requireDesktop();

/** The digits xcalc's display shows (the text beside "DEG" in its display box). */
function displayOf(elements: readonly Element[]): string {
  const deg = elements.find((e) => e.role === "AXStaticText" && e.name === "DEG");
  return elements
    .filter((e) => e.parent === deg?.parent && e.role === "AXStaticText" && /^[\d.]+$/.test(e.name))
    .map((e) => e.name)
    .join(" ");
}

async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    const v = await f().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const keypad = (c: DriverClient) =>
  until("xcalc's keypad", async () => {
    const r = await c.call("read_ui", { app: "xcalc", fresh: true });
    return r.elements!.filter((e) => e.role === "AXButton").length >= 50 ? r : undefined;
  });

Deno.test("read_ui of xcalc comes from vision, says degraded, and its keys work by id", async () => {
  const child = new Deno.Command("xcalc", {
    args: ["-geometry", "+40+40"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const s = await session();
  try {
    await waitForWindow("Calculator|xcalc");
    const r = await keypad(s.client);
    assert.equal(r.engine, "vision");
    assert.equal(r.source, "vision");
    assert.equal(r.degraded, true);
    assert.equal(r.degraded_reason, "no_accessibility_tree");
    assert.equal(r.live.state, "degraded");
    const key = (name: string) => {
      const k = r.elements!.find((e) => e.role === "AXButton" && e.name === name);
      assert.ok(k, `key "${name}"`);
      return { id: k.id, action: "press" as const };
    };
    const b = await s.client.call("run_batch", {
      window: r.window,
      version: r.version,
      steps: [key("7"), key("+"), key("8"), key("=")],
    });
    assert.equal(b.ok, true, JSON.stringify(b.results));
    for (const step of b.results) assert.equal(step.via, "pixel");
    const shown = await until("15 on the display", async () => {
      const now = await s.client.call("read_ui", { window: r.window, fresh: true });
      return displayOf(now.elements!) === "15" ? "15" : undefined;
    });
    assert.equal(shown, "15");
  } finally {
    await s.close();
    child.kill("SIGTERM");
    await child.status;
  }
});
