import assert from "node:assert/strict";
import { X11Display } from "./display.ts";
import { sendInput } from "./input.ts";
import { pingFocusedApp } from "./ping.ts";
import { mousepadWindow, run, start, waitFor } from "./_testing.ts";
import { desktopTests } from "../../tests/support/desktop.ts";

const desktop = desktopTests();

/** Starts mousepad, focuses it, runs `fn`, stops it (resuming it first if stopped). */
async function focusedMousepad(fn: (d: X11Display, pid: number) => Promise<void>) {
  using d = X11Display.open();
  const app = start("mousepad", "--disable-server");
  try {
    const win = await mousepadWindow(app.pid);
    await run("xdotool", "windowfocus", "--sync", String(win));
    await fn(d, app.pid);
  } finally {
    Deno.kill(app.pid, "SIGCONT");
    await app.stop();
  }
}

Deno.test({
  ...desktop,
  name: "pingFocusedApp() with the focus on the root window is no_client",
  fn: async () => {
    using d = X11Display.open();
    await run("xdotool", "windowfocus", "--sync", String(d.rootWindow));
    assert.equal(await pingFocusedApp(d, 1_000), "no_client");
  },
});

Deno.test({
  ...desktop,
  name: "pingFocusedApp() is answered by a focused GTK app and times out on a stopped one",
  fn: () =>
    focusedMousepad(async (d, pid) => {
      assert.equal(await pingFocusedApp(d, 5_000), "answered");
      Deno.kill(pid, "SIGSTOP");
      assert.equal(await pingFocusedApp(d, 200), "timeout");
      Deno.kill(pid, "SIGCONT");
      assert.equal(await pingFocusedApp(d, 5_000), "answered");
    }),
});

Deno.test({
  ...desktop,
  name: "pingFocusedApp() on a window that goes before it could answer is gone, not timed out",
  fn: () =>
    focusedMousepad(async (d, pid) => {
      // Stopped, mousepad cannot answer; its window is taken off screen by the server, as a
      // popup closes on the click that picked its option.
      const win = await mousepadWindow(pid);
      Deno.kill(pid, "SIGSTOP");
      const ping = pingFocusedApp(d, 10_000);
      await new Promise((r) => setTimeout(r, 100));
      await run("xdotool", "windowunmap", String(win));
      assert.equal(await ping, "gone");
    }),
});

Deno.test({
  ...desktop,
  name: "characters missing from the keymap reach an app that reads its keys 700 ms late",
  fn: () =>
    focusedMousepad(async (d, pid) => {
      // Stopped, mousepad reads the keys only after the 100 ms margin that typing used to
      // allow before unbinding them: it answers the ping once it has read them instead.
      Deno.kill(pid, "SIGSTOP");
      const resume = setTimeout(() => Deno.kill(pid, "SIGCONT"), 700);
      try {
        await sendInput(d, { kind: "type", text: "ö✓é" }, AbortSignal.timeout(10_000));
      } finally {
        clearTimeout(resume);
        Deno.kill(pid, "SIGCONT");
      }
      await sendInput(d, { kind: "key", keys: "ctrl+a ctrl+c" }, AbortSignal.timeout(10_000));
      let last = "";
      await waitFor('the clipboard to hold "ö✓é"', async () => {
        last = await run("xclip", "-o", "-selection", "clipboard");
        return last === "ö✓é" ? true : undefined;
      }).catch((err) => {
        throw new Error(`${err.message}; it held "${last}"`, { cause: err });
      });
    }),
});
