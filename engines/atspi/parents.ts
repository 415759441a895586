/**
 * Which window a dialog, menu or popup belongs to, and whether it is modal. AT-SPI names no
 * owner for a top-level window, but X does (`WM_TRANSIENT_FOR`): each AT-SPI window is
 * matched to its X window by the app's pid and the title, and the owner's X window back to
 * the AT-SPI window id.
 *
 * @module
 */
import type { AppInfo } from "../../model/engine.ts";
import type { TopLevelWindow } from "../../platform/x11/mod.ts";

/** True when some window of `apps` is a dialog, alert, menu or popup: only they have owners. */
export function hasOwnedWindows(apps: readonly AppInfo[]): boolean {
  return apps.some((a) => a.windows.some((w) => w.role !== undefined && w.role !== "window"));
}

/**
 * Sets `parent` on the windows of `apps` whose X window names an owner among its app's,
 * and `modal` on those whose X window asked to be modal (`_NET_WM_STATE_MODAL`): Qt's
 * bridge never says MODAL, not even on the dialog a `QDialog.exec()` runs, which read
 * `modal: false` in `opened` while it blocked its parent.
 */
export function addParents(apps: AppInfo[], tops: readonly TopLevelWindow[]): void {
  for (const app of apps) {
    const mine = tops.filter((t) => t.pid === app.pid);
    if (mine.length === 0) continue;
    const xOf = new Map<string, TopLevelWindow>();
    for (const w of app.windows) {
      const same = mine.filter((t) => t.title === w.title);
      if (same.length === 1) xOf.set(w.window, same[0]!); // two alike: which is which is unknown
    }
    // A GTK alert is named by its message on the bus and has no X title: the one window
    // left on each side is the same window.
    const unpaired = app.windows.filter((w) => !xOf.has(w.window));
    const taken = new Set([...xOf.values()].map((t) => t.xid));
    const spare = mine.filter((t) => !taken.has(t.xid));
    if (unpaired.length === 1 && spare.length === 1) xOf.set(unpaired[0]!.window, spare[0]!);
    const idOf = new Map([...xOf].map(([id, t]) => [t.xid, id]));
    for (const w of app.windows) {
      if (xOf.get(w.window)?.modal) w.modal = true;
      const owner = xOf.get(w.window)?.transientFor;
      const parent = owner === undefined ? undefined : idOf.get(owner);
      if (parent !== undefined && parent !== w.window) w.parent = parent;
    }
  }
}
