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

/**
 * Lists apps with their windows and fills `windows` with every window id seen. An app that
 * does not answer within `limits` is listed without windows rather than stalling the rest.
 */
export async function listApps(
  client: AtspiClient,
  limits: CallLimits,
  windows: Map<string, WindowEntry>,
): Promise<AppInfo[]> {
  const apps = await client.children(REGISTRY, limits);
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
  return listed.filter((a): a is AppInfo => a !== undefined);
}
