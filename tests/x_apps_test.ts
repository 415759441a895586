/**
 * Every app by the name a person would use (issue 43): apps only X knows (a Tk app, xcalc)
 * are listed by their process name with their real pid and read by that name or pid; an
 * AT-SPI app that stops answering stays listed, degraded, and its window stays readable.
 * Pids and names are checked against `/proc` and the spawned children, not the driver.
 */
import assert from "node:assert/strict";
import { session } from "./support/client.ts";
import { requireDesktop, startApp, waitForWindow } from "./support/apps.ts";
import { mousepad } from "./support/apps.ts";
import { clientProcesses, topLevelWindows, X11Display } from "../platform/x11/mod.ts";
import type { ResultOf } from "../protocol/ops.ts";

requireDesktop();

/** A Tk app as a person starts one: a script with a `#!` line, two toplevels. */
const TK_APP = `#!/usr/bin/python3
import tkinter as tk
root = tk.Tk()
root.title("Tk Notes")
root.geometry("240x120+300+40")
tk.Label(root, text="Hello from Tk", font=("DejaVu Sans", 14)).pack(pady=8)
tk.Button(root, text="Save", font=("DejaVu Sans", 14)).pack()
second = tk.Toplevel(root)
second.title("Tk Second")
second.geometry("200x80+300+220")
tk.Label(second, text="Second window", font=("DejaVu Sans", 14)).pack(pady=8)
root.mainloop()
`;

/** The process name as `ps` shows it: `/proc/PID/comm`. */
const comm = (pid: number) => Deno.readTextFileSync(`/proc/${pid}/comm`).trim();

type Apps = ResultOf<"list_apps">["apps"];

async function stop(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch { /* gone */ }
  await child.status;
}

