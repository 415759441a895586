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

/** A listing: the apps listed, and every app on the registry (bus names). */
export interface Listing {
  apps: AppInfo[];
  present: Set<string>;
}

/** An app's last answered listing, kept to list it while it does not answer. */
export interface Remembered {
  /** What it answered. */
  info: AppInfo;
  /** When (`performance.now()`). */
  at: number;
}

/**
 * How long an app that did not answer the last listing is waited for: it is listed from
 * memory meanwhile, so a hung app costs each listing this much, not the full call timeout.
 */
export const HUNG_WAIT_MS = 200;

/** Why an app is listed from memory. */
export const NOT_RESPONDING = "app_not_responding";

/**
 * How an app that did not answer is listed: its last answered listing marked degraded,
 * with the age of that answer; without one, its pid and process name (the bus daemon and
 * `/proc` answer for a hung app) with no windows. `undefined` when the bus daemon knows no
 * pid for it (`pid` undefined: its connection is gone, the app with it) or nothing is known.
 */
export function standIn(
  bus: string,
  last: Remembered | undefined,
  pid: number | undefined,
  name: string | undefined,
  now: number,
): AppInfo | undefined {
  if (pid === undefined) return undefined;
  if (last) {
    const age = Math.max(0, Math.round(now - last.at));
    return {
      ...last.info,
      windows: last.info.windows.map((w) => ({ ...w })),
      live: { state: "degraded", reason: NOT_RESPONDING, age_ms: age },
    };
  }
  if (!(pid > 0) || name === undefined) return undefined;
  return { app: bus, pid, name, windows: [], live: { state: "degraded", reason: NOT_RESPONDING } };
}

/** Memory and lookups that let a listing keep apps that do not answer. */
export interface ListingMemory {
  /** Each app's last answered listing, by bus name; pruned to the apps present. */
  apps: Map<string, Remembered>;
  /** Apps (bus names) that did not answer their last listing; pruned likewise. */
  hung: Set<string>;
  /** The process name of a pid (`/proc`), for an app never listed before. */
  nameOf: (pid: number) => string | undefined;
  /** The clock. */
  now?: () => number;
}

/**
 * Lists apps with their windows and fills `windows` with every window id seen. An app that
 * does not answer within `limits` does not stall the rest: with `memory`, it is listed
 * from its last answer (or its pid and process name) marked degraded ({@link standIn}),
 * and waited for only {@link HUNG_WAIT_MS} by later listings until it answers again;
 * without, it is left out. Either way it is still `present`.
 */
export async function listApps(
  client: AtspiClient,
  limits: CallLimits,
  windows: Map<string, WindowEntry>,
  memory?: ListingMemory,
): Promise<Listing> {
  const now = memory?.now ?? (() => performance.now());
  const apps = await client.children(REGISTRY, limits);
  const present = new Set(apps.map((a) => a.bus));
  if (memory) {
    for (const bus of memory.apps.keys()) if (!present.has(bus)) memory.apps.delete(bus);
    for (const bus of memory.hung) if (!present.has(bus)) memory.hung.delete(bus);
  }
  const listed = await Promise.all(apps.map(async (ref): Promise<AppInfo | undefined> => {
    const hung = memory?.hung.has(ref.bus) === true;
    const own = hung ? { ...limits, timeoutMs: Math.min(limits.timeoutMs, HUNG_WAIT_MS) } : limits;
    // The bus daemon answers the pid, hung app or not: asked apart, it names a stand-in.
    const pidOf = client.pid(ref.bus, limits);
    pidOf.catch(() => {}); // a failure is read below, where it matters
    try {
      const [name, pid, kids] = await Promise.all([
        client.prop(ref, "Accessible", "Name", own),
        pidOf,
        client.children(ref, own),
      ]);
      const app = String(name ?? "");
      const wins = await Promise.all(kids.map(async (w): Promise<WindowInfo> => {
        const [title, state, role, box] = await Promise.all([
          client.prop(w, "Accessible", "Name", own),
          client.call(w, "Accessible", "GetState", own),
          client.call(w, "Accessible", "GetRole", own).catch(() => [0]),
          client.extents(w, own).catch(() => [0, 0, 0, 0] as const),
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
      const info: AppInfo = { app: ref.bus, pid, name: app, windows: wins };
      memory?.apps.set(ref.bus, {
        info: { ...info, windows: wins.map((w) => ({ ...w })) },
        at: now(),
      });
      memory?.hung.delete(ref.bus);
      return info;
    } catch (err) {
      log(hung ? "debug" : "warn", "app did not answer the listing", {
        bus: ref.bus,
        error: String(err),
      });
      if (!memory) return undefined;
      memory.hung.add(ref.bus);
      const last = memory.apps.get(ref.bus);
      const pid = await pidOf.catch(() => undefined);
      const name = last || pid === undefined ? undefined : memory.nameOf(pid);
      return standIn(ref.bus, last, pid, name, now());
    }
  }));
  return { apps: listed.filter((a): a is AppInfo => a !== undefined), present };
}

/** A window X paints: its process and screen rectangle. */
export interface PaintedWindow {
  pid: number;
  bounds: { x: number; y: number; w: number; h: number };
}

/**
 * Leaves out of `app` the untitled windows X paints nowhere: Chromium keeps two hidden
 * frames per browser window (its omnibox popups) that say SHOWING and VISIBLE, and were
 * listed as windows no one could see or use. Painted means an X window of the process
 * where the window says it is (overlapping is not enough: the popups lie over the
 * browser's own window). Only when X paints some window of the app's
 * process is that evidence: an app X knows no window of keeps all it lists, and a titled
 * window (a minimized one among them) always stays. A popup is matched by its rectangle
 * alone, whatever pid X gives it (some carry none).
 */
export function withoutPhantoms(app: AppInfo, painted: readonly PaintedWindow[]): AppInfo {
  if (!painted.some((p) => p.pid === app.pid)) return app;
  // Painted where it says it is: X's rectangle and the window's own, a frame's width apart.
  // Any painted window counts: a popup may carry no pid of its own.
  const near = (a: number, b: number) => Math.abs(a - b) <= FRAME_SLACK;
  const shows = (b: PaintedWindow["bounds"]) =>
    painted.some((p) =>
      near(p.bounds.x, b.x) && near(p.bounds.y, b.y) && near(p.bounds.w, b.w) &&
      near(p.bounds.h, b.h)
    );
  const windows = app.windows.filter((w) => w.title !== "" || shows(w.bounds));
  return windows.length === app.windows.length ? app : { ...app, windows };
}

/** How far a window's own rectangle and X's may differ (a window manager's frame). */
const FRAME_SLACK = 32;
