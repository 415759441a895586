import assert from "node:assert/strict";
import type { AppInfo, WindowInfo } from "../model/engine.ts";
import { inTree, newXWindows, refreshFromX, withXApps } from "./x_apps.ts";

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

Deno.test("withXApps() adds to a live tree app only the X dialogs its tree lacks", () => {
  const dialog = (window: string, title: string, x: number): WindowInfo => ({
    ...win(window, title, x),
    role: "dialog",
    modal: true,
  });
  const x: AppInfo = {
    app: "x11:mousepad:40",
    pid: 40,
    name: "mousepad",
    // Its own window, a dialog the tree has too, a dialog on no bus (a GTK file chooser).
    windows: [
      win("x1", "Untitled 1"),
      dialog("x2", "Save As", 200),
      dialog("x3", "Open File", 400),
    ],
  };
  const tree: AppInfo = {
    ...mousepad,
    windows: [win("w1", "Untitled 1"), win("w2", "Save As", 200)],
  };
  const [app] = withXApps([tree], [x]);
  assert.deepEqual(app!.windows.map((w) => [w.window, w.title, w.modal]), [
    ["w1", "Untitled 1", undefined],
    ["w2", "Save As", undefined],
    ["x3", "Open File", true],
  ]);
  assert.deepEqual(withXApps([mousepad], [{ ...x, windows: [win("x1", "Untitled 1")] }]), [
    mousepad,
  ]);
});

Deno.test("newXWindows() names what X shows since the action that the tree did not", () => {
  const now = [win("x1", "Main"), win("x2", "Old dialog", 200), win("x3", "Name dialog", 400)];
  assert.deepEqual(newXWindows(new Set(["x1", "x2"]), now, "x1", []).map((w) => w.window), [
    "x3",
  ]);
  // The acted window itself never; one the tree already named in `opened` not twice.
  assert.deepEqual(newXWindows(new Set(), now, "x1", [win("w9", "Name dialog")]).length, 1);
  assert.deepEqual(newXWindows(new Set(["x1", "x2", "x3"]), now, "x1", []), []);
});

Deno.test("inTree() knows a toolkit's popup by its rectangle when X titles it otherwise", () => {
  const popup = { ...win("w1", ""), bounds: { x: 100, y: 200, w: 300, h: 400 } };
  const x = { ...win("x9", "soffice"), bounds: { x: 101, y: 201, w: 300, h: 398 } };
  assert.equal(inTree([popup], x), true);
  const elsewhere = { ...x, bounds: { x: 600, y: 200, w: 300, h: 400 } };
  assert.equal(inTree([popup], elsewhere), false);
  assert.deepEqual(newXWindows(new Set(), [x], "w0", [popup]), []);
});
