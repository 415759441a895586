/**
 * Pointer and keyboard input through XTEST: every {@link PixelInput} kind, in screen
 * points (one point is one pixel on X). Every press is released on every path out.
 *
 * @module
 */
import { checkX } from "../../ffi/linux_x11.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { PixelInput } from "../../model/engine.ts";
import { type X11Display, x11Handle, xtestFor } from "./display.ts";
import { Keymap, ScratchKeys, type Stroke } from "./keymap.ts";
import { keysymFor, parseKeys, textKeysyms } from "./keys.ts";
import { delay, Presses } from "./presses.ts";
import { pingAppAt, pingFocusedApp } from "./ping.ts";
import { focusGuard, type FocusTarget, takeFocus } from "./focus.ts";

/** Gap between the clicks of a multi-click: well inside every toolkit's double-click time. */
const CLICK_GAP_MS = 40;
/** Pauses in a drag so toolkits see press, motion and release as separate steps. */
const DRAG_PAUSE_MS = 30;
const DRAG_STEPS = 8;
const BUTTONS = { left: 1, middle: 2, right: 3 } as const;
const SHIFT_L = 0xffe1n;
const CONTROL_L = 0xffe3n;
/** How long input waits for the app a press landed on to read its release. */
const RELEASE_PING_MS = 2_000;
/**
 * Keystrokes (and wheel notches) sent before waiting for the app to take them in. Sent
 * all at once, a long text queued minutes of keys in the X server that no deadline could
 * call back, and blocked the driver while it queued them.
 */
/** The least time between two typed keystrokes (see typeText). */
const KEY_GAP_MS = 1;
const PACE = 64;
/** One wait for the app's answer; a slower app is asked again until the deadline. */
const PACE_PING_MS = 1_000;

/**
 * Sends one input to the server and waits until it processed it. Keys with `keysFor` go
 * to that window only: it is made the keyboard focus first, and a long text checks it
 * still is between chunks (focus.ts); otherwise they go wherever the focus is.
 */
export async function sendInput(
  display: X11Display,
  input: PixelInput,
  signal: AbortSignal,
  keysFor?: FocusTarget,
): Promise<void> {
  signal.throwIfAborted();
  const keys = input.kind === "type" || input.kind === "key" || input.kind === "hold";
  if (keys && keysFor) await takeFocus(display, keysFor, signal);
  const guard = keysFor ? focusGuard(display, keysFor) : () => {};
  const io = new Presses(display, xtestFor(display));
  try {
    switch (input.kind) {
      case "move":
        io.move(input.x, input.y);
        break;
      case "click":
        if (input.holding) io.key(modifierKeycode(display, input.holding), true);
        await click(io, input.x, input.y, BUTTONS[input.button], input.count, signal);
        io.releaseAll();
        await released(display, input.x, input.y);
        break;
      case "drag":
        await drag(io, input.from, input.to, signal);
        await released(display, input.from.x, input.from.y);
        break;
      case "scroll":
        await scroll(display, io, input, signal);
        break;
      case "type":
        await typeText(display, io, input.text, signal, guard);
        break;
      case "key":
        await pressChords(display, io, input.keys, "keys", 0, signal, guard);
        break;
      case "hold":
        await pressChords(display, io, input.key, "key", input.ms, signal, guard);
        break;
    }
  } finally {
    io.dispose();
  }
  // Throws driver_unavailable ("closed") if the display was closed during the input.
  const { x11, dpy } = x11Handle(display);
  checkX(x11, dpy, `send ${input.kind} input`);
}

/** The keycode of a modifier held over a click (Control_L). */
function modifierKeycode(display: X11Display, _modifier: "ctrl"): number {
  const stroke = Keymap.read(x11Handle(display)).lookup(CONTROL_L);
  if (!stroke) {
    throw new DriverError("action_not_supported", "Cannot hold Ctrl: the keymap has no Control_L", {
      reason: "no_control_key",
    });
  }
  return stroke.keycode;
}

/**
 * Waits until the app the press landed on has read the release (its toolkit answers a
 * `_NET_WM_PING` sent after it): a toolkit that grabbed the pointer for a press (GTK's text
 * selection) drops the grab only once it reads the release, and input sent elsewhere
 * before that would go to it. At most {@link RELEASE_PING_MS}; apps that take no pings
 * (Xt) are not waited for.
 */
async function released(display: X11Display, x: number, y: number): Promise<void> {
  await pingAppAt(display, x, y, RELEASE_PING_MS).catch(() => "no_client");
}

async function click(
  io: Presses,
  x: number,
  y: number,
  button: number,
  count: number,
  signal: AbortSignal,
): Promise<void> {
  io.move(x, y);
  for (let n = 0; n < Math.max(1, Math.floor(count)); n++) {
    if (n > 0) await delay(CLICK_GAP_MS, signal);
    io.button(button, true);
    io.button(button, false);
    io.flush();
  }
}

async function drag(
  io: Presses,
  from: { x: number; y: number },
  to: { x: number; y: number },
  signal: AbortSignal,
): Promise<void> {
  io.move(from.x, from.y);
  await delay(DRAG_PAUSE_MS, signal);
  io.button(BUTTONS.left, true);
  io.flush();
  for (let step = 1; step <= DRAG_STEPS; step++) {
    await delay(DRAG_PAUSE_MS / 2, signal);
    const t = step / DRAG_STEPS;
    io.move(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t);
  }
  await delay(DRAG_PAUSE_MS, signal);
  io.button(BUTTONS.left, false);
  io.flush();
}

