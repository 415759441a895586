/**
 * X client messages: how a client asks the window manager for something (EWMH: to the
 * root, with the redirect masks a WM selects) and how it asks a client to close (ICCCM's
 * `WM_DELETE_WINDOW`, to the client's own window).
 *
 * @module
 */
import { cString } from "../../ffi/linux_x11.ts";
import type { X11Handle } from "./display.ts";

const CLIENT_MESSAGE = 33;
const SUBSTRUCTURE_NOTIFY_MASK = 1n << 19n;
const SUBSTRUCTURE_REDIRECT_MASK = 1n << 20n;
/** sizeof(XEvent). */
const XEVENT_SIZE = 192;
/** XClientMessageEvent on x86_64: window@32, message_type@40, format@48, data.l[0..4]@56. */
const OFF = { window: 32, type: 40, format: 48, data: 56 } as const;

/** The atom named `name`, created if the server has none yet. */
export function atomOf(h: X11Handle, name: string): bigint {
  return h.x11.XInternAtom(h.dpy, cString(name), 0);
}

/**
 * Sends a 32-bit client message of type `type` about window `xid` with up to five longs:
 * to the root for the window manager (`to: "wm"`), or to the window itself (`"client"`).
 */
export function clientMessage(
  h: X11Handle,
  xid: number,
  type: string,
  data: readonly bigint[],
  to: "wm" | "client" = "wm",
): void {
  const ev = new Uint8Array(XEVENT_SIZE);
  const v = new DataView(ev.buffer);
  v.setInt32(0, CLIENT_MESSAGE, true);
  v.setBigUint64(OFF.window, BigInt(xid), true);
  v.setBigUint64(OFF.type, atomOf(h, type), true);
  v.setInt32(OFF.format, 32, true);
  data.slice(0, 5).forEach((l, i) => v.setBigInt64(OFF.data + 8 * i, l, true));
  const target = to === "wm" ? h.root : BigInt(xid);
  const mask = to === "wm" ? SUBSTRUCTURE_REDIRECT_MASK | SUBSTRUCTURE_NOTIFY_MASK : 0n;
  h.x11.XSendEvent(h.dpy, target, 0, mask, ev);
}
