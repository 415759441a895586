/**
 * A desktop that fails and comes back (issue 48), on a desktop of the test's own (never the
 * shared session): the X server, the accessibility bus and the session bus are killed
 * under a serving driver and started again at the same addresses.
 *
 * - X server: `screenshot` and `pixel_move` answer `driver_unavailable` (reason
 *   `x_display_gone`, naming the display) and the driver stays up and answers `hello`
 *   (the accessibility registry is an X client: it goes with the server, so `list_apps`
 *   has nothing to answer from); once Xvfb is back on the same display, both work again.
 * - Accessibility bus, then session bus: a read meanwhile is `driver_unavailable` naming the
 *   bus; once they are back, an app's window reads `live` again (notifications heard on
 *   the new bus, not `degraded: no_notifications`), and text typed into it from outside
 *   is read back (only a notification announces it).
 */
import assert from "node:assert/strict";
import { DriverClient } from "../rpc/client.ts";
import { DriverError } from "../protocol/errors.ts";
import { type DriverProcess, startDriver } from "./support/driver_process.ts";
import { type OwnDesktop, startOwnDesktop } from "./support/own_desktop.ts";

const linuxOnly = { ignore: Deno.build.os !== "linux" };
/** How long a part of the desktop may take to come back and be read live again. */
const BACK_MS = 15_000;

