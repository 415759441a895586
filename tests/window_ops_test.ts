/**
 * `window` (issue 46) on real GTK 3, Qt 5 and Chromium windows, with no window manager and
 * under openbox: each operation's effect is read from X by xwininfo and xprop, never taken
 * from the driver's answer alone; a close with unsaved changes answers the app's dialog.
 *
 * Runs bare (`bash tests/run.sh tests/window_ops_test.ts`) and under openbox (tests/run.sh's
 * WM_TESTS).
 */
import assert from "node:assert/strict";
import type { ResultOf } from "../protocol/ops.ts";
import type { DriverClient } from "../rpc/client.ts";
import { type App, chromium, requireDesktop, startApp } from "./support/apps.ts";
import { session } from "./support/client.ts";
import { driverWindowOf, xwininfo } from "./support/x_window.ts";

requireDesktop();

/** The window manager of this session (`none`: a bare X server). */
const WM = Deno.env.get("ALLTERNIT_SESSION_WM") ?? "none";

async function run(cmd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")}: ${text.decode(out.stderr)}`);
  return text.decode(out.stdout);
}

/** What X says of client window `xid`: its inside on screen, map state and EWMH state. */
async function xState(xid: string) {
  const props = await run("xprop", "-id", xid, "_NET_WM_STATE", "WM_STATE");
  return {
    ...await xwininfo(xid),
    maximized: /_NET_WM_STATE_MAXIMIZED_VERT/.test(props) &&
      /_NET_WM_STATE_MAXIMIZED_HORZ/.test(props),
    fullscreen: /_NET_WM_STATE_FULLSCREEN/.test(props),
    iconic: /window state: Iconic/.test(props),
  };
}

/** The screen's size, by xdpyinfo. */
async function screen(): Promise<{ w: number; h: number }> {
  const m = (await run("xdpyinfo")).match(/dimensions:\s+(\d+)x(\d+) pixels/)!;
  return { w: Number(m[1]), h: Number(m[2]) };
}

