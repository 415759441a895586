/**
 * Running apps and their top-level windows, from user32 (no UIA call): visible, titled,
 * not cloaked by DWM. An app is a process; its name is the executable's base name. A UWP
 * app's frame belongs to ApplicationFrameHost, so its window is listed under the process
 * that owns the frame's content (Calculator is `CalculatorApp`, not the host).
 *
 * @module
 */
import { DWMWA_CLOAKED } from "../../ffi/windows/dwmapi.ts";
import { PROCESS_QUERY_LIMITED_INFORMATION } from "../../ffi/windows/kernel32.ts";
import type { WindowsLibraries } from "../../ffi/windows/load.ts";
import { readRect, RECT_SIZE, rectBounds } from "../../ffi/windows/structs.ts";
import { WNDENUMPROC } from "../../ffi/windows/user32.ts";
import type { AppInfo } from "../../model/engine.ts";
import type { Bounds } from "../../protocol/element.ts";
import { appIdOf, appNameOf, windowIdOf } from "./naming.ts";

/** One top-level window as user32 describes it. */
export interface TopWindow {
  /** Window handle. */
  hwnd: bigint;
  /** Owning process (for UWP frames: the content's process). */
  pid: number;
  /** The app name for `pid`. */
  app: string;
  /** Title. */
  title: string;
  /** Screen pixels. */
  bounds: Bounds;
}

/** Libraries the listing uses. */
export type ListLibs = Pick<WindowsLibraries, "user32" | "kernel32" | "dwmapi">;

const FRAME_HOST = "applicationframehost";
const decoder = new TextDecoder("utf-16le");

/** The handles `enumerate` (EnumWindows / EnumChildWindows) reports, in its order. */
function collect(enumerate: (cb: Deno.PointerObject) => number): bigint[] {
  const found: bigint[] = [];
  const cb = new Deno.UnsafeCallback(WNDENUMPROC, (hwnd) => {
    found.push(Deno.UnsafePointer.value(hwnd));
    return 1; // keep enumerating
  });
  try {
    enumerate(cb.pointer); // synchronous: the callback only runs inside this call
  } finally {
    cb.close();
  }
  return found;
}

const ptr = (h: bigint) => Deno.UnsafePointer.create(h);

function pidOf(libs: ListLibs, hwnd: bigint): number {
  const pid = new Uint32Array(1);
  libs.user32.GetWindowThreadProcessId(ptr(hwnd), pid);
  return pid[0]!;
}

/** Longest title read; longer ones are cut. */
const TITLE_CHARS = 512;

function titleOf(libs: ListLibs, hwnd: bigint): string {
  // For another process's window GetWindowTextW reads the stored caption and sends no
  // message, so a hung app cannot stall the listing (GetWindowTextLengthW may send one).
  const buf = new Uint16Array(TITLE_CHARS);
  const got = libs.user32.GetWindowTextW(ptr(hwnd), buf, buf.length);
  return decoder.decode(buf.subarray(0, Math.max(0, got)));
}

function cloaked(libs: ListLibs, hwnd: bigint): boolean {
  if (!libs.dwmapi) return false;
  const value = new Uint32Array(1);
  return libs.dwmapi.DwmGetWindowAttribute(ptr(hwnd), DWMWA_CLOAKED, value, 4) >= 0 &&
    value[0] !== 0;
}

/** The executable's base name for `pid` ("" when the process cannot be opened). */
export function processName(libs: ListLibs, pid: number): string {
  const h = libs.kernel32.OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid);
  if (!h) return "";
  try {
    const buf = new Uint16Array(1024);
    const size = new Uint32Array([buf.length]);
    if (!libs.kernel32.QueryFullProcessImageNameW(h, 0, buf, size)) return "";
    return appNameOf(decoder.decode(buf.subarray(0, size[0]!)));
  } finally {
    libs.kernel32.CloseHandle(h);
  }
}

/** Every visible, titled, uncloaked top-level window, in z-order (front first). */
export function topLevelWindows(libs: ListLibs): TopWindow[] {
  const names = new Map<number, string>();
  const nameOf = (pid: number) => {
    if (!names.has(pid)) names.set(pid, processName(libs, pid));
    return names.get(pid)!;
  };
  const out: TopWindow[] = [];
  for (const hwnd of collect((cb) => libs.user32.EnumWindows(cb, 0n))) {
    if (!libs.user32.IsWindowVisible(ptr(hwnd)) || cloaked(libs, hwnd)) continue;
    const title = titleOf(libs, hwnd);
    if (!title) continue;
    let pid = pidOf(libs, hwnd);
    if (nameOf(pid).toLowerCase() === FRAME_HOST) {
      const content = collect((cb) => libs.user32.EnumChildWindows(ptr(hwnd), cb, 0n))
        .map((child) => pidOf(libs, child))
        .find((p) => p !== pid);
      if (content !== undefined) pid = content;
    }
    const rect = new Uint8Array(RECT_SIZE);
    libs.user32.GetWindowRect(ptr(hwnd), rect);
    out.push({ hwnd, pid, app: nameOf(pid), title, bounds: rectBounds(readRect(rect)) });
  }
  return out;
}

/** Groups windows by process, in the order each app's front window appears. */
export function groupApps(windows: readonly TopWindow[], foreground: bigint): AppInfo[] {
  const apps = new Map<number, AppInfo>();
  for (const w of windows) {
    let app = apps.get(w.pid);
    if (!app) {
      app = { app: appIdOf(w.pid), pid: w.pid, name: w.app, windows: [] };
      apps.set(w.pid, app);
    }
    app.windows.push({
      window: windowIdOf(w.hwnd),
      title: w.title,
      bounds: w.bounds,
      focused: w.hwnd === foreground,
    });
  }
  return [...apps.values()];
}

/** Running apps with their windows. */
export function listApps(libs: ListLibs): AppInfo[] {
  const front = Deno.UnsafePointer.value(libs.user32.GetForegroundWindow());
  return groupApps(topLevelWindows(libs), front);
}
