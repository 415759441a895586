import assert from "node:assert/strict";
import type { Engine } from "../model/engine.ts";
import { Following } from "./follow.ts";
import type { Watched } from "./windows.ts";

Deno.test("Following: an app muted by a failed follow is heard again once a follow succeeds", async () => {
  let busUp = false;
  const engine = {
    name: "fake",
    follow: (_apps: readonly string[]) =>
      busUp ? Promise.resolve() : Promise.reject(new Error("D-Bus connection is closed")),
  } as unknown as Engine;
  // The app's window is watched (the live map keeps its mute while it is).
  const window = {
    app: ":1.5",
    window: "w1",
    map: { engine: "fake" },
    degraded: undefined,
    misses: 0,
    needsFull: false,
  } as unknown as Watched;
  const following = new Following(() => engine, () => [window]);
  await following.reading(":1.5", engine, () => Promise.resolve());
  following.setMuted(":1.5", following.mutedReason(":1.5")); // as the live map marks it
  assert.equal(following.mutedReason(":1.5"), "no_notifications: D-Bus connection is closed");
  // The bus came back (the engine connected again): the next read follows the app.
  busUp = true;
  await following.reading(":1.5", engine, () => Promise.resolve());
  assert.equal(following.mutedReason(":1.5"), undefined);
  assert.equal(window.degraded, undefined);
  assert.equal(window.needsFull, true); // read in full: it missed what came meanwhile
});
