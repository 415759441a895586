/**
 * Which window a read means: an explicit window id, an app by name or pid, or the
 * frontmost app. Answers `app_not_running` / `window_not_found` with what was asked.
 *
 * @module
 */
import type { AppInfo, Engine } from "../model/engine.ts";
import { DriverError } from "../protocol/errors.ts";
import type { Origin } from "../live/windows.ts";

/** A window to read, and where it lives. */
export interface Target extends Omit<Origin, "engine"> {
  /** Window id. */
  window: string;
}

/**
 * The window of `app` an agent means: a modal window first (the newest: it blocks the
 * rest of the app, so it is what must be answered; without a window manager a dialog is
 * never marked active), then the active one, then the first.
 */
export function windowOf(app: AppInfo): string | undefined {
  const w = app.windows.findLast((x) => x.modal === true) ?? app.windows.find((x) => x.focused) ??
    app.windows[0];
  return w?.window;
}

function pick(app: AppInfo): Target | undefined {
  const window = windowOf(app);
  return window === undefined
    ? undefined
    : { window, app: app.app, appName: app.name, pid: app.pid };
}

/** What the caller remembers of earlier listings (driver/app_windows.ts). */
export interface Listings {
  /** Sees the engine's listing, so the caller can remember each app's windows. */
  listed(apps: readonly AppInfo[]): void;
  /** The app whose last listing had `window`. */
  appOf(window: string): string | undefined;
}

/**
 * Resolves `app` / `window` params to one window. A window no longer listed whose app is
 * gone from the listing too answers `app_not_running`: its app quit.
 */
export async function resolveTarget(
  engine: Engine,
  params: { app?: string | number | undefined; window?: string | undefined },
  signal: AbortSignal,
  listings?: Listings,
): Promise<Target> {
  const apps = await engine.listApps(signal);
  listings?.listed(apps);
  if (params.window !== undefined) {
    for (const a of apps) {
      if (a.windows.some((w) => w.window === params.window)) {
        return { window: params.window, app: a.app, appName: a.name, pid: a.pid };
      }
    }
    const app = listings?.appOf(params.window);
    if (app !== undefined && !apps.some((a) => a.app === app)) {
      throw new DriverError("app_not_running", `The app of window "${params.window}" quit`, {
        apps: apps.map((a) => a.name),
      });
    }
    throw new DriverError("window_not_found", `No window "${params.window}"`, { version: 0 });
  }
  if (params.app !== undefined) {
    const want = params.app;
    const matches = typeof want === "number"
      ? apps.filter((a) => a.pid === want)
      : apps.filter((a) => a.name.toLowerCase() === want.toLowerCase());
    if (matches.length === 0) {
      throw new DriverError("app_not_running", `No running app ${JSON.stringify(want)}`, {
        apps: apps.map((a) => a.name),
      });
    }
    for (const a of matches) {
      const t = pick(a);
      if (t) return t;
    }
    // Listed with no window because it did not answer in time (an app busy starting up):
    // said, so the caller can ask again rather than take it for an app with no tree.
    const busy = matches.every((a) => a.live?.state === "degraded");
    throw new DriverError("window_not_found", `App ${JSON.stringify(want)} has no window`, {
      version: 0,
      ...(busy ? { not_responding: true } : {}),
    });
  }
  const front = apps.find((a) => a.windows.some((w) => w.focused)) ??
    apps.find((a) => a.windows.length > 0);
  const t = front && pick(front);
  if (!t) throw new DriverError("window_not_found", "No app has a window", { version: 0 });
  return t;
}
