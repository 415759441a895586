/**
 * Cua's windows under the engine's ids, and what each recent read of a window holds: the
 * address behind every handle it gave out, so an action planned on an older map version
 * still reaches the element Cua indexed in that read.
 *
 * @module
 */
import type { Bounds } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { AppInfo } from "../../model/engine.ts";
import type { WindowRecord } from "./tools.ts";
import type { CuaAddress } from "./tree.ts";

/** Reads remembered per window: as many as the map keeps versions (design document). */
export const READS_KEPT = 8;

/** A window as Cua addresses it. */
export interface CuaWindow {
  /** Owner process (every Cua window call names it). */
  pid: number;
  /** Cua's native window id (X11 xid, CGWindowID, HWND). */
  windowId: number;
  /** App name. */
  app: string;
  /** Title. */
  title: string;
  /** Screen points. */
  bounds: Bounds;
}

/** The engine's id for a Cua window: stable for the window's lifetime, like Cua's own. */
export function engineWindowId(pid: number, windowId: number): string {
  return `cua:${pid}:${windowId}`;
}

/** Apps with their windows from `list_windows` records; fills `into` with every window. */
export function appsFrom(
  records: readonly WindowRecord[],
  into: Map<string, CuaWindow>,
): AppInfo[] {
  const apps = new Map<number, AppInfo>();
  const z = records.map((r) => r.z_index).filter((v): v is number => typeof v === "number");
  // "To select a frontmost candidate, take the maximum integer z_index."
  const front = z.length > 0 ? Math.max(...z) : undefined;
  for (const r of records) {
    // Every window call needs the pid: a window without one cannot be read or acted on.
    if (r.pid === null || r.pid === undefined || r.pid <= 0) continue;
    if (r.is_on_screen === false) continue;
    const b = r.bounds;
    const bounds = b ? { x: b.x, y: b.y, w: b.width, h: b.height } : { x: 0, y: 0, w: 0, h: 0 };
    const name = r.app_name ?? "";
    const id = engineWindowId(r.pid, r.window_id);
    into.set(id, { pid: r.pid, windowId: r.window_id, app: name, title: r.title ?? "", bounds });
    let app = apps.get(r.pid);
    if (!app) apps.set(r.pid, app = { app: `cua:${r.pid}`, pid: r.pid, name, windows: [] });
    app.windows.push({
      window: id,
      title: r.title ?? "",
      bounds,
      focused: front !== undefined && r.z_index === front,
    });
  }
  return [...apps.values()];
}

/**
 * Cua's refusal of a window that closed: "Window target pid P, window_id W is stale or no
 * longer running; refresh list_windows" (wording quoted in Cua's issue tracker; no error
 * code is documented for it).
 */
export function isStaleWindow(err: unknown): boolean {
  const why = err instanceof DriverError ? String(err.data.reason ?? "") : "";
  return /stale or no longer running/i.test(why);
}

/** One read's handles. */
interface Read {
  seq: number;
  addresses: Map<string, CuaAddress>;
}

/** The last {@link READS_KEPT} reads of every window. */
export class ReadHistory {
  readonly #reads = new Map<string, Read[]>();

  /** Remembers read `seq` of `window`. */
  record(window: string, seq: number, addresses: Map<string, CuaAddress>): void {
    const reads = this.#reads.get(window) ?? [];
    reads.push({ seq, addresses });
    if (reads.length > READS_KEPT) reads.splice(0, reads.length - READS_KEPT);
    this.#reads.set(window, reads);
  }

  /** Cua's address behind `handle`, or `element_not_found` when its read aged out. */
  address(window: string, handle: string): CuaAddress {
    const seq = Number(/^c(\d+)\./.exec(handle)?.[1]);
    const read = this.#reads.get(window)?.find((r) => r.seq === seq);
    const address = read?.addresses.get(handle);
    if (!address) {
      throw new DriverError(
        "element_not_found",
        `Element "${handle}" is from a Cua read that is no longer kept: read the window again`,
      );
    }
    return address;
  }

  /** The structural key behind `handle` (the window's own: ""), or undefined if aged out. */
  keyOf(window: string, handle: string): string | undefined {
    if (/^c\d+\.w$/.test(handle)) return "";
    try {
      return this.address(window, handle).key;
    } catch {
      return undefined;
    }
  }

  /** Forgets the reads of every window not in `open` (closed since). */
  retain(open: ReadonlyMap<string, unknown>): void {
    for (const window of this.#reads.keys()) if (!open.has(window)) this.#reads.delete(window);
  }
}
