/**
 * `launch_app`, `close_app` and `list_apps` with `launchable` (issue 46) on the system's
 * own desktop entries: an allowed entry starts (X shows its window with the file it was
 * given), an unlisted one is refused and says how to allow it, a close with unsaved
 * changes answers the app's question without dismissing it, `force` ends the app, and
 * `app_control: false` turns it all off. Effects are read from X and /proc.
 */
import assert from "node:assert/strict";
import { DriverError } from "../protocol/errors.ts";
import { requireDesktop } from "./support/apps.ts";
import { session } from "./support/client.ts";

requireDesktop();

const MOUSEPAD = "org.xfce.mousepad";

async function run(cmd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  return new TextDecoder().decode(out.stdout);
}

/** Titles X shows for process `pid`'s windows. */
async function xTitles(pid: number): Promise<string[]> {
  const ids = (await run("xdotool", "search", "--onlyvisible", "--pid", String(pid))).trim()
    .split("\n").filter(Boolean);
  return await Promise.all(
    ids.map(async (id) => (await run("xdotool", "getwindowname", id)).trim()),
  );
}

const alive = (pid: number) => {
  try {
    return !Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1]!.startsWith("Z");
  } catch {
    return false;
  }
};

/** Rejects with a DriverError whose code and message match. */
async function refused(call: Promise<unknown>, code: string, message: RegExp) {
  await assert.rejects(call, (err: unknown) => {
    assert.ok(err instanceof DriverError, String(err));
    assert.equal(err.code, code);
    assert.match(err.message, message);
    return true;
  });
}

Deno.test("launch_app: an allowed entry starts with its file; unsaved changes stop a close", async () => {
  const s = await session({}, { launch: [MOUSEPAD] });
  const dir = await Deno.makeTempDir({ prefix: "allternit-launch-" });
  const file = `${dir}/notes.txt`;
  await Deno.writeTextFile(file, "first line\n");
  let pid = 0;
  try {
    const listed = await s.client.call("list_apps", { launchable: true });
    const entries = new Map(listed.launchable!.map((e) => [e.id, e]));
    assert.equal(entries.get(`${MOUSEPAD}.desktop`)?.allowed, true);
    assert.equal(entries.get("featherpad.desktop")?.allowed, false);

    await refused(
      s.client.call("launch_app", { id: "featherpad" }),
      "action_not_supported",
      /not on this driver's allow-list.*"featherpad" to "launch"/,
    );

    const started = await s.client.call("launch_app", { id: MOUSEPAD, args: [file] });
    pid = started.app.pid;
    assert.ok(started.app.windows.length > 0, JSON.stringify(started));
    assert.ok(
      (await xTitles(pid)).some((t) => t.includes("notes.txt")),
      "X shows mousepad's window with the file",
    );

    // Unsaved words: the close is answered by mousepad's question, which stays up.
    const window = started.app.windows[0]!.window;
    await s.client.call("pixel_type_text", { window, text: "more words" });
    const asked = await s.client.call("close_app", { app: pid });
    assert.equal(asked.ok, false, JSON.stringify(asked));
    assert.equal(asked.exited, false);
    assert.ok(asked.windows.some((w) => !w.closed));
    assert.ok(asked.opened && asked.opened.length > 0, `the question: ${JSON.stringify(asked)}`);
    assert.ok(alive(pid), "mousepad still runs, its question up");
    assert.equal(await Deno.readTextFile(file), "first line\n", "nothing was saved for it");

    const ended = await s.client.call("close_app", { app: pid, force: true, grace_ms: 300 });
    assert.equal(ended.exited, true, JSON.stringify(ended));
    assert.equal(ended.forced, true);
    assert.equal(alive(pid), false, "/proc no longer has mousepad");
    pid = 0;
  } finally {
    if (pid > 0 && alive(pid)) Deno.kill(pid, "SIGKILL");
    await s.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("close_app: a Qt app with nothing unsaved closes and exits", async () => {
  const s = await session({}, { launch: ["featherpad"] });
  let pid = 0;
  try {
    const started = await s.client.call("launch_app", { id: "featherpad.desktop" });
    pid = started.app.pid;
    assert.ok((await xTitles(pid)).length > 0, "X shows FeatherPad");
    const closed = await s.client.call("close_app", { app: pid });
    assert.equal(closed.ok, true, JSON.stringify(closed));
    assert.ok(closed.windows.every((w) => w.closed));
    assert.equal(alive(pid), false);
    pid = 0;
  } finally {
    if (pid > 0 && alive(pid)) Deno.kill(pid, "SIGKILL");
    await s.close();
  }
});

Deno.test("app_control: false turns launching and closing off; hello says so", async () => {
  const s = await session({}, { app_control: false, launch: [MOUSEPAD] });
  try {
    const hello = await s.client.call("hello", {});
    assert.deepEqual(hello.app_control, { enabled: false, launch: [MOUSEPAD] });
    await refused(
      s.client.call("launch_app", { id: MOUSEPAD }),
      "action_not_supported",
      /app control is off/,
    );
    await refused(
      s.client.call("close_app", { app: "nothing-here" }),
      "action_not_supported",
      /app control is off/,
    );
  } finally {
    await s.close();
  }
});
