/**
 * `clipboard_set` and `clipboard_get` (issue 46) between real apps: text the driver puts on
 * the clipboard is pasted by keys into Qt's FeatherPad, and text GTK's mousepad copies (or
 * merely selects, for the primary selection) is what the driver reads. Every effect is
 * checked by pyatspi in its own process.
 */
import assert from "node:assert/strict";
import { type App, requireDesktop, startApp } from "./support/apps.ts";
import { session } from "./support/client.ts";
import { oracleNodes } from "./support/oracle.ts";
import { driverWindowOf } from "./support/x_window.ts";

requireDesktop();

const WM = Deno.env.get("ALLTERNIT_SESSION_WM") ?? "none";

/** The text areas' texts of `pid`, as pyatspi reads them, once one holds `want`. */
async function textsUntil(pid: number, want: string): Promise<string[]> {
  const deadline = performance.now() + 5_000;
  let texts: string[] = [];
  while (performance.now() < deadline) {
    texts = (await oracleNodes(pid)).map((n) => n.text ?? "").filter((t) => t !== "");
    if (texts.some((t) => t.includes(want))) return texts;
    await new Promise((r) => setTimeout(r, 100));
  }
  return texts;
}

Deno.test(`clipboard: set by the driver, pasted into FeatherPad; copied in mousepad, read (window manager: ${WM})`, async () => {
  const apps: App[] = [];
  const s = await session();
  try {
    apps.push(await startApp("featherpad", [], "Untitled"));
    apps.push(await startApp("mousepad", ["--disable-server"], "Mousepad"));
    const [feather, mouse] = apps as [App, App];
    const qt = await driverWindowOf(s.client, feather.pid, /Untitled/);
    const gtk = await driverWindowOf(s.client, mouse.pid, /Mousepad/);

    // Driver → Qt: the driver owns the clipboard, FeatherPad pastes from it.
    const words = "Grüße aus 東京 — pasted";
    const set = await s.client.call("clipboard_set", { text: words });
    assert.equal(set.bytes, new TextEncoder().encode(words).length);
    await s.client.call("pixel_key", { window: qt, keys: "ctrl+v" });
    const pasted = await textsUntil(feather.pid, words);
    assert.ok(pasted.some((t) => t.includes(words)), `FeatherPad holds ${JSON.stringify(pasted)}`);
    assert.equal((await s.client.call("clipboard_get", {})).text, words, "read back as set");

    // GTK → driver: mousepad copies, the driver reads; selecting alone sets the primary.
    const typed = "copied from mousepad 42";
    await s.client.call("pixel_type_text", { window: gtk, text: typed });
    assert.ok((await textsUntil(mouse.pid, typed)).some((t) => t.includes(typed)));
    await s.client.call("pixel_key", { window: gtk, keys: "ctrl+a" });
    // GTK takes the primary selection on its own time after the keys: waited for, like
    // the clipboard below (CI once read it before mousepad owned it).
    const until = performance.now() + 3_000;
    let primary = await s.client.call("clipboard_get", { selection: "primary" });
    while (primary.text !== typed && performance.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      primary = await s.client.call("clipboard_get", { selection: "primary" });
    }
    assert.equal(primary.text, typed, "the selected text is the primary selection");
    await s.client.call("pixel_key", { window: gtk, keys: "ctrl+c" });
    const deadline = performance.now() + 3_000;
    let got = await s.client.call("clipboard_get", {});
    while (got.text !== typed && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      got = await s.client.call("clipboard_get", {});
    }
    assert.equal(got.text, typed, "mousepad's copy is what the driver reads");
    const cut = await s.client.call("clipboard_get", { max_bytes: 6 });
    assert.deepEqual([cut.text, cut.truncated], ["copied", true]);
  } finally {
    await s.close();
    for (const app of apps) await app.stop();
  }
});

Deno.test("clipboard: a text over the string bound is refused, and the driver stays up", async () => {
  const s = await session();
  try {
    await assert.rejects(
      () => s.client.call("clipboard_set", { text: "x".repeat(100_001) }),
      /<=100000 characters/,
    );
    const hello = await s.client.call("hello", {});
    assert.ok(hello.ops.includes("clipboard_get"));
  } finally {
    await s.close();
  }
});
