/**
 * Ids the UIA engine hands out: windows by their `HWND`, apps by their process id. Both
 * are stable for the object's lifetime, the same in every process, and need no lookup.
 *
 * @module
 */

/** `w` + the window handle in hex: `w1a0b2c`. */
export function windowIdOf(hwnd: bigint): string {
  return `w${hwnd.toString(16)}`;
}

/** The `HWND` value of a window id, or `undefined` when `id` is not one of ours. */
export function hwndOf(id: string): bigint | undefined {
  const m = /^w([0-9a-f]{1,16})$/.exec(id);
  return m ? BigInt(`0x${m[1]}`) : undefined;
}

/** `p` + the process id: the app id events and listings share. */
export function appIdOf(pid: number): string {
  return `p${pid}`;
}

/** The app name callers type: the executable's base name without `.exe`. */
export function appNameOf(imagePath: string): string {
  const base = imagePath.split(/[\\/]/).pop() ?? imagePath;
  return base.replace(/\.exe$/i, "");
}