Deno.test("a Tk app and xcalc are listed by process name and real pid, and read by either", async () => {
  const dir = await Deno.makeTempDir({ prefix: "allternit-tk-" });
  const script = `${dir}/tknotes`;
  await Deno.writeTextFile(script, TK_APP);
  await Deno.chmod(script, 0o755);
  const tk = new Deno.Command(script, { stdout: "null", stderr: "null" }).spawn();
  const xcalc = new Deno.Command("xcalc", {
    args: ["-geometry", "+20+40"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const s = await session();
  try {
    await waitForWindow("Tk Notes");
    await waitForWindow("Tk Second");
    await waitForWindow("Calculator");
    // What ps says, not the driver: the script's name is its process name.
    assert.equal(comm(tk.pid), "tknotes");
    assert.equal(comm(xcalc.pid), "xcalc");

    const listed = await s.client.call("list_apps", {});
    const byPid = (pid: number) => listed.apps.filter((a) => a.pid === pid);
    const [tkApp, ...moreTk] = byPid(tk.pid);
    assert.ok(tkApp, `the Tk app (pid ${tk.pid}) is listed: ${JSON.stringify(listed.apps)}`);
    assert.equal(moreTk.length, 0, "one app for both its toplevels");
    assert.equal(tkApp.name, "tknotes");
    assert.deepEqual(tkApp.windows.map((w) => w.title).sort(), ["Tk Notes", "Tk Second"]);
    const [xcalcApp] = byPid(xcalc.pid);
    assert.equal(xcalcApp?.name, "xcalc");
    assert.deepEqual(xcalcApp.windows.map((w) => w.title), ["Calculator"]);
    assert.equal(listed.engine, "atspi", "served by the tree engine, X-only apps added");

    for (const [app, pid] of [["tknotes", tk.pid], [tk.pid, tk.pid]] as const) {
      const r = await s.client.call("read_ui", { app });
      assert.equal(r.pid, pid, `read_ui {app: ${app}}`);
      assert.equal(r.app, "tknotes");
      assert.equal(r.source, "vision");
      assert.ok(tkApp.windows.some((w) => w.window === r.window), "a window list_apps gave");
      assert.ok(r.elements!.length > 1, "elements read from its pixels");
    }
    for (const app of ["xcalc", xcalc.pid]) {
      const r = await s.client.call("read_ui", { app });
      assert.equal(r.pid, xcalc.pid, `read_ui {app: ${app}}`);
      assert.equal(r.window, xcalcApp.windows[0]!.window);
    }
    const missing = await s.client.call("read_ui", { app: "no-such-app" }).catch((e) => e);
    assert.equal(missing.code, "app_not_running");
  } finally {
    await s.close();
    await stop(tk);
    await stop(xcalc);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("each source of a window's pid places the clients it exists for", async () => {
  const xcalc = new Deno.Command("xcalc", { stdout: "null", stderr: "null" }).spawn();
  using display = X11Display.open();
  try {
    await waitForWindow("Calculator");
    const mine = topLevelWindows(display).filter((w) => w.instance === "xcalc");
    assert.equal(mine.length, 1);
    const w = mine[0]!;
    assert.equal(w.pid, 0, "Xt sets no _NET_WM_PID");
    // The X server's word (X-Resource), then /proc alone (WM_CLIENT_MACHINE + WM_COMMAND).
    assert.deepEqual(clientProcesses(display, mine, ["xres"]).get(w.xid), {
      pid: xcalc.pid,
      name: "xcalc",
      via: "xres",
    });
    assert.deepEqual(clientProcesses(display, mine, ["proc"]).get(w.xid), {
      pid: xcalc.pid,
      name: "xcalc",
      via: "proc",
    });
    assert.equal(clientProcesses(display, mine, ["net_wm_pid"]).size, 0);
  } finally {
    await stop(xcalc);
  }
});

Deno.test("an AT-SPI app that stops answering stays listed, degraded, and readable", async () => {
  const editor = await mousepad();
  const other = await startApp(
    "zenity",
    ["--info", "--title=Other app", "--text=Still here"],
    "Other app",
  );
  const s = await session();
  let stopped = false;
  try {
    const before = await s.client.call("read_ui", { app: editor.pid });
    assert.equal(before.live.state, "live");
    const find = (apps: Apps, pid: number) => apps.find((a) => a.pid === pid);
    assert.equal(find((await s.client.call("list_apps", {})).apps, editor.pid)?.live, undefined);

    Deno.kill(editor.pid, "SIGSTOP");
    stopped = true;
    const first = await s.client.call("list_apps", {});
    const started = performance.now();
    const second = await s.client.call("list_apps", {});
    const secondMs = performance.now() - started;
    for (const listed of [first, second]) {
      const hung = find(listed.apps, editor.pid);
      assert.ok(hung, `the stopped app stays listed: ${JSON.stringify(listed.apps)}`);
      assert.equal(hung.name, "mousepad");
      assert.equal(hung.live?.state, "degraded");
      assert.equal(hung.live?.reason, "app_not_responding");
      assert.ok(hung.windows.some((w) => w.window === before.window), "with its window");
      const fine = find(listed.apps, other.pid);
      assert.ok(fine, "the other app lists too");
      assert.equal(fine.live, undefined, "and normally");
    }
    assert.ok(secondMs < 1_000, `a known hung app does not stall the listing (${secondMs} ms)`);

    // Its map answers from memory while fresh (at most 3 s: 1.5 probe periods), then
    // says the app does not answer, every time, rather than fail or drop it.
    for (const params of [{ window: before.window }, { app: "mousepad" }, { app: editor.pid }]) {
      const deadline = performance.now() + 8_000;
      let r: ResultOf<"read_ui">;
      do {
        r = await s.client.call("read_ui", params);
        assert.equal(r.window, before.window, JSON.stringify(params));
        assert.deepEqual(r.elements!.map((e) => e.id), before.elements!.map((e) => e.id));
        if (r.live.state === "degraded") break;
        await new Promise((ok) => setTimeout(ok, 250));
      } while (performance.now() < deadline);
      assert.equal(r.live.state, "degraded", JSON.stringify(params));
      assert.equal(r.live.reason, "app_not_responding");
    }
  } finally {
    if (stopped) Deno.kill(editor.pid, "SIGCONT");
    try {
      // Answering again, it is listed as usual.
      const deadline = performance.now() + 10_000;
      let live: unknown = "unset";
      while (performance.now() < deadline) {
        const apps = (await s.client.call("list_apps", {})).apps;
        live = apps.find((a) => a.pid === editor.pid)?.live;
        if (live === undefined) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(live, undefined, "no longer degraded once it answers");
    } finally {
      await s.close();
      await other.stop();
      await editor.stop();
    }
  }
});