async function scroll(
  display: X11Display,
  io: Presses,
  input: Extract<PixelInput, { kind: "scroll" }>,
  signal: AbortSignal,
): Promise<void> {
  if (input.x !== undefined || input.y !== undefined) {
    const here = display.pointerPosition();
    io.move(input.x ?? here.x, input.y ?? here.y);
  }
  const at = display.pointerPosition();
  // X wheel buttons: 4 up, 5 down, 6 left, 7 right; one press per notch.
  const notches: [number, number][] = [
    [input.dy > 0 ? 5 : 4, Math.round(Math.abs(input.dy))],
    [input.dx > 0 ? 7 : 6, Math.round(Math.abs(input.dx))],
  ];
  let sent = 0;
  for (const [button, count] of notches) {
    for (let n = 0; n < count; n++) {
      if (++sent % PACE === 0) {
        io.flush();
        await paced(() => pingAppAt(display, at.x, at.y, PACE_PING_MS), signal);
      }
      signal.throwIfAborted();
      io.button(button, true);
      io.button(button, false);
    }
  }
  io.flush();
}

/**
 * Waits until the app took in the input sent so far (its answer to a ping), asking again
 * while it is slow; the request's deadline ends the wait (and the input). An app that
 * takes no pings gets a turn of the event loop, so the driver serves others meanwhile.
 */
async function paced(ping: () => Promise<string>, signal: AbortSignal): Promise<void> {
  while (true) {
    signal.throwIfAborted();
    const answer = await ping().catch(() => "no_client");
    if (answer === "answered" || answer === "gone") return;
    if (answer === "no_client") return await delay(1, signal);
  }
}

async function typeText(
  display: X11Display,
  io: Presses,
  text: string,
  signal: AbortSignal,
  guard: () => void,
): Promise<void> {
  const syms = textKeysyms(text);
  const keymap = new CachedKeymap(Keymap.read(x11Handle(display)));
  const scratch = new ScratchKeys(display, keymap.map);
  const shift = keymap.shiftKeycode();
  let i = 0;
  while (i < syms.length) {
    // The longest run whose characters missing from the layout fit the spare keycodes.
    const missing = new Set<bigint>();
    let j = i;
    for (; j < syms.length; j++) {
      const sym = syms[j]!;
      if (keymap.lookup(sym) || missing.has(sym)) continue;
      if (missing.size === scratch.capacity && j > i) break;
      missing.add(sym);
    }
    try {
      scratch.bind(missing);
      for (let k = i; k < j; k++) {
        if (k > 0 && k % PACE === 0) {
          await paced(() => pingFocusedApp(display, PACE_PING_MS), signal);
        }
        signal.throwIfAborted();
        // The focus may move at any key (a dialog pops up, the user clicks elsewhere).
        guard();
        const sym = syms[k]!;
        io.tap(keymap.lookup(sym) ?? scratch.stroke(sym)!, shift);
        // Each keystroke in a millisecond of its own: LibreOffice (GTK 3) dropped keys
        // that reached it within the same one as others (2 to 4 of 104, every run; none
        // in 12 runs spaced so).
        if (k + 1 < syms.length) await delay(KEY_GAP_MS, signal);
      }
    } finally {
      io.releaseAll();
      await scratch.restore();
    }
    i = j;
  }
}

async function pressChords(
  display: X11Display,
  io: Presses,
  keys: string,
  path: "keys" | "key",
  holdMs: number,
  signal: AbortSignal,
  guard: () => void,
): Promise<void> {
  const chords = parseKeys(keys, path);
  if (path === "key" && chords.length > 1) {
    throw new DriverError("invalid_params", `Cannot hold "${keys}": name one key or chord`, {
      issues: [{ path: [path], message: "one chord, no spaces" }],
    });
  }
  const h = x11Handle(display);
  const resolved = chords.map((c) => c.map((name) => keysymFor(h.x11, name, c.length > 1, path)));
  const keymap = new CachedKeymap(Keymap.read(h));
  const scratch = new ScratchKeys(display, keymap.map);
  const shift = keymap.shiftKeycode();
  try {
    scratch.bind(resolved.flat().filter((sym) => !keymap.lookup(sym)));
    for (const chord of resolved) {
      signal.throwIfAborted();
      guard();
      for (const sym of chord) {
        const stroke = keymap.lookup(sym) ?? scratch.stroke(sym)!;
        if (stroke.shift) io.key(shift, true);
        io.key(stroke.keycode, true);
      }
      io.flush();
      if (holdMs > 0) await delay(holdMs, signal);
      io.releaseAll();
    }
  } finally {
    io.releaseAll();
    await scratch.restore();
  }
}

/** Keymap lookups memoised per keysym (typing looks the same few keysyms up often). */
class CachedKeymap {
  readonly #memo = new Map<bigint, Stroke | undefined>();
  constructor(readonly map: Keymap) {}
  lookup(sym: bigint): Stroke | undefined {
    if (!this.#memo.has(sym)) this.#memo.set(sym, this.map.lookup(sym));
    return this.#memo.get(sym);
  }
  shiftKeycode(): number {
    const stroke = this.lookup(SHIFT_L);
    if (!stroke) {
      throw new DriverError("action_not_supported", "Cannot type: the keymap has no Shift_L", {
        reason: "no_shift_key",
      });
    }
    return stroke.keycode;
  }
}
