/**
 * The X client window behind a window an accessibility API names by process and title.
 *
 * Unlike `top_level.ts`, unmapped windows count: right after an app starts, its window
 * is on the accessibility bus before the window manager has reparented and mapped it,
 * and that reparenting is exactly the move a watch must not miss.
 *
 * @module
 */
import type { X11Display } from "./display.ts";
import { type TopLevelWindow, topLevelWindows } from "./top_level.ts";

/**
 * The client window (one with `WM_CLASS`) of process `pid` titled `title`: the viewable
 * one first when several are; without a title match, the process's only viewable client
 * window, else its only one. Undefined when none fits.
 */
export function clientWindowOf(
  display: X11Display,
  pid: number,
  title: string,
): number | undefined {
  const found = topLevelWindows(display, { unmapped: true }).filter((w) => w.pid === pid);
  const titled = found.filter((c) => c.title === title);
  const pick = (list: TopLevelWindow[]) =>
    list.find((c) => !c.unmapped) ?? (list.length === 1 ? list[0] : undefined);
  const viewable = found.filter((c) => !c.unmapped);
  const chosen = pick(titled) ??
    (viewable.length === 1 ? viewable[0] : found.length === 1 ? found[0] : undefined);
  return chosen?.xid;
}
