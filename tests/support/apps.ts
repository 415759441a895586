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

/** SIGTERM to process `pid`, SIGKILL when it is still there 3 s later. */
async function stopPid(pid: number): Promise<void> {
  // A zombie (exited, not yet reaped by its launcher) counts as gone.
  const alive = () =>
    Deno.readTextFile(`/proc/${pid}/stat`).then(
      (stat) => stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z",
      () => false,
    );
  try {
    Deno.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline && await alive()) await new Promise((r) => setTimeout(r, 50));
  try {
    if (await alive()) Deno.kill(pid, "SIGKILL");
  } catch { /* gone */ }
}

/** The pid of the first child of `parent` running `comm`, once there is one. */
export async function childNamed(
  parent: number,
  comm: string,
  timeoutMs = 20_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for await (const e of Deno.readDir("/proc")) {
      if (!/^\d+$/.test(e.name)) continue;
      const stat = await Deno.readTextFile(`/proc/${e.name}/stat`).catch(() => "");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (name === comm && ppid === parent) return Number(e.name);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No child "${comm}" of process ${parent} in ${timeoutMs} ms`);
}

/**
 * Starts `cmd args` and waits for a window titled `window`, on screen and on the bus.
 * `busPid` names the process that is on the bus when it is not the one started (a
 * launcher's child); the app's pid is then that one's.
 */
export async function startApp(
  cmd: string,
  args: string[],
  window: string,
  busPid: (launcher: number) => Promise<number> = (pid) => Promise.resolve(pid),
): Promise<App> {
  requireDesktop();
  const child = new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "null" })
    .spawn();
  let pid = child.pid;
  try {
    await waitForWindow(window);
    pid = await busPid(child.pid);
    await waitForAccessible(pid);
  } catch (err) {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    await child.status;
    throw err;
  }
  return {
    pid,
    async stop() {
      // The app a launcher started goes first: the launcher may not pass the signal on.
      if (pid !== child.pid) await stopPid(pid);
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

/** Rows of {@link zenityList}. */
export const ZENITY_ROWS = 10_000;

/**
 * zenity's list dialog (GTK 3): a tree view of {@link ZENITY_ROWS} rows, "Row 1" … with
 * its number times 3, of which a few dozen show.
 */
export const zenityList = (): Promise<App> =>
  startApp("zenity", [
    "--list",
    "--title=Long list",
    "--width=400",
    "--height=500",
    "--column=Item",
    "--column=Count",
    ...Array.from({ length: ZENITY_ROWS }, (_, i) => [`Row ${i + 1}`, String((i + 1) * 3)]).flat(),
  ], "Long list");

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

/** A page to open: a URL as it is, a file path as a `file://` URL. */
const urlOf = (page: string): string => /^[a-z]+:\/\//.test(page) ? page : `file://${page}`;

/**
 * Chromium's flags for a headless desktop: accessibility on, nothing fetched or synced, no
 * sandbox (root) and no GPU (Xvfb).
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--force-renderer-accessibility",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/**
 * Chromium on a local page titled `title`, with its accessibility tree on; ready once the
 * page's last element (named or showing `last`) is on the bus. With `appMode`, the page is
 * an app window (`--app`: no tabs, no toolbar), as an Electron app shows.
 */
export async function chromium(
  page: string,
  title: string,
  last: string,
  appMode = false,
): Promise<App> {
  const profile = await Deno.makeTempDir({ prefix: "allternit-chromium-" });
  const app = await startApp("chromium", [
    ...CHROMIUM_FLAGS,
    `--user-data-dir=${profile}`,
    "--window-size=900,700",
    appMode ? `--app=${urlOf(page)}` : urlOf(page),
  ], title);
  return await whenShown(app, last);
}

/** `app` once its page shows `last` (see {@link waitForPage}); stopped if it never does. */
async function whenShown(app: App, last: string): Promise<App> {
  try {
    await waitForPage(app.pid, last);
  } catch (err) {
    await app.stop();
    throw err;
  }
  return app;
}

/**
 * Waits until a browser's page is in its accessibility tree down to its last element
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
    throw new Error(`Process ${pid}'s page did not show "${last}" on the accessibility bus`);
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

/**
 * An xterm titled "Cover" over the screen's top-left 900 × 780 points: another app's
 * window on top of whatever was started before. It is not on the accessibility bus.
 */
export async function cover(): Promise<App> {
  requireDesktop();
  const child = new Deno.Command("xterm", {
    args: ["-title", "Cover", "-geometry", "150x60+0+0"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  await waitForWindow("Cover");
  return {
    pid: child.pid,
    async stop() {
      await stopPid(child.pid);
      await child.status;
    },
  };
}

/**
 * The title of the top-level window on top at screen point (x, y), as xwininfo lists the
 * root's children (top first): the X server's own answer, not the driver's.
 */
export async function titleOnTopAt(x: number, y: number): Promise<string | undefined> {
  const text = async (args: string[]) =>
    new TextDecoder().decode((await new Deno.Command("xwininfo", { args }).output()).stdout);
  for (const line of (await text(["-root", "-children"])).split("\n")) {
    // Under a window manager the root's children are unnamed frames around the clients.
    const m =
      /^\s+(0x[0-9a-f]+) (?:"([^"]*)"|\(has no name\)): \([^)]*\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)/
        .exec(line);
    if (!m) continue;
    const [w, h, left, top] = [m[3], m[4], m[5], m[6]].map(Number) as [
      number,
      number,
      number,
      number,
    ];
    if (x < left || x >= left + w || y < top || y >= top + h) continue;
    // Unmapped windows are listed too; only a viewable one is on top.
    if (!(await text(["-id", m[1]!])).includes("IsViewable")) continue;
    if (m[2] !== undefined) return m[2];
    const named = /^\s+0x[0-9a-f]+ "([^"]*)"/m.exec(await text(["-id", m[1]!, "-tree"]));
    if (named) return named[1];
  }
  return undefined;
}

/** featherpad (Qt 5), a text editor. */
export const featherpad = (): Promise<App> => startApp("featherpad", [], "Untitled");

/** SpeedCrunch (Qt 5), a calculator. */
export const speedcrunch = (): Promise<App> => startApp("speedcrunch", [], "SpeedCrunch");

/** DB Browser for SQLite (Qt 5) on `db`: its Database Structure tab is a tree of tables. */
export const sqlitebrowser = (db: string): Promise<App> =>
  startApp("sqlitebrowser", [db], "DB Browser for SQLite");

/** Debian's OpenJDK 17, where the session's Java apps come from. */
const JDK = "/usr/lib/jvm/java-17-openjdk-amd64";

/**
 * jconsole (Java Swing, Debian's OpenJDK 17), showing its New Connection dialog. Its tree
 * is on the bus through the ATK wrapper the session loads (`JAVA_TOOL_OPTIONS`).
 */
export const jconsole = (): Promise<App> => startApp(`${JDK}/bin/jconsole`, [], "Java Monitoring");

/**
 * FileChooserDemo of OpenJDK's Swing demos (openjdk-17-demo): radio buttons, check boxes,
 * a text field and a combo box, read through the same ATK wrapper as jconsole.
 */
export const javaFileChooserDemo = (): Promise<App> =>
  startApp(
    `${JDK}/bin/java`,
    ["-jar", "/usr/share/doc/openjdk-17-jre-headless/demo/jfc/FileChooserDemo/FileChooserDemo.jar"],
    "FileChooserDemo",
  );

/** Thunar (GTK 3), the file manager, on `dir`. */
export const thunar = (dir: string): Promise<App> => startApp("thunar", [dir], "Thunar");

/** Qt 6 Designer, on its "New Form" dialog (a tree of templates, two combo boxes). */
export const designer6 = (): Promise<App> => startApp("/usr/lib/qt6/bin/designer", [], "New Form");

/** Qt 6 Linguist, on its empty main window (tree views, docks, toolbar toggles). */
export const linguist6 = (): Promise<App> =>
  startApp("/usr/lib/qt6/bin/linguist", [], "Qt Linguist");

/** gtk4-demo (GTK 4), its list of demos. */
export const gtk4Demo = (): Promise<App> => startApp("gtk4-demo", [], "GTK Demo");

/** An app with a scratch profile folder, removed when it stops. */
async function withProfile(
  prefix: string,
  start: (profile: string) => Promise<App>,
): Promise<App> {
  const profile = await Deno.makeTempDir({ prefix });
  const app = await start(profile).catch(async (err) => {
    await Deno.remove(profile, { recursive: true });
    throw err;
  });
  return {
    pid: app.pid,
    async stop() {
      await app.stop();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * Prefs of a scratch Firefox profile that keep its first run to the page asked for. On a
 * new profile Firefox opens its privacy notice in a second tab some seconds after start
 * ("Problem loading page" offline), now and then in front: the task's page then hid
 * behind it mid-run and its elements had no on-screen area.
 */
export const FIREFOX_PREFS: Readonly<Record<string, boolean | string>> = {
  "datareporting.policy.dataSubmissionPolicyBypassNotification": true,
  "datareporting.policy.firstRunURL": "",
  "toolkit.telemetry.reportingpolicy.firstRun": false,
  "browser.shell.checkDefaultBrowser": false,
  "browser.startup.homepage_override.mstone": "ignore",
  "startup.homepage_welcome_url": "",
  "startup.homepage_welcome_url.additional": "",
  "browser.aboutwelcome.enabled": false,
  "app.update.auto": false,
  "browser.sessionstore.resume_from_crash": false,
};

/** Firefox ESR on local page `page` (titled `title`), in a scratch profile. */
export const firefox = (page: string, title: string): Promise<App> =>
  withProfile("allternit-firefox-", async (profile) => {
    const prefs = Object.entries(FIREFOX_PREFS)
      .map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});\n`);
    await Deno.writeTextFile(`${profile}/user.js`, prefs.join(""));
    return await startApp("firefox-esr", [
      "--no-remote",
      "--new-instance",
      "--profile",
      profile,
      urlOf(page),
    ], title);
  });

/**
 * Thunderbird on its start tab, in a scratch profile (no account), once the tab's content
 * is on the bus (its window shows before; on a loaded machine, seconds before).
 */
export const thunderbird = (): Promise<App> =>
  withProfile("allternit-thunderbird-", async (profile) => {
    const app = await startApp("thunderbird", ["--no-remote", "--profile", profile], "Thunderbird");
    return await whenShown(app, "Sign in with Thundermail");
  });

/**
 * LibreOffice on `file` (Calc, Writer or Impress by its type), in a scratch user profile.
 * The `soffice` launcher (oosplash) runs soffice.bin as its child, restarting it once when
 * it made a new profile: the app on the bus is that child. Stopping the launcher stops it.
 */
export const libreoffice = (file: string, title: string): Promise<App> =>
  withProfile("allternit-libreoffice-", (profile) =>
    startApp(
      "/usr/lib/libreoffice/program/soffice",
      [`-env:UserInstallation=file://${profile}`, "--norestore", "--nologo", file],
      title,
      (launcher) => childNamed(launcher, "soffice.bin"),
    ));
