/**
 * Which process owns an X window, and its name: what lists apps known only to X (Tk,
 * plain Xt apps such as xcalc, anything read by vision) under the name and pid `ps`
 * shows, the way a person names them.
 *
 * Three sources, in order, each for the windows the one before cannot place:
 *
 * 1. `_NET_WM_PID`, set by the client itself (GTK, Qt, SDL, Chromium): one property read.
 * 2. The X-Resource extension's client pid (`XResQueryClientIds`): the server read it off
 *    the client's socket, so it holds for clients that never say their pid. Xt does not
 *    set `_NET_WM_PID`, nor does Tk. It knows nothing of clients over TCP, and servers
 *    before X-Resource 1.2 (or without libXRes here) do not answer it.
 * 3. `/proc`: a client whose `WM_CLIENT_MACHINE` names this host and whose `WM_COMMAND`
 *    (set by Xt's session support, and by Tk's `wm command`) is the command line of
 *    exactly one process here. This places clients the server cannot (a TCP connection
 *    to localhost, an X server without X-Resource).
 *
 * @module
 */
import { cString } from "../../ffi/linux_x11.ts";
import { clientPid, hasClientIds, loadXRes, type XRes } from "../../ffi/linux_xres.ts";
import { log } from "../../util/log.ts";
import { type X11Display, type X11Handle, x11Handle } from "./display.ts";
import {
  matchCommand,
  type ProcessArgs,
  processes,
  processName,
  sameHost,
  splitArgs,
} from "./processes.ts";
import type { TopLevelWindow } from "./top_level.ts";
import { property } from "./window_props.ts";

/** Where a window's pid came from. */
export type PidSource = "net_wm_pid" | "xres" | "proc";

/** The process behind a window. */
export interface ClientProcess {
  /** Process id. */
  pid: number;
  /** Its name as `ps` shows it (`/proc/PID/comm`, whole). */
  name: string;
  /** Which source placed it. */
  via: PidSource;
}

/** Per display connection: libXRes and whether the server answers client pids. */
const xresOf = new Map<bigint, XRes | null>();

function xres(h: X11Handle): XRes | undefined {
  const key = Deno.UnsafePointer.value(h.dpy);
  let lib = xresOf.get(key);
  if (lib === undefined) {
    try {
      const loaded = loadXRes();
      lib = hasClientIds(loaded, h.dpy) ? loaded : null;
    } catch (err) {
      log("debug", "no X-Resource client pids", { error: String(err) });
      lib = null;
    }
    xresOf.set(key, lib);
  }
  return lib ?? undefined;
}

/** A pid is kept only when its process is here to name: a stale or foreign one is not. */
function named(pid: number | undefined, via: PidSource): ClientProcess | undefined {
  if (pid === undefined || !(pid > 0)) return undefined;
  const name = processName(pid);
  return name === undefined ? undefined : { pid, name, via };
}

/**
 * The process behind each of `windows` that some source can place (see the module
 * comment), by X window id. Windows none can place are absent. `sources` narrows the
 * sources asked (tests check each fallback on its own).
 */
export function clientProcesses(
  display: X11Display,
  windows: readonly TopLevelWindow[],
  sources: readonly PidSource[] = ["net_wm_pid", "xres", "proc"],
): Map<number, ClientProcess> {
  const h = x11Handle(display);
  const atom = (name: string) => h.x11.XInternAtom(h.dpy, cString(name), 0);
  const fromProc = byCommand(h, atom("WM_CLIENT_MACHINE"), atom("WM_COMMAND"));
  const out = new Map<number, ClientProcess>();
  for (const w of windows) {
    const found = (sources.includes("net_wm_pid") ? named(w.pid, "net_wm_pid") : undefined) ??
      (sources.includes("xres") ? fromServer(h, w.xid) : undefined) ??
      (sources.includes("proc") ? fromProc(w.xid) : undefined);
    if (found) out.set(w.xid, found);
  }
  return out;
}

/**
 * The `/proc` source: a window whose `WM_CLIENT_MACHINE` is this host and whose
 * `WM_COMMAND` is one process's command line. `/proc` is read once, when first needed.
 */
function byCommand(
  h: X11Handle,
  machineAtom: bigint,
  commandAtom: bigint,
): (xid: number) => ClientProcess | undefined {
  const hostname = Deno.hostname();
  let procs: ProcessArgs[] | undefined;
  return (xid) => {
    const machine = property(h, BigInt(xid), machineAtom);
    const command = property(h, BigInt(xid), commandAtom);
    if (!machine || !command) return undefined;
    if (!sameHost(new TextDecoder().decode(machine.bytes).replace(/\0+$/, ""), hostname)) {
      return undefined;
    }
    procs ??= processes();
    return named(matchCommand(splitArgs(command.bytes), procs), "proc");
  };
}

function fromServer(h: X11Handle, xid: number): ClientProcess | undefined {
  const lib = xres(h);
  return lib ? named(clientPid(lib, h.dpy, BigInt(xid)), "xres") : undefined;
}