/** The X client window of process `pid` titled like `title`. */
async function clientOf(pid: number, title: RegExp): Promise<string> {
  const deadline = performance.now() + 20_000;
  while (performance.now() < deadline) {
    const ids = (await run("xdotool", "search", "--onlyvisible", "--pid", String(pid))
      .catch(() => ""))
      .trim().split("\n").filter(Boolean);
    for (const id of ids) {
      const name = await run("xprop", "-id", id, "_NET_WM_NAME", "WM_NAME").catch(() => "");
      if (title.test(name)) return id;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no X window of pid ${pid} titled ${title}`);
}

/** Polls X until `ok` holds of the window's state (the WM may finish after the answer). */
async function xUntil(xid: string, ok: (s: Awaited<ReturnType<typeof xState>>) => boolean) {
  const deadline = performance.now() + 3_000;
  let s = await xState(xid);
  while (!ok(s) && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    s = await xState(xid);
  }
  return s;
}

/** Every placement operation on one window, each checked by X. */
async function placements(client: DriverClient, window: string, xid: string, label: string) {
  type Done = ResultOf<"window">;
  const op = (params: Record<string, unknown>) =>
    client.call("window", { window, ...params } as never) as Promise<Done>;
  const must = (out: Done, what: string) =>
    assert.equal(out.ok, true, `${label}: ${what}: ${JSON.stringify(out)}`);

  const before = (await client.call("read_ui", { window })).elements![0]!.bounds;
  const from = await xState(xid);
  const moved = await op({ action: "move", x: 120, y: 90 });
  must(moved, "move");
  let x = await xUntil(xid, (s) => s.x === 120 && s.y === 90);
  assert.deepEqual([x.x, x.y], [120, 90], `${label}: X places the window at 120,90`);
  assert.deepEqual([moved.state.bounds.x, moved.state.bounds.y], [120, 90]);

  must(await op({ action: "resize", w: 520, h: 410 }), "resize");
  x = await xUntil(xid, (s) => s.w === 520 && s.h === 410);
  assert.deepEqual([x.w, x.h], [520, 410], `${label}: X sizes the window 520×410`);

  // The driver's map follows: a read gives the window's new place (its frame's, for a
  // toolkit that reports the window manager's frame: GTK 3), moved as X moved it.
  const after = (await client.call("read_ui", { window })).elements![0]!.bounds;
  assert.deepEqual(
    [after.x - before.x, after.y - before.y],
    [120 - from.x, 90 - from.y],
    `${label}: the map's window moved with X's`,
  );

  const full = await screen();
  must(await op({ action: "maximize" }), "maximize");
  x = await xUntil(xid, (s) => WM === "none" ? s.w === full.w : s.maximized);
  if (WM === "none") assert.deepEqual([x.x, x.y, x.w, x.h], [0, 0, full.w, full.h]);
  else assert.ok(x.maximized, `${label}: xprop shows both MAXIMIZED states`);
  must(await op({ action: "restore" }), "restore after maximize");
  x = await xUntil(xid, (s) => !s.maximized && s.w === 520);
  assert.deepEqual([x.w, x.h, x.maximized], [520, 410, false], `${label}: restored size`);

  must(await op({ action: "fullscreen" }), "fullscreen");
  x = await xUntil(xid, (s) => WM === "none" ? s.w === full.w : s.fullscreen);
  if (WM === "none") assert.deepEqual([x.w, x.h], [full.w, full.h]);
  else assert.ok(x.fullscreen, `${label}: xprop shows FULLSCREEN`);
  must(await op({ action: "restore" }), "restore after fullscreen");
  x = await xUntil(xid, (s) => !s.fullscreen && s.w === 520);
  assert.deepEqual([x.w, x.fullscreen], [520, false]);

  must(await op({ action: "minimize" }), "minimize");
  x = await xUntil(xid, (s) => !s.viewable);
  assert.equal(x.viewable, false, `${label}: X shows the window unmapped`);
  if (WM !== "none") assert.ok(x.iconic, `${label}: WM_STATE is Iconic`);
  must(await op({ action: "restore" }), "restore after minimize");
  x = await xUntil(xid, (s) => s.viewable);
  assert.equal(x.viewable, true, `${label}: X shows the window again`);

  must(await op({ action: "focus" }), "focus");
  const focused = (await run("xdotool", "getwindowfocus")).trim();
  const active = WM === "none"
    ? focused
    : (await run("xprop", "-root", "_NET_ACTIVE_WINDOW")).match(/0x[0-9a-f]+/)?.[0];
  assert.equal(Number(active), Number(xid), `${label}: X gives the window the focus`);
}

/** Starts an app, runs `body` with a driver session, and stops both. */
async function withApp(
  start: () => Promise<App>,
  body: (client: DriverClient, app: App) => Promise<void>,
) {
  const app = await start();
  const s = await session();
  try {
    await body(s.client, app);
  } finally {
    await s.close();
    await app.stop();
  }
}

Deno.test(`window: GTK 3 mousepad, every placement (window manager: ${WM})`, async () => {
  await withApp(
    () => startApp("mousepad", ["--disable-server"], "Mousepad"),
    async (client, app) => {
      const window = await driverWindowOf(client, app.pid, /Mousepad/);
      await placements(client, window, await clientOf(app.pid, /Mousepad/), "mousepad");
    },
  );
});

Deno.test(`window: Qt 5 FeatherPad, every placement (window manager: ${WM})`, async () => {
  await withApp(
    () => startApp("featherpad", [], "Untitled"),
    async (client, app) => {
      const window = await driverWindowOf(client, app.pid, /Untitled/);
      await placements(client, window, await clientOf(app.pid, /Untitled/), "featherpad");
    },
  );
});

Deno.test(`window: Chromium, every placement; close (window manager: ${WM})`, async () => {
  const page = await Deno.makeTempFile({ prefix: "allternit-window-", suffix: ".html" });
  await Deno.writeTextFile(page, "<!doctype html><title>Window ops</title><button>Last</button>");
  await withApp(
    () => chromium(page, "Window ops", "Last"),
    async (client, app) => {
      const window = await driverWindowOf(client, app.pid, /Window ops/);
      const xid = await clientOf(app.pid, /Window ops/);
      await placements(client, window, xid, "chromium");
      const closed = await client.call("window", { window, action: "close" });
      assert.equal(closed.ok, true, JSON.stringify(closed));
      assert.equal(closed.state.exists, false);
      await assert.rejects(() => run("xwininfo", "-id", xid), "X no longer has the window");
    },
  );
});

Deno.test(`window: a close with unsaved changes answers the dialog (window manager: ${WM})`, async () => {
  await withApp(
    () => startApp("mousepad", ["--disable-server"], "Mousepad"),
    async (client, app) => {
      const window = await driverWindowOf(client, app.pid, /Mousepad/);
      await client.call("pixel_type_text", { window, text: "unsaved words" });
      const out = await client.call("window", { window, action: "close" });
      assert.equal(out.ok, false, "the window stays while the app asks");
      assert.equal(out.state.exists, true);
      assert.ok(
        out.opened?.some((w) => w.role === "dialog" || w.role === "alert"),
        `the save question comes back in opened: ${JSON.stringify(out.opened)}`,
      );
      // Nothing was dismissed: X still shows the main window.
      const xid = await clientOf(app.pid, /Mousepad/);
      assert.equal((await xState(xid)).viewable, true);
    },
  );
});

Deno.test("window: bad params are refused with the field named", async () => {
  const s = await session();
  try {
    await assert.rejects(
      () => s.client.call("window", { window: "w0", action: "move", x: 1 } as never),
      /y/,
    );
    await assert.rejects(
      () => s.client.call("window", { window: "w0", action: "focus", force: true } as never),
      /force/,
    );
    await assert.rejects(
      () => s.client.call("window", { window: "wnothere", action: "raise" }),
      /window/i,
    );
  } finally {
    await s.close();
  }
});
