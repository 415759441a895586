/**
 * The keyboard focus taken from the driver while it types (issue 43): the keys stop with
 * `focus_denied` naming the app that took it, at the key after it moved. The test
 * command runs this file bare and again under a window manager. The effect is read by
 * pyatspi in its own process.
 */
import assert from "node:assert/strict";
import { DriverError } from "../protocol/errors.ts";
import { session } from "./support/client.ts";
import { mousepad, requireDesktop, startApp } from "./support/apps.ts";
import { oracleNodes } from "./support/oracle.ts";

requireDesktop();
const MODE = Deno.env.get("ALLTERNIT_SESSION_WM") ?? "none";
/**
 * Keys that may still reach the thief: the driver checks the focus before every key, and
 * the thief's focus change can land between a check and its key.
 */
const RACE = 1;

/** The text of process `pid`'s text fields, as pyatspi reads them. */
async function fieldTexts(pid: number): Promise<string[]> {
  return (await oracleNodes(pid, 2_000)).filter((n) => n.role === "text").map((n) => n.text ?? "");
}

/**
 * Moves the focus to X window `xid` from outside the driver every 20 ms until stopped, as
 * a busy user (or an app that pops up again and again) would: whenever the driver's keys
 * run, the focus is taken from them.
 */
function stealFocus(xid: string): { stop(): Promise<void> } {
  // With a window manager, ask it (as a pager does); without one, set the X focus.
  const step = MODE === "none" ? `windowfocus ${xid}` : `windowactivate ${xid}`;
  const child = new Deno.Command("sh", {
    args: ["-c", `while true; do xdotool ${step} 2>/dev/null; sleep 0.02; done`],
    stdout: "null",
    stderr: "null",
  }).spawn();
  return {
    async stop() {
      child.kill("SIGKILL");
      await child.status;
    },
  };
}

Deno.test(`keys stop with focus_denied when another app takes the focus midway (window manager: ${MODE})`, async () => {
  const pad = await mousepad();
  const other = await startApp(
    "zenity",
    ["--entry", "--title=Thief app", "--text=Name"],
    "Thief app",
  );
  const s = await session();
  try {
    const apps = await s.client.call("list_apps");
    const win = apps.apps.find((a) => a.pid === pad.pid)!.windows[0]!.window;
    const xids = await new Deno.Command("xdotool", {
      args: ["search", "--onlyvisible", "--pid", String(other.pid), "--name", "Thief app"],
      stdout: "piped",
    }).output();
    const thief = new TextDecoder().decode(xids.stdout).trim().split("\n")[0]!;
    const text = "abcdefghij".repeat(1_000);
    const thieving = stealFocus(thief);
    const err = await s.client.call("pixel_type_text", { window: win, text, timeout_ms: 60_000 })
      .then(() => undefined, (e) => e)
      .finally(() => thieving.stop());
    assert.ok(err instanceof DriverError, `the keys were refused: ${err}`);
    assert.equal(err.code, "focus_denied", err.message);
    const holder = err.data.holder as { pid: number; title: string };
    assert.equal(holder.pid, other.pid, `the holder is named: ${JSON.stringify(holder)}`);
    // What reached mousepad is the text's start; what reached the thief is at most the
    // key sent as the focus moved.
    const [typed = ""] = await fieldTexts(pad.pid);
    assert.ok(typed.length < text.length, `${typed.length} keys landed`);
    assert.equal(typed, text.slice(0, typed.length), "mousepad holds the text's start");
    const stolen = (await fieldTexts(other.pid)).join("");
    assert.ok(stolen.length <= RACE, `${stolen.length} keys reached the other app`);
  } finally {
    await s.close();
    await pad.stop();
    await other.stop();
  }
});
