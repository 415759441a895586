/**
 * The vision engine's apps and windows: every top-level X client window, whether or not
 * it has an accessibility tree. Window ids are `x` and the X window id in hex
 * (`x400016`), stable for the window's lifetime and distinct from AT-SPI's `w…` ids.
 *
 * @module
 */
import type { Bounds } from "../../protocol/element.ts";
import { isDriverError } from "../../protocol/errors.ts";
import type { AppInfo, WindowInfo } from "../../model/engine.ts";
import {
  activeWindow,
  clientProcesses,
  type TopLevelWindow,
  topLevelWindows,
  windowBounds,
  type X11Display,
} from "../../platform/x11/mod.ts";

/** The vision window id of X window `xid`. */
export function windowId(xid: number): string {
  return `x${xid.toString(16)}`;
}

/** The X window of a vision window id (`x400016`, or `0x400016`); `undefined` otherwise. */
export function parseWindowId(id: string): number | undefined {
  const m = /^0?x([0-9a-f]{1,8})$/i.exec(id);
  return m ? parseInt(m[1]!, 16) : undefined;
}

/** Apps and their windows, and what X said of each window, by window id. */
export interface Listing {
  /** Apps as {@link Engine.listApps} answers them. */
  apps: AppInfo[];
  /** Each listed window's X facts. */
  windows: Map<string, TopLevelWindow>;
}

/**
 * Lists client windows grouped into apps: by the process that owns them
 * (`platform/x11/clients.ts`: `_NET_WM_PID`, else the X server's client pid, else
 * `/proc`), named by its process name as `ps` shows it (`xcalc`, `idle`), the name a
 * person types; a window no source places is grouped and named by its `WM_CLASS`
 * instance (two such xcalcs are one app with two windows). Grouping by process keeps a Tk
 * app's toplevels together, whose instances are widget paths (`!listedtoplevel`). Windows
 * that vanish while being listed are left out.
 */
export function listWindows(display: X11Display): Listing {
  const active = activeWindow(display);
  const apps = new Map<string, AppInfo>();
  const windows = new Map<string, TopLevelWindow>();
  const all = topLevelWindows(display);
  const owners = clientProcesses(display, all);
  for (const w of all) {
    let bounds: Bounds;
    try {
      bounds = windowBounds(display, w.xid);
    } catch (err) {
      if (isDriverError(err, "window_not_found")) continue;
      throw err;
    }
    const id = windowId(w.xid);
    windows.set(id, w);
    const owner = owners.get(w.xid);
    const name = owner?.name ?? w.instance;
    const key = owner ? `x11:${name}:${owner.pid}` : `x11:${name}`;
    const app = apps.get(key) ?? { app: key, pid: owner?.pid ?? 0, name, windows: [] };
    const info: WindowInfo = {
      window: id,
      title: w.title,
      bounds,
      focused: w.xid === active,
      // What X says of a dialog (WM_TRANSIENT_FOR, _NET_WM_STATE_MODAL) is all that tells
      // a dialog no tree announces (a Tk Toplevel, the GTK file chooser Chromium shows)
      // from a window: `act` names it in `opened`, `list_apps` under its app.
      ...(w.transientFor ? { role: "dialog" as const } : {}),
      ...(w.modal ? { modal: true } : {}),
    };
    app.windows.push(info);
    apps.set(key, app);
  }
  return { apps: [...apps.values()], windows };
}

/** What is known of a window another engine listed, to find its X window. */
export interface WindowHint {
  /** The app's process id (0 or absent when unknown). */
  pid?: number;
  /** The window's title. */
  title?: string;
  /** The window's screen bounds. */
  bounds?: Bounds;
}

/**
 * The vision window id of a window another engine knows (a sparse AT-SPI window, for
 * reads from both sources): the window of the same pid and title, else the same title at
 * the same place, else the one at exactly those bounds. `undefined` when none matches.
 */
export function findWindow(listing: Listing, hint: WindowHint): string | undefined {
  const all = listing.apps.flatMap((a) => a.windows.map((w) => ({ app: a, w })));
  const near = (b: Bounds) =>
    hint.bounds !== undefined && Math.abs(b.x - hint.bounds.x) <= 2 &&
    Math.abs(b.y - hint.bounds.y) <= 2 && Math.abs(b.w - hint.bounds.w) <= 2 &&
    Math.abs(b.h - hint.bounds.h) <= 2;
  const byPid = hint.pid ? all.filter(({ app }) => app.pid === hint.pid) : [];
  const pick = byPid.find(({ w }) => w.title === hint.title) ??
    (byPid.length === 1 ? byPid[0] : undefined) ??
    all.find(({ w }) => w.title === hint.title && near(w.bounds)) ??
    all.find(({ w }) => near(w.bounds));
  return pick?.w.window;
}
