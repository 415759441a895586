/**
 * Real apps for integration tests: start one on the test desktop, wait for its window,
 * stop it by pid. Tests run inside `install/linux/desktop-session.sh` (the test task).
 *
 * @module
 */

import { AtspiEngine } from "../../engines/atspi/engine.ts";

/** A started app. */
export interface App {
  /** Process id. */
  pid: number;
  /** Stops it (SIGTERM, then SIGKILL) and waits. */
  stop(): Promise<void>;
}

import { requireDesktop } from "./desktop.ts";

export { requireDesktop };

/**
 * Waits until a visible window whose title matches `name` exists. Polls rather than
 * trusting one `xdotool search --sync`: xdotool exits with BadWindow when some other
 * window vanishes during its search (a previous app still closing).
 */
export async function waitForWindow(name: string, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const out = await new Deno.Command("xdotool", {
      args: ["search", "--onlyvisible", "--name", name],
      stdout: "piped",
      stderr: "null",
    }).output();
    if (out.success && new TextDecoder().decode(out.stdout).trim() !== "") return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No window named "${name}" appeared in ${timeoutMs} ms`);
}

/**
 * Waits until the app with process `pid` is on the accessibility bus with a window: the X
 * window shows before the toolkit registers, and a read in between would rightly answer
 * app_not_running.
 */
export async function waitForAccessible(pid: number, timeoutMs = 20_000): Promise<void> {
  const engine = new AtspiEngine();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const apps = await engine.listApps(AbortSignal.timeout(5_000)).catch(() => []);
      if (apps.some((a) => a.pid === pid && a.windows.length > 0)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`Process ${pid} did not appear on the accessibility bus in ${timeoutMs} ms`);
  } finally {
    await engine.close();
  }
}

/** Starts `cmd args` and waits for a window titled `window`, on screen and on the bus. */
export async function startApp(cmd: string, args: string[], window: string): Promise<App> {
  requireDesktop();
  const child = new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "null" })
    .spawn();
  try {
    await waitForWindow(window);
    await waitForAccessible(child.pid);
  } catch (err) {
    child.kill("SIGKILL");
    await child.status;
    throw err;
  }
  return {
    pid: child.pid,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch {
        return; // Already gone.
      }
      const done = await Promise.race([
        child.status.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 3_000)),
      ]);
      if (!done) {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
        await child.status;
      }
    },
  };
}

/** gnome-calculator (GTK 4). */
export const calculator = (): Promise<App> => startApp("gnome-calculator", [], "Calculator");

/** mousepad (GTK 3) on a new empty document. */
export const mousepad = (): Promise<App> => startApp("mousepad", ["--disable-server"], "Mousepad");

/** gtk3-widget-factory (GTK 3, a large window). */
export const widgetFactory = (): Promise<App> =>
  startApp("gtk3-widget-factory", [], "gtk3-widget-factory");

/** A GTK 3 window that is one drawing area: on the bus, with a tree too thin to use. */
export const canvasApp = (): Promise<App> =>
  startApp(
    "/usr/bin/python3",
    [new URL("./canvas_app.py", import.meta.url).pathname],
    "Canvas app",
  );

/** Clicks screen point x, y with xdotool: input from outside the driver. */
export async function xdotoolClick(x: number, y: number): Promise<void> {
  const out = await new Deno.Command("xdotool", {
    args: ["mousemove", String(Math.round(x)), String(Math.round(y)), "click", "1"],
  }).output();
  if (!out.success) throw new Error("xdotool click failed");
}

/**
 * Chromium on a local page titled `title`, with its accessibility tree on; ready once the
 * page's last element (named or showing `last`) is on the bus.
 */
export async function chromium(page: string, title: string, last: string): Promise<App> {
  const profile = await Deno.makeTempDir({ prefix: "allternit-chromium-" });
  const app = await startApp("chromium", [
    "--no-sandbox",
    "--disable-gpu",
    "--force-renderer-accessibility",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    `--user-data-dir=${profile}`,
    "--window-size=900,700",
    `file://${page}`,
  ], title);
  try {
    await waitForPage(app.pid, last);
  } catch (err) {
    await app.stop();
    throw err;
  }
  return app;
}

/**
 * Waits until Chromium's page is in its accessibility tree down to its last element
 * (named or showing `last`): the window (titled by the page) shows before the renderer's
 * tree reaches the bus, and the tree arrives in pieces, so a read in between sees only the
 * browser's frame or half the page.
 */
async function waitForPage(pid: number, last: string, timeoutMs = 20_000): Promise<void> {
  const engine = new AtspiEngine();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const apps = await engine.listApps(AbortSignal.timeout(5_000)).catch(() => []);
      const window = apps.find((a) => a.pid === pid)?.windows[0]?.window;
      const tree = window === undefined ? undefined : await engine.readWindow(window, {
        maxElements: 5_000,
        signal: AbortSignal.timeout(5_000),
      }).catch(() => undefined);
      const stack = tree ? [...tree.root.children] : [];
      while (stack.length) {
        const n = stack.pop()!;
        if (n.name === last || n.value === last) return;
        stack.push(...n.children);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`Chromium's page did not show "${last}" on the accessibility bus`);
  } finally {
    await engine.close();
  }
}

/** Keys typed into the focused window from outside the driver; {@link stop} ends it. */
export interface Typist {
  /** True until every key was typed or it was stopped. */
  readonly typing: boolean;
  /** Stops typing and releases the key: killed between press and release, X would repeat it. */
  stop(): Promise<void>;
}

/** Types `count` × `key` with xdotool, one every `delayMs`, into whatever has focus. */
export function typeFromOutside(key: string, count: number, delayMs = 100): Typist {
  const child = new Deno.Command("xdotool", {
    args: ["type", "--delay", String(delayMs), key.repeat(count)],
    stdout: "null",
    stderr: "null",
  }).spawn();
  let typing = true;
  const done = child.status.then(() => void (typing = false));
  let stopped: Promise<void> | undefined;
  return {
    get typing() {
      return typing;
    },
    stop: () =>
      stopped ??= (async () => {
        try {
          child.kill();
        } catch {
          // Finished typing.
        }
        await done;
        await new Deno.Command("xdotool", { args: ["keyup", key] }).output();
      })(),
  };
}