/** Polls `probe` until it returns a value, at most `ms`; the last failure as the cause. */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>, ms = BACK_MS) {
  const deadline = performance.now() + ms;
  let last: unknown;
  while (performance.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Timed out waiting for ${what}`, { cause: last });
}

async function assertUnavailable(call: Promise<unknown>, reason: RegExp): Promise<DriverError> {
  let caught: unknown;
  await call.catch((err) => caught = err);
  assert.ok(caught instanceof DriverError, `a DriverError, got ${caught}`);
  assert.equal(caught.code, "driver_unavailable", caught.message);
  assert.match(String(caught.data.reason), reason, caught.message);
  return caught;
}

/**
 * Calls `call` until it fails (the driver hears a bus go a moment after it went; until
 * then a read may still be answered from memory), then checks the failure as above.
 */
async function assertUnavailableSoon(
  call: () => Promise<unknown>,
  reason: RegExp,
): Promise<DriverError> {
  const failed = await eventually(
    "the call to fail",
    () => call().then(() => undefined, (err: unknown) => ({ err })),
    5_000,
  );
  return await assertUnavailable(Promise.reject(failed.err), reason);
}

/** The driver process has not exited. */
async function assertAlive(driver: DriverProcess): Promise<void> {
  const exited = await Promise.race([
    driver.child.status.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 50)),
  ]);
  assert.equal(exited, false, `the driver exited; its log:\n${driver.stderr()}`);
}

/** Starts a zenity entry dialog titled `title` on `desktop`. */
function zenity(desktop: OwnDesktop, title: string): Deno.ChildProcess {
  return new Deno.Command("zenity", {
    args: ["--entry", `--title=${title}`, "--text=Loss test"],
    env: desktop.env,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

/** The window titled `title` as `list_apps` lists it, once it is. */
function windowTitled(client: DriverClient, title: string): Promise<string> {
  return eventually(`window "${title}" listed`, async () => {
    const { apps } = await client.call("list_apps");
    return apps.flatMap((a) => a.windows).find((w) => w.title === title)?.window;
  });
}

/** Reads `title`'s window until the map is kept live by notifications; the read. */
function liveRead(client: DriverClient, title: string) {
  return eventually(`window "${title}" read live`, async () => {
    const window = await windowTitled(client, title);
    const read = await client.call("read_ui", { window });
    // Bus names restart with a new bus: a map kept from an app of the old one is not this.
    assert.ok(read.elements?.some((e) => e.name === title), `the map shows "${title}"`);
    if (read.live.state === "live") return { window, read };
    throw new Error(`read ${read.live.state}: ${read.live.reason}`);
  });
}

/** Runs xdotool on the rig's desktop. */
async function xdotool(rig: Rig, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("xdotool", {
    args,
    env: rig.desktop.env,
    stdout: "null",
    stderr: "null",
  }).output();
  assert.ok(out.success, `xdotool ${args.join(" ")}`);
}

/** The window's text field as read now. */
async function textField(rig: Rig, window: string) {
  const read = await rig.client.call("read_ui", { window });
  const field = read.elements?.find((e) => e.role === "AXTextField");
  assert.ok(field, "the dialog's text field");
  return field;
}

/**
 * Types `text` into the window's text field from outside the driver (xdotool) and waits
 * until a read shows it. The field is focused first, and typed into only once a read shows
 * that: the staleness probe notices a focus change, but not a typed text (it compares the
 * window's child count and state), so without notifications a map kept from memory would
 * keep the old value.
 */
async function typedIsHeard(rig: Rig, window: string, text: string): Promise<void> {
  const field = await textField(rig, window);
  const x = String(Math.round(field.bounds.x + field.bounds.w / 2));
  const y = String(Math.round(field.bounds.y + field.bounds.h / 2));
  await xdotool(rig, "mousemove", x, y, "click", "1");
  await eventually("the text field focused", async () => {
    const now = await textField(rig, window);
    return now.focused ? true : undefined;
  }, 5_000);
  await xdotool(rig, "type", "--delay", "20", text);
  // Read back by a live map: a degraded one reads in full each time, and proves nothing.
  await eventually(`"${text}" read back live`, async () => {
    const read = await rig.client.call("read_ui", { window });
    const value = read.elements?.find((e) => e.role === "AXTextField")?.value;
    if (value !== text) return undefined;
    assert.equal(read.live.state, "live", `read back, but ${read.live.reason}`);
    return true;
  }, 5_000);
}

async function stopApp(app: Deno.ChildProcess): Promise<void> {
  try {
    app.kill("SIGKILL");
  } catch { /* gone with its X server */ }
  await app.status;
}

/** What each test gets: its own desktop, a driver serving on it, a client, and its apps. */
interface Rig {
  desktop: OwnDesktop;
  driver: DriverProcess;
  client: DriverClient;
  /** Starts a zenity entry dialog titled `title`, stopped after the test. */
  zenity(title: string): void;
}

/** Runs `fn` on a desktop of its own with a driver serving on it; stops all of it after. */
function lossTest(name: string, fn: (rig: Rig) => Promise<void>): void {
  Deno.test({
    name,
    ...linuxOnly,
    sanitizeResources: false,
    fn: async () => {
      const desktop = await startOwnDesktop();
      const apps: Deno.ChildProcess[] = [];
      let driver: DriverProcess | undefined;
      let client: DriverClient | undefined;
      try {
        driver = await startDriver(["serve"], { env: desktop.env });
        client = await DriverClient.connect({ socket: driver.ready.socket! });
        await fn({
          desktop,
          driver,
          client,
          zenity: (title) => void apps.push(zenity(desktop, title)),
        });
      } finally {
        await client?.close().catch(() => {});
        await driver?.stop();
        for (const app of apps) await stopApp(app);
        await desktop.stop();
      }
    },
  });
}

lossTest("X server lost: structured errors, still serving; back: works again", async (r) => {
  const c = r.client;
  assert.equal((await c.call("screenshot")).width, 1024);
  await c.call("pixel_move", { x: 10, y: 10 });
  await r.desktop.killX();
  const shot = await assertUnavailable(c.call("screenshot"), /^x_display_gone$/);
  assert.equal(shot.data.display, r.desktop.display);
  await assertUnavailable(c.call("pixel_move", { x: 20, y: 20 }), /^x_display_gone$/);
  await assertUnavailable(c.call("screenshot"), /^x_display_gone$/);
  await assertAlive(r.driver);
  assert.equal((await c.call("hello")).protocol, 1);
  await r.desktop.startX();
  assert.equal((await c.call("screenshot")).width, 1024);
  await c.call("pixel_move", { x: 30, y: 30 });
  await assertAlive(r.driver);
});

lossTest("accessibility bus lost: reads name it; back: windows read live again", async (r) => {
  const c = r.client;
  r.zenity("Before A11y Loss");
  const { window: old } = await liveRead(c, "Before A11y Loss");
  await r.desktop.killA11yBus();
  await assertUnavailableSoon(() => c.call("read_ui", { window: old }), /^no_accessibility_bus$/);
  await assertAlive(r.driver);
  await r.desktop.startA11yBus();
  r.zenity("After A11y Loss");
  const { window } = await liveRead(c, "After A11y Loss");
  await typedIsHeard(r, window, "heard");
  await assertAlive(r.driver);
});

lossTest("session bus lost: reads name a bus; back: windows read live again", async (r) => {
  const c = r.client;
  r.zenity("Before Session Loss");
  await liveRead(c, "Before Session Loss");
  await r.desktop.killSessionBus();
  await assertUnavailableSoon(() => c.call("list_apps"), /^no_(session|accessibility)_bus$/);
  await assertAlive(r.driver);
  await r.desktop.startSessionBus();
  r.zenity("After Session Loss");
  const { window } = await liveRead(c, "After Session Loss");
  await typedIsHeard(r, window, "heard");
  await assertAlive(r.driver);
});
