/**
 * Running apps and their windows through an {@link AxSource}. Window ids are short hashes
 * of the owner's pid and the window element's handle, which the source keeps stable for
 * the element's lifetime, so an id names one window until it closes.
 *
 * @module
 */
import { isDriverError } from "../../protocol/errors.ts";
import { boolOf, elementOf, elementsOf, stringOf } from "../../ffi/macos/values.ts";
import { log } from "../../util/log.ts";
import { mapLimit } from "../../util/pool.ts";
import type { AppInfo, WindowInfo } from "../../model/engine.ts";
import type { AxSource } from "./source.ts";

/** What the engine remembers of a window id. */
export interface AxWindowEntry {
  /** The window element's handle. */
  handle: string;
  /** Owner's pid. */
  pid: number;
  /** Owner's engine app id. */
  app: string;
  /** Owner's name. */
  appName: string;
}

/** Attributes read from each app element. */
export const APP_ATTRIBUTES = ["AXWindows", "AXFocusedWindow"] as const;
/** Attributes read from each window element. */
export const WINDOW_ATTRIBUTES = [
  "AXRole",
  "AXTitle",
  "AXPosition",
  "AXSize",
  "AXMain",
  "AXFocused",
] as const;

/** Apps listed at once: each may take its whole timeout when hung. */
const APP_CONCURRENCY = 8;

/** The engine's app id for a process. */
export function appIdOf(pid: number): string {
  return `pid:${pid}`;
}

/** FNV-1a, 32 bits, as 8 hex digits after a `w`: a short, stable window id. */
export function windowIdOf(pid: number, handle: string): string {
  let h = 0x811c9dc5;
  const s = `${pid}|${handle}`;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `w${h.toString(16).padStart(8, "0")}`;
}

/** A listing and the handles it came across (the engine releases what it does not keep). */
export interface Listing {
  /** Apps with windows, frontmost first. */
  apps: AppInfo[];
  /** Window id -> entry for every window listed. */
  windows: Map<string, AxWindowEntry>;
  /** Handles other than the listed windows' (app elements excluded). */
  transient: string[];
}

/**
 * Lists apps and their windows. An app that does not answer within `timeoutMs` is listed
 * without windows instead of failing the listing; a trust error fails it.
 */
export async function listAxApps(source: AxSource, timeoutMs: number): Promise<Listing> {
  const windows = new Map<string, AxWindowEntry>();
  const transient: string[] = [];
  const running = source.runningApps().sort((a, b) => Number(b.active) - Number(a.active));
  const apps = await mapLimit(running, APP_CONCURRENCY, async (app): Promise<AppInfo> => {
    const info: AppInfo = { app: appIdOf(app.pid), pid: app.pid, name: app.name, windows: [] };
    try {
      const appHandle = source.application(app.pid);
      const [list, focusedValue] = await source.attributes(appHandle, APP_ATTRIBUTES, timeoutMs);
      const focused = elementOf(focusedValue);
      if (focused !== undefined) transient.push(focused);
      for (const handle of elementsOf(list)) {
        const values = await source.attributes(handle, WINDOW_ATTRIBUTES, timeoutMs);
        const [role, title, pos, size, main, isFocused] = values;
        if (stringOf(role) !== "AXWindow") {
          transient.push(handle);
          continue;
        }
        const id = windowIdOf(app.pid, handle);
        windows.set(id, { handle, pid: app.pid, app: info.app, appName: app.name });
        const p = pos?.kind === "point" ? pos : { x: 0, y: 0 };
        const s = size?.kind === "size" ? size : { w: 0, h: 0 };
        const window: WindowInfo = {
          window: id,
          title: stringOf(title) ?? "",
          bounds: { x: p.x, y: p.y, w: s.w, h: s.h },
          focused: app.active &&
            (handle === focused || (focused === undefined && (boolOf(main) ?? false)) ||
              (boolOf(isFocused) ?? false)),
        };
        info.windows.push(window);
      }
    } catch (err) {
      if (isDriverError(err, "driver_unavailable")) throw err;
      log("warn", "app did not answer the listing", { pid: app.pid, error: String(err) });
    }
    return info;
  });
  return { apps, windows, transient };
}
