/**
 * Waiting until the app with the keyboard focus has taken in the input sent so far.
 *
 * A `_NET_WM_PING` sent after the input is answered only once the app's toolkit has read
 * every earlier event from its queue, and toolkits translate a key event to a character
 * when they read it. So an answered ping means that the keys bound to scratch keycodes
 * were already translated, and the keycodes can be unbound. Without that proof, a loaded
 * app that read its keys after the unbinding would turn them into nothing.
 *
 * Everything runs on a connection of its own. The reply reaches only clients that
 * selected SubstructureNotify on the root window, so the driver's own connection never
 * queues desktop-wide events. Any X error (a window that vanished meanwhile) stays there
 * too.
 *
 * @module
 */
import { connectionLost, cString } from "../../ffi/linux_x11.ts";
import { X11Display, type X11Handle, x11Handle } from "./display.ts";
import { longs, property, queryTree } from "./window_props.ts";

/** What a ping found out. */
export type PingResult =
  /** The focused app answered: it has read all input sent before the ping. */
  | "answered"
  /** No focused window, or its app does not take pings: nothing can be proven. */
  | "no_client"
  /** The app did not answer in time (busy or hung). */
  | "timeout"
  /**
   * The window asked was unmapped or destroyed before an answer came: its app read the
   * input and closed it (a popup closes on the click that picks its option), and nothing
   * answers a ping sent to a window that is gone.
   */
  | "gone";

const CLIENT_MESSAGE = 33;
const SUBSTRUCTURE_NOTIFY_MASK = 1n << 19n;
const STRUCTURE_NOTIFY_MASK = 1n << 17n;
const DESTROY_NOTIFY = 17;
const UNMAP_NOTIFY = 18;
/** XUnmapEvent and XDestroyWindowEvent on x86_64: the window that went, after `event`. */
const GONE_WINDOW_OFF = 40;
/** sizeof(XEvent): a union padded to 24 longs. */
const XEVENT_SIZE = 192;
/** XClientMessageEvent on x86_64: window@32, message_type@40, format@48, data.l[0..4]@56. */
const OFF = { window: 32, type: 40, format: 48, data: 56 } as const;
/** Pings in flight are told apart by the timestamp slot, which apps send back as it was. */
let token = BigInt(Date.now() & 0x7fffffff);

/**
 * Pings the app whose window has the keyboard focus on `display`'s server and waits up
 * to `timeoutMs` for the answer. Polls the connection between timers, so the event loop
 * stays free while an app is slow. Never throws for the app's sake: a vanished window or
 * an app that ignores pings is `no_client`.
 */
export function pingFocusedApp(display: X11Display, timeoutMs: number): Promise<PingResult> {
  return ping(display, timeoutMs, (h, pings) => {
    const focus = new BigUint64Array(1);
    h.x11.XGetInputFocus(h.dpy, focus, new Int32Array(1));
    if (focus[0]! > 1n) return upFrom(h, focus[0]!, pings);
    // 0 is None: keys go nowhere. 1 is PointerRoot (no window manager set a focus): keys
    // go to the window under the pointer, so that app is the one to ask.
    if (focus[0] === 0n) return undefined;
    const { x, y } = display.pointerPosition();
    return topLevelAt(h, x, y, pings);
  });
}

/**
 * Pings the app whose top-level window is at screen point `x`, `y` and waits up to
 * `timeoutMs` for the answer: after a click or a drag that started there, an answer means
 * the app has read the release and let go of any pointer grab it took, so the next input,
 * elsewhere on screen, is not swallowed by that grab.
 */
export function pingAppAt(
  display: X11Display,
  x: number,
  y: number,
  timeoutMs: number,
): Promise<PingResult> {
  return ping(display, timeoutMs, (h, pings) => topLevelAt(h, x, y, pings));
}

/** The window that takes pings among the top level at `x`, `y` and its first levels. */
function topLevelAt(h: X11Handle, x: number, y: number, pings: PingAtoms): bigint | undefined {
  const child = new BigUint64Array(1);
  const out = new Int32Array(2);
  const found = h.x11.XTranslateCoordinates(
    h.dpy,
    h.root,
    h.root,
    Math.round(x),
    Math.round(y),
    out.subarray(0, 1),
    out.subarray(1, 2),
    child,
  );
  if (!found || child[0] === 0n) return undefined;
  // Under a reparenting window manager the top level is a frame around the client.
  return downFrom(h, child[0]!, pings, 2);
}

