/**
 * What the driver remembers of each app's windows between calls: the window ids it last
 * listed, and how many window-level notifications the app had posted then. A `read_ui`
 * by app answers its remembered window only while no window came, went or was activated
 * since; an action that brought a window up says which (`opened`).
 *
 * @module
 */
import type { AppInfo, WindowInfo } from "../model/engine.ts";
import { windowOf } from "./target.ts";

/** One app's windows as last listed. */
interface Listing {
  /** Window ids listed. */
  windows: Set<string>;
  /** The window a read of the app means, by that listing (target.ts `windowOf`). */
  current: string | undefined;
  /** The app's window-level notification count at that time. */
  seen: number;
}

/** Per-app memory of listed windows. */
export class AppWindows {
  readonly #apps = new Map<string, Listing>();
  readonly #limit: number;

  /** Remembers at most `limit` apps (the least recently listed go first). */
  constructor(limit = 64) {
    this.#limit = limit;
  }

  /** Records a listing of `app`, taken when it had posted `seen` window notifications. */
  listed(app: AppInfo, seen: number): void {
    this.#apps.delete(app.app);
    const windows = new Set(app.windows.map((w) => w.window));
    this.#apps.set(app.app, { windows, current: windowOf(app), seen });
    while (this.#apps.size > this.#limit) this.#apps.delete(this.#apps.keys().next().value!);
  }

  /**
   * The window a read of `app` means, as of its last listing; undefined when it was never
   * listed or posted window notifications since (`seen` differs): list it again.
   */
  current(app: string, seen: number): string | undefined {
    const l = this.#apps.get(app);
    return l === undefined || l.seen !== seen ? undefined : l.current;
  }

  /** The app (its bus name or id) whose last listing had `window`, if one is remembered. */
  appOf(window: string): string | undefined {
    for (const [app, l] of this.#apps) if (l.windows.has(window)) return app;
    return undefined;
  }

  /**
   * The windows of `app` in `now` that its last listing did not have, besides `except`:
   * what an action brought up. Without a listing, none can be told apart: empty.
   */
  opened(app: AppInfo, except: string): WindowInfo[] {
    const before = this.#apps.get(app.app);
    if (!before) return [];
    return app.windows.filter((w) => w.window !== except && !before.windows.has(w.window));
  }
}
