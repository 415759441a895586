import assert from "node:assert/strict";
import type { AppInfo, WindowInfo } from "../model/engine.ts";
import { refreshFromX, withXApps } from "./x_apps.ts";

const win = (window: string, title: string, x = 0): WindowInfo => ({
  window,
  title,
  bounds: { x, y: 0, w: 100, h: 100 },
  focused: false,
});

const mousepad: AppInfo = {
  app: ":1.4",
  pid: 40,
  name: "mousepad",
  windows: [win("w1", "Untitled 1")],
};

Deno.test("withXApps() adds apps only X knows, and leaves out X's view of tree apps", () => {
  const x: AppInfo[] = [
    { app: "x11:mousepad:40", pid: 40, name: "mousepad", windows: [win("x1", "Untitled 1")] },
    { app: "x11:xcalc:50", pid: 50, name: "xcalc", windows: [win("x2", "Calculator")] },
    { app: "x11:tknotes:60", pid: 60, name: "tknotes", windows: [win("x3", "A"), win("x4", "B")] },
    { app: "x11:!toplevel", pid: 0, name: "!toplevel", windows: [win("x5", "Unplaced")] },
  ];
  assert.deepEqual(withXApps([mousepad], x).map((a) => [a.name, a.pid, a.windows.length]), [
    ["mousepad", 40, 1],
    ["xcalc", 50, 1],
    ["tknotes", 60, 2],
    ["!toplevel", 0, 1],
  ]);
  assert.deepEqual(withXApps([mousepad], [])[0], mousepad, "tree apps pass as they are");
});

Deno.test("withXApps() refreshes a tree app listed from memory from its X windows", () => {
  const hung: AppInfo = {
    ...mousepad,
    windows: [win("w1", "Untitled 1", 0), win("w2", "Old title", 500)],
    live: { state: "degraded", reason: "app_not_responding", age_ms: 10 },
  };
  const x: AppInfo = {
    app: "x11:mousepad:40",
    pid: 40,
    name: "mousepad",
    windows: [win("x1", "Untitled 1", 7), win("x2", "New title", 501), win("x3", "Save As")],
  };
  const [app] = withXApps([hung], [x]);
  assert.deepEqual(app!.windows.map((w) => [w.window, w.title, w.bounds.x]), [
    ["w1", "Untitled 1", 7], // same title: X's bounds
    ["w2", "New title", 501], // same place: X's title
    ["x3", "Save As", 0], // opened while it did not answer: vision reads it
  ]);
  assert.deepEqual(app!.live, hung.live, "still marked");
});

Deno.test("refreshFromX() lists every X window of an app never listed", () => {
  const never: AppInfo = { app: ":1.9", pid: 9, name: "thunar", windows: [] };
  const x: AppInfo = { app: "x11:thunar:9", pid: 9, name: "thunar", windows: [win("x9", "Home")] };
  assert.deepEqual(refreshFromX(never, x).windows.map((w) => w.window), ["x9"]);
});