/** Which atoms mark a window that takes pings. */
interface PingAtoms {
  protocols: bigint;
  ping: bigint;
}

function takesPings(h: X11Handle, win: bigint, atoms: PingAtoms): boolean {
  const listed = property(h, win, atoms.protocols);
  return listed !== undefined && longs(listed).includes(atoms.ping);
}

/** `win` or its nearest ancestor that takes pings (toolkits focus a child of their top level). */
function upFrom(h: X11Handle, start: bigint, atoms: PingAtoms): bigint | undefined {
  for (let win = start; win > 1n && win !== h.root;) {
    if (takesPings(h, win, atoms)) return win;
    const links = queryTree(h, win);
    if (!links) return undefined;
    win = links.parent;
  }
  return undefined;
}

/** `win` or a descendant at most `depth` levels down that takes pings. */
function downFrom(h: X11Handle, win: bigint, atoms: PingAtoms, depth: number): bigint | undefined {
  if (takesPings(h, win, atoms)) return win;
  if (depth === 0) return undefined;
  for (const child of queryTree(h, win)?.children ?? []) {
    const found = downFrom(h, child, atoms, depth - 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

async function ping(
  display: X11Display,
  timeoutMs: number,
  targetOf: (h: X11Handle, atoms: PingAtoms) => bigint | undefined,
): Promise<PingResult> {
  using conn = X11Display.open(display.name, { reconnect: false });
  const h = x11Handle(conn);
  const atoms = {
    protocols: h.x11.XInternAtom(h.dpy, cString("WM_PROTOCOLS"), 0),
    ping: h.x11.XInternAtom(h.dpy, cString("_NET_WM_PING"), 0),
  };
  const target = targetOf(h, atoms);
  if (target === undefined) return "no_client";
  h.x11.XSelectInput(h.dpy, h.root, SUBSTRUCTURE_NOTIFY_MASK);
  // Told when the window itself goes (a Qt popup is gone before it could answer).
  h.x11.XSelectInput(h.dpy, target, STRUCTURE_NOTIFY_MASK);
  // The selection must be in place before the app can answer.
  h.x11.XSync(h.dpy, 0);
  const sent = ++token;
  const event = new Uint8Array(XEVENT_SIZE);
  const view = new DataView(event.buffer);
  view.setInt32(0, CLIENT_MESSAGE, true);
  view.setBigUint64(OFF.window, target, true);
  view.setBigUint64(OFF.type, atoms.protocols, true);
  view.setInt32(OFF.format, 32, true);
  for (const [i, item] of [atoms.ping, sent, target].entries()) {
    view.setBigUint64(OFF.data + 8 * i, item, true);
  }
  if (!h.x11.XSendEvent(h.dpy, target, 0, 0n, event)) return "no_client";
  h.x11.XFlush(h.dpy);
  const deadline = performance.now() + timeoutMs;
  for (let pause = 1; performance.now() < deadline; pause = Math.min(pause * 2, 16)) {
    while (h.x11.XPending(h.dpy) > 0) {
      h.x11.XNextEvent(h.dpy, event);
      if (isAnswer(view, h.root, atoms.ping, sent)) return "answered";
      if (isGone(view, target)) return "gone";
    }
    // The server went: no answer will come, and nothing is proven.
    if (connectionLost(h.dpy)) return "no_client";
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return "timeout";
}

function isGone(view: DataView, target: bigint): boolean {
  const type = view.getInt32(0, true);
  return (type === UNMAP_NOTIFY || type === DESTROY_NOTIFY) &&
    view.getBigUint64(GONE_WINDOW_OFF, true) === target;
}

function isAnswer(view: DataView, root: bigint, ping: bigint, sent: bigint): boolean {
  return view.getInt32(0, true) === CLIENT_MESSAGE &&
    view.getBigUint64(OFF.window, true) === root &&
    view.getBigUint64(OFF.data, true) === ping &&
    view.getBigUint64(OFF.data + 8, true) === sent;
}
