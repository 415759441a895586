import assert from "node:assert/strict";
import type { AtspiClient, Ref } from "./client.ts";
import { dropDeparted, listApps, MAX_DEPARTED, type WindowEntry } from "./apps.ts";
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
