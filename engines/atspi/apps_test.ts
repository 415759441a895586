import assert from "node:assert/strict";
import type { AtspiClient, Ref } from "./client.ts";
import {
  dropDeparted,
  HUNG_WAIT_MS,
  listApps,
  type ListingMemory,
  MAX_DEPARTED,
  NOT_RESPONDING,
  standIn,
  type WindowEntry,
  withoutPhantoms,
} from "./apps.ts";
import type { AppInfo, WindowInfo } from "../../model/engine.ts";
import { DriverError } from "../../protocol/errors.ts";

const ROOT = "/org/a11y/atspi/accessible/root";

Deno.test("apps: an app that does not answer is left out of the list, and still present", async () => {
  // The registry now holds :1.2 only, and :1.2 does not answer in time (a hung app).
  const late = () => Promise.reject(new DriverError("timeout", "The app did not answer", {}));
  const client = {
    children: (ref: Ref) =>
      ref.bus === "org.a11y.atspi.Registry"
        ? Promise.resolve([{ bus: ":1.2", path: ROOT }])
        : late(),
    prop: late,
    pid: late,
  } as unknown as AtspiClient;
  const windows = new Map<string, WindowEntry>([
    ["whung", { ref: { bus: ":1.2", path: "/w" }, pid: 2, app: "hung" }],
  ]);
  const { apps, present } = await listApps(client, { timeoutMs: 50 }, windows);
  assert.deepEqual(apps, [], "the hung app is left out of the list");
  assert.deepEqual([...present], [":1.2"]);
  assert.deepEqual([...windows.keys()], ["whung"], "its window stays known: reads say it hangs");
});

Deno.test("apps: windows of apps that left move to a bounded record of departed ones", () => {
  const entry = (bus: string, app: string): WindowEntry => ({
    ref: { bus, path: "/w" },
    pid: 1,
    app,
  });
  const windows = new Map([["wa", entry(":1.1", "gone")], ["wb", entry(":1.2", "here")]]);
  const departed = new Map<string, string>();
  dropDeparted(windows, new Set([":1.2"]), departed);
  assert.deepEqual([...windows.keys()], ["wb"]);
  assert.deepEqual([...departed], [["wa", "gone"]]);
  for (let i = 0; i < MAX_DEPARTED + 5; i++) windows.set(`w${i}`, entry(`:2.${i}`, `app${i}`));
  dropDeparted(windows, new Set([":1.2"]), departed);
  assert.equal(departed.size, MAX_DEPARTED);
  assert.equal(departed.has("wa"), false, "the oldest go first");
  assert.equal(departed.get(`w${MAX_DEPARTED + 4}`), `app${MAX_DEPARTED + 4}`);
});

Deno.test("apps: with memory, an app that stops answering stays listed from its last answer, degraded", async () => {
  let hung = false;
  let asked = 0;
  const late = () => Promise.reject(new DriverError("timeout", "The app did not answer", {}));
  const win = { bus: ":1.2", path: "/w" };
  const client = {
    children: (ref: Ref) => {
      if (ref.bus === "org.a11y.atspi.Registry") {
        return Promise.resolve([{ bus: ":1.2", path: ROOT }]);
      }
      return hung ? late() : Promise.resolve(ref.path === ROOT ? [win] : []);
    },
    prop: (_ref: Ref, _i: string, _p: string, limits: { timeoutMs: number }) => {
      asked = limits.timeoutMs;
      return hung ? late() : Promise.resolve(_ref.path === ROOT ? "mousepad" : "Untitled 1");
    },
    pid: () => Promise.resolve(77), // the bus daemon answers for a hung app
    call: (_ref: Ref, _i: string, member: string) =>
      Promise.resolve(member === "GetState" ? [[0, 0]] : [0]),
    extents: () => Promise.resolve([10, 20, 300, 200] as const),
  } as unknown as AtspiClient;
  const windows = new Map<string, WindowEntry>();
  let clock = 1_000;
  const memory: ListingMemory = {
    apps: new Map(),
    hung: new Set(),
    nameOf: () => "never asked: it answered before",
    now: () => clock,
  };
  const first = await listApps(client, { timeoutMs: 1_000 }, windows, memory);
  assert.equal(first.apps[0]!.live, undefined, "an app that answers is not marked");
  hung = true;
  clock = 1_500;
  const second = await listApps(client, { timeoutMs: 1_000 }, windows, memory);
  assert.equal(asked, 1_000, "the first silence is waited for in full");
  assert.deepEqual(second.apps.map((a) => [a.name, a.pid, a.windows.map((w) => w.title)]), [
    ["mousepad", 77, ["Untitled 1"]],
  ]);
  assert.deepEqual(second.apps[0]!.live, {
    state: "degraded",
    reason: NOT_RESPONDING,
    age_ms: 500,
  });
  await listApps(client, { timeoutMs: 1_000 }, windows, memory);
  assert.equal(asked, HUNG_WAIT_MS, "a known hung app is waited for briefly");
  hung = false;
  const again = await listApps(client, { timeoutMs: 1_000 }, windows, memory);
  assert.equal(again.apps[0]!.live, undefined, "answering again, it is listed as usual");
  assert.equal(memory.hung.size, 0);
});

Deno.test("apps: standIn lists a never-answered app by pid and process name; a gone one not at all", () => {
  const last = { info: { app: ":1.5", pid: 5, name: "thunar", windows: [] }, at: 0 };
  assert.deepEqual(standIn(":1.9", undefined, 9, "xfce4-panel", 10), {
    app: ":1.9",
    pid: 9,
    name: "xfce4-panel",
    windows: [],
    live: { state: "degraded", reason: NOT_RESPONDING },
  });
  assert.equal(standIn(":1.9", undefined, 9, undefined, 10), undefined, "no name: nothing to list");
  assert.equal(
    standIn(":1.5", last, undefined, undefined, 10),
    undefined,
    "no pid: its connection is gone",
  );
  assert.equal(standIn(":1.5", last, 5, undefined, 250)?.live?.age_ms, 250);
});

Deno.test("withoutPhantoms() drops untitled windows X paints nowhere, only with evidence", () => {
  const win = (window: string, title: string, x: number): WindowInfo => ({
    window,
    title,
    bounds: { x, y: 0, w: 100, h: 100 },
    focused: false,
    role: "window",
    modal: false,
  });
  const app: AppInfo = {
    app: ":1.2",
    pid: 7,
    name: "chromium",
    windows: [win("main", "Page - Chromium", 0), win("popup", "", 500), win("menu", "", 50)],
  };
  // The menu is painted where it says (a frame's width off); the popup lies over the main
  // window, which is no proof.
  const painted = [
    { pid: 7, bounds: { x: 0, y: 0, w: 1000, h: 800 } },
    { pid: 7, bounds: { x: 50, y: 20, w: 100, h: 100 } },
  ];
  assert.deepEqual(withoutPhantoms(app, painted).windows.map((w) => w.window), ["main", "menu"]);
  // Nothing painted by the app's process: no evidence, nothing dropped.
  assert.equal(withoutPhantoms(app, [{ pid: 8, bounds: { x: 0, y: 0, w: 9, h: 9 } }]), app);
  // A titled window stays though X paints it nowhere (minimized).
  const hidden = { ...app, windows: [win("main", "Page", 900)] };
  assert.equal(withoutPhantoms(hidden, painted), hidden);
});
