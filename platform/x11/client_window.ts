/**
 * The X client window behind a window an accessibility API names by process and title.
 *
 * Unlike `top_level.ts`, unmapped windows count: right after an app starts, its window
 * is on the accessibility bus before the window manager has reparented and mapped it,
 * and that reparenting is exactly the move a watch must not miss.
 *
 * @module
 */
import { cString } from "../../ffi/linux_x11.ts";
import { type X11Display, type X11Handle, x11Handle } from "./display.ts";
import { longs, property, queryTree } from "./window_props.ts";

/** Root → (frame →) client: as deep as `top_level.ts` looks. */
const MAX_DEPTH = 3;
const IS_VIEWABLE = 2;
/** `map_state` in XWindowAttributes on x86_64 (as in `top_level.ts`). */
const MAP_STATE_OFFSET = 92;
const ATTRIBUTES_SIZE = 160;

/** One client window of the process, as found. */
interface Candidate {
  xid: bigint;
  title: string;
  viewable: boolean;
}

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
  const h = x11Handle(display);
  const found = candidates(h, pid);
  const titled = found.filter((c) => c.title === title);
  const pick = (list: Candidate[]) =>
    list.find((c) => c.viewable) ?? (list.length === 1 ? list[0] : undefined);
  const viewable = found.filter((c) => c.viewable);
  const chosen = pick(titled) ??
    (viewable.length === 1 ? viewable[0] : found.length === 1 ? found[0] : undefined);
  return chosen === undefined ? undefined : Number(chosen.xid);
}

function candidates(h: X11Handle, pid: number): Candidate[] {
  const atom = (name: string) => h.x11.XInternAtom(h.dpy, cString(name), 0);
  const atoms = {
    wmClass: atom("WM_CLASS"),
    wmName: atom("WM_NAME"),
    netName: atom("_NET_WM_NAME"),
    pid: atom("_NET_WM_PID"),
  };
  const out: Candidate[] = [];
  const walk = (win: bigint, depth: number) => {
    for (const child of queryTree(h, win)?.children ?? []) {
      if (property(h, child, atoms.wmClass) === undefined) {
        if (depth < MAX_DEPTH) walk(child, depth + 1);
        continue;
      }
      const own = property(h, child, atoms.pid);
      if (Number((own && longs(own)[0]) ?? 0n) !== pid) continue;
      const net = property(h, child, atoms.netName);
      const title = net !== undefined
        ? new TextDecoder().decode(net.bytes)
        : String.fromCharCode(...(property(h, child, atoms.wmName)?.bytes ?? []));
      out.push({ xid: child, title, viewable: viewable(h, child) });
    }
  };
  walk(h.root, 1);
  return out;
}

function viewable({ x11, dpy }: X11Handle, win: bigint): boolean {
  const attrs = new Uint8Array(ATTRIBUTES_SIZE);
  if (!x11.XGetWindowAttributes(dpy, win, attrs)) return false;
  return new DataView(attrs.buffer).getInt32(MAP_STATE_OFFSET, true) === IS_VIEWABLE;
}
