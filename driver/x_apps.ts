/**
 * `list_apps` lists every app on screen, not only those with an accessibility tree: the
 * tree engine's apps, then apps only X knows (Tk, plain Xt such as xcalc, anything read by
 * vision) from the vision engine's listing, under their process name and pid. A tree app
 * that did not answer (listed from memory, `live.state: degraded`) is brought up to date
 * from its X windows.
 *
 * @module
 */
import type { AppInfo, WindowInfo } from "../model/engine.ts";
import type { Bounds } from "../protocol/element.ts";

/** Bounds within 2 points of each other: the same window as another engine placed it. */
function near(a: Bounds, b: Bounds): boolean {
  return Math.abs(a.x - b.x) <= 2 && Math.abs(a.y - b.y) <= 2 && Math.abs(a.w - b.w) <= 2 &&
    Math.abs(a.h - b.h) <= 2;
}

/**
 * A tree app listed from memory, with what X shows of its process now: a remembered
 * window X still has (same title, else same place) takes X's title and bounds; an X window
 * none matches (a dialog that opened as the app stopped answering, or every window of an
 * app never listed) is added under its X window id, which vision reads.
 */
export function refreshFromX(app: AppInfo, x: AppInfo): AppInfo {
  const unmatched = [...x.windows];
  const take = (w: WindowInfo): WindowInfo | undefined => {
    const byTitle = unmatched.findIndex((u) => u.title === w.title);
    const i = byTitle >= 0 ? byTitle : unmatched.findIndex((u) => near(u.bounds, w.bounds));
    return i < 0 ? undefined : unmatched.splice(i, 1)[0];
  };
  const windows = app.windows.map((w) => {
    const seen = take(w);
    return seen ? { ...w, title: seen.title, bounds: seen.bounds } : w;
  });
  return { ...app, windows: [...windows, ...unmatched] };
}

/**
 * The tree engine's `tree` apps, with the apps of `x` (the vision engine's listing of X)
 * that no tree app has the pid of; a tree app listed from memory is refreshed from its
 * X windows ({@link refreshFromX}). X windows no source could give a pid (pid 0) are
 * listed as X has them: nothing ties them to a tree app.
 */
export function withXApps(tree: readonly AppInfo[], x: readonly AppInfo[]): AppInfo[] {
  const out = [...tree];
  const byPid = new Map(tree.filter((a) => a.pid > 0).map((a, i) => [a.pid, i]));
  for (const app of x) {
    const i = app.pid > 0 ? byPid.get(app.pid) : undefined;
    if (i === undefined) out.push(app);
    else if (out[i]!.live?.state === "degraded") out[i] = refreshFromX(out[i]!, app);
    else out[i] = withXDialogs(out[i]!, app);
  }
  return out;
}

/**
 * A tree app with the dialogs X shows of its process (`role: "dialog"`, from
 * `WM_TRANSIENT_FOR`) that its tree has no window of the same title for: Chromium shows a
 * page's file chooser as a GTK dialog that is on no accessibility bus, and an agent must
 * see it (vision reads it by its X id). Other X windows of a tree app are its tree's own.
 */
export function withXDialogs(app: AppInfo, x: AppInfo): AppInfo {
  const extra = x.windows.filter((w) => w.role === "dialog" && !inTree(app.windows, w));
  return extra.length === 0 ? app : { ...app, windows: [...app.windows, ...extra] };
}

/**
 * Does the tree list X window `x` already: a window of the same title, or one over the
 * same rectangle? A toolkit's popup (LibreOffice's drop-down list) is a transient X window
 * titled otherwise than its tree's untitled popup, and was listed twice.
 */
export function inTree(tree: readonly WindowInfo[], x: WindowInfo): boolean {
  return tree.some((w) => w.title === x.title || sameRect(w.bounds, x.bounds));
}

/** Do `a` and `b` cover nearly the same rectangle (each overlapping the other by 90 %)? */
function sameRect(a: Bounds, b: Bounds): boolean {
  const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  const common = Math.max(0, dx) * Math.max(0, dy);
  return common > 0 && common >= 0.9 * a.w * a.h && common >= 0.9 * b.w * b.h;
}

/**
 * The X windows of `now` that `before` (the same process's window ids before an action)
 * lacked, besides `acted` and those `opened` (the tree's new windows) has (`inTree`): what
 * an action brought up that no notification announced. Vision's apps (Tk) post none at
 * all, and Chromium's file chooser is on no bus.
 */
export function newXWindows(
  before: ReadonlySet<string>,
  now: readonly WindowInfo[],
  acted: string,
  opened: readonly WindowInfo[],
): WindowInfo[] {
  return now.filter((w) => w.window !== acted && !before.has(w.window) && !inTree(opened, w));
}
