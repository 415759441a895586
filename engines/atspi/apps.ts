/**
 * Running apps and their top-level windows, from the AT-SPI registry. Window ids are
 * short hashes of the window's bus name and path, stable for the window's lifetime.
 *
 * @module
 */
import type { AppInfo, WindowInfo, WindowRole } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { STATE, StateSet } from "./states.ts";
import { type AtspiRoleName, atspiRoleName } from "./roles.ts";
import { log } from "../../util/log.ts";

const REGISTRY: Ref = { bus: "org.a11y.atspi.Registry", path: "/org/a11y/atspi/accessible/root" };

/** What the engine remembers of a window id. */
export interface WindowEntry {
  /** The window object. */
  ref: Ref;
  /** Its app's process id. */
  pid: number;
  /** Its app's name. */
  app: string;
}

/** The kind of a top-level window, from its AT-SPI role. */
export function windowRole(role: AtspiRoleName): WindowRole {
  switch (role) {
    case "dialog":
    case "file_chooser":
    case "color_chooser":
    case "font_chooser":
      return "dialog";
    case "alert":
      return "alert";
    case "menu":
    case "popup_menu":
      return "menu";
    case "window":
    case "tool_tip":
    case "notification":
      return "popup";
    default:
      return "window";
  }
}

/** FNV-1a, 32 bits, as 8 hex digits: short, stable window ids. */
export function windowIdOf(ref: Ref): string {
  let h = 0x811c9dc5;
  const s = `${ref.bus}|${ref.path}`;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `w${h.toString(16).padStart(8, "0")}`;
}

/** Window ids of apps that left the bus, remembered at most (the newest are kept). */
export const MAX_DEPARTED = 1_000;

/**
 * Moves the windows of apps not `present` from `windows` to `departed` (window id → app
 * name), which keeps the newest {@link MAX_DEPARTED}: a later call on one can say that its
 * app quit, while nothing is kept for the app's life.
 */
export function dropDeparted(
  windows: Map<string, WindowEntry>,
  present: ReadonlySet<string>,
  departed: Map<string, string>,
): void {
  for (const [id, entry] of windows) {
    if (present.has(entry.ref.bus)) continue;
    windows.delete(id);
    departed.set(id, entry.app);
  }
  for (const id of departed.keys()) {
    if (departed.size <= MAX_DEPARTED) break;
    departed.delete(id);
  }
}

/** A listing: the apps that answered, and every app on the registry (bus names). */
export interface Listing {
  apps: AppInfo[];
  present: Set<string>;
}

/**
 * Lists apps with their windows and fills `windows` with every window id seen. An app that
 * does not answer within `limits` is left out of the list rather than stalling the rest;
 * it is still `present`.
 */
export async function listApps(
  client: AtspiClient,
  limits: CallLimits,
  windows: Map<string, WindowEntry>,
): Promise<Listing> {
  const apps = await client.children(REGISTRY, limits);
  const present = new Set(apps.map((a) => a.bus));
  const listed = await Promise.all(apps.map(async (ref): Promise<AppInfo | undefined> => {
    try {
      const [name, pid, kids] = await Promise.all([
        client.prop(ref, "Accessible", "Name", limits),
        client.pid(ref.bus, limits),
        client.children(ref, limits),
      ]);
      const app = String(name ?? "");
      const wins = await Promise.all(kids.map(async (w): Promise<WindowInfo> => {
        const [title, state, role, box] = await Promise.all([
          client.prop(w, "Accessible", "Name", limits),
          client.call(w, "Accessible", "GetState", limits),
          client.call(w, "Accessible", "GetRole", limits).catch(() => [0]),
          client.extents(w, limits).catch(() => [0, 0, 0, 0] as const),
        ]);
        const id = windowIdOf(w);
        windows.set(id, { ref: w, pid, app });
        const [x, y, wd, ht] = box;
        const states = new StateSet(state[0] as number[]);
        return {
          window: id,
          title: String(title ?? ""),
          bounds: { x, y, w: wd, h: ht },
          focused: states.has(STATE.ACTIVE),
          role: windowRole(atspiRoleName(Number(role[0]))),
          modal: states.has(STATE.MODAL),
        };
      }));
      return { app: ref.bus, pid, name: app, windows: wins };
    } catch (err) {
      log("warn", "app did not answer the listing", { bus: ref.bus, error: String(err) });
      return undefined;
    }
  }));
  return { apps: listed.filter((a): a is AppInfo => a !== undefined), present };
}
