import assert from "node:assert/strict";
import type { AppInfo, WindowInfo } from "../model/engine.ts";
import { AppWindows } from "./app_windows.ts";

const win = (window: string, more: Partial<WindowInfo> = {}): WindowInfo => ({
  window,
  title: window,
  bounds: { x: 0, y: 0, w: 10, h: 10 },
  focused: false,
  ...more,
});
const app = (windows: WindowInfo[]): AppInfo => ({ app: ":1.5", pid: 5, name: "pad", windows });

Deno.test("AppWindows.current() is the listed modal window, until a window notification", () => {
  const m = new AppWindows();
  assert.equal(m.current(":1.5", 0), undefined, "never listed");
  m.listed(app([win("main", { focused: true }), win("open", { modal: true, role: "dialog" })]), 3);
  assert.equal(m.current(":1.5", 3), "open", "a modal dialog before the active window");
  assert.equal(m.current(":1.5", 4), undefined, "a window came or went since: list again");
  m.listed(app([win("main", { focused: true })]), 4);
  assert.equal(m.current(":1.5", 4), "main");
});

Deno.test("AppWindows.opened() answers the windows a new listing adds, but the acted one", () => {
  const m = new AppWindows();
  assert.deepEqual(m.opened(app([win("main"), win("pop")]), "main"), [], "no listing to compare");
  m.listed(app([win("main")]), 0);
  assert.deepEqual(m.opened(app([win("main"), win("pop")]), "main").map((w) => w.window), ["pop"]);
  assert.deepEqual(m.opened(app([win("main")]), "main"), []);
});

Deno.test("AppWindows forgets the least recently listed apps past its limit", () => {
  const m = new AppWindows(2);
  for (const id of [":1.1", ":1.2", ":1.3"]) m.listed({ ...app([win("w")]), app: id }, 0);
  assert.equal(m.current(":1.1", 0), undefined);
  assert.equal(m.current(":1.3", 0), "w");
});

Deno.test("AppWindows.appOf() names the app whose last listing had the window", () => {
  const m = new AppWindows();
  assert.equal(m.appOf("main"), undefined);
  m.listed(app([win("main"), win("pop")]), 0);
  assert.equal(m.appOf("pop"), ":1.5");
  m.listed(app([win("main")]), 0);
  assert.equal(m.appOf("pop"), undefined, "closed since: not the app's any more");
});
