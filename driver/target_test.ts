import assert from "node:assert/strict";
import type { AppInfo, Engine } from "../model/engine.ts";
import { DriverError } from "../protocol/errors.ts";
import { AppWindows } from "./app_windows.ts";
import { type Listings, resolveTarget } from "./target.ts";

const bounds = { x: 0, y: 0, w: 10, h: 10 };
const app = (bus: string, name: string, windows: string[]): AppInfo => ({
  app: bus,
  pid: 1,
  name,
  windows: windows.map((window) => ({ window, title: window, bounds, focused: false })),
});

/** An engine whose listings are `listings`, one per call. */
function engine(...listings: AppInfo[][]): Engine {
  return { listApps: () => Promise.resolve(listings.shift() ?? []) } as unknown as Engine;
}

function remembering(): Listings {
  const windows = new AppWindows();
  return {
    listed: (apps) => apps.forEach((a) => windows.listed(a, 0)),
    appOf: (w) => windows.appOf(w),
  };
}

Deno.test("target: a window whose app quit answers app_not_running, a closed one not found", async () => {
  const signal = AbortSignal.timeout(1_000);
  const pad = app(":1.5", "pad", ["wmain", "wdialog"]);
  const calc = app(":1.6", "calc", ["wcalc"]);
  const seen = remembering();
  const e = engine([pad, calc], [app(":1.5", "pad", ["wmain"])], [app(":1.5", "pad", ["wmain"])]);
  assert.equal((await resolveTarget(e, { window: "wcalc" }, signal, seen)).appName, "calc");
  // calc quit; pad closed its dialog.
  const quit = await resolveTarget(e, { window: "wcalc" }, signal, seen).catch((err) => err);
  assert.ok(quit instanceof DriverError);
  assert.equal(quit.code, "app_not_running", quit.message);
  const closed = await resolveTarget(e, { window: "wdialog" }, signal, seen).catch((err) => err);
  assert.equal(closed.code, "window_not_found", closed.message);
});
