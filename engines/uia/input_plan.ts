/**
 * Screen-wide input as `SendInput` events (pure: no Windows needed). A plan is a list of
 * steps, each a batch of events sent in one `SendInput` call (so nothing interleaves with
 * it) or a pause; every key or button pressed is released by a later step of the same
 * plan. Pointer positions are screen pixels, normalized to 0-65535 across the virtual
 * desktop as `MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK` requires.
 *
 * @module
 */
import { type InputEvent, KEYEVENTF, MOUSEEVENTF } from "../../ffi/windows/structs.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { PixelInput } from "../../model/engine.ts";
import { type Key, parseChords, type ScanChar, VK } from "./keys.ts";

/** One step of a plan. */
export type Step = { events: InputEvent[] } | { pause: number };

/** The virtual desktop (every monitor) in screen pixels. */
export interface Desktop {
  /** Left edge (negative when a monitor sits left of the primary one). */
  x: number;
  /** Top edge. */
  y: number;
  /** Width. */
  w: number;
  /** Height. */
  h: number;
}

/** Gap between the clicks of a multi-click: inside every double-click time. */
const CLICK_GAP_MS = 40;
/** Pauses in a drag so apps see press, motion and release as separate steps. */
const DRAG_PAUSE_MS = 30;
const DRAG_STEPS = 8;
/** One wheel notch. */
const WHEEL_DELTA = 120;
/** Events per SendInput call when typing long text. */
const TYPE_BATCH = 64;

const BUTTONS = {
  left: [MOUSEEVENTF.LEFTDOWN, MOUSEEVENTF.LEFTUP],
  right: [MOUSEEVENTF.RIGHTDOWN, MOUSEEVENTF.RIGHTUP],
  middle: [MOUSEEVENTF.MIDDLEDOWN, MOUSEEVENTF.MIDDLEUP],
} as const;

/** A pointer move to screen pixel (x, y). */
export function moveTo(d: Desktop, x: number, y: number): InputEvent {
  const nx = ((x - d.x) * 65535) / Math.max(1, d.w - 1);
  const ny = ((y - d.y) * 65535) / Math.max(1, d.h - 1);
  return {
    kind: "mouse",
    dx: Math.round(Math.min(65535, Math.max(0, nx))),
    dy: Math.round(Math.min(65535, Math.max(0, ny))),
    mouseData: 0,
    flags: MOUSEEVENTF.MOVE | MOUSEEVENTF.ABSOLUTE | MOUSEEVENTF.VIRTUALDESK,
  };
}

function button(flag: number, mouseData = 0): InputEvent {
  return { kind: "mouse", dx: 0, dy: 0, mouseData, flags: flag };
}

function vkEvent(vk: number, extended: boolean, up: boolean): InputEvent {
  const flags = (extended ? KEYEVENTF.EXTENDEDKEY : 0) | (up ? KEYEVENTF.KEYUP : 0);
  return { kind: "key", vk, scan: 0, flags };
}

function unitEvents(unit: number): InputEvent[] {
  return [
    { kind: "key", vk: 0, scan: unit, flags: KEYEVENTF.UNICODE },
    { kind: "key", vk: 0, scan: unit, flags: KEYEVENTF.UNICODE | KEYEVENTF.KEYUP },
  ];
}

const TYPED_CONTROLS: ReadonlyMap<string, number> = new Map([
  ["\n", VK.RETURN],
  ["\t", VK.TAB],
  ["\b", VK.BACK],
  ["\x1b", VK.ESCAPE],
]);

/** Events that type `text` as Unicode input; newline, tab, backspace and escape as keys. */
export function textEvents(text: string): InputEvent[] {
  const out: InputEvent[] = [];
  for (const ch of text.replace(/\r\n?/g, "\n")) {
    const vk = TYPED_CONTROLS.get(ch);
    if (vk !== undefined) {
      out.push(vkEvent(vk, false, false), vkEvent(vk, false, true));
      continue;
    }
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
      throw new DriverError(
        "invalid_params",
        `Cannot type U+${
          cp.toString(16).toUpperCase().padStart(4, "0")
        }: it is a control character`,
        { issues: [{ path: ["text"], message: "control characters other than \\n \\t \\b ESC" }] },
      );
    }
    // Astral characters are two UTF-16 units; each goes as its own Unicode key event.
    for (let i = 0; i < ch.length; i++) out.push(...unitEvents(ch.charCodeAt(i)));
  }
  return out;
}

/** Presses (in order) and releases (in reverse) of one chord. */
export function chordEvents(chord: Key[]): { down: InputEvent[]; up: InputEvent[] } {
  const down: InputEvent[] = [];
  const up: InputEvent[] = [];
  for (const key of chord) {
    if ("text" in key) {
      down.push(...textEvents(key.text));
      continue;
    }
    const mods: [boolean | undefined, number][] = [
      [key.ctrl, VK.CONTROL],
      [key.alt, VK.MENU],
      [key.shift, VK.SHIFT],
    ];
    for (const [on, vk] of mods) {
      if (on) {
        down.push(vkEvent(vk, false, false));
        up.unshift(vkEvent(vk, false, true));
      }
    }
    down.push(vkEvent(key.vk, key.extended, false));
    up.unshift(vkEvent(key.vk, key.extended, true));
  }
  return { down, up };
}

function chunks(events: InputEvent[]): Step[] {
  const out: Step[] = [];
  for (let i = 0; i < events.length; i += TYPE_BATCH) {
    out.push({ events: events.slice(i, i + TYPE_BATCH) });
  }
  return out;
}

/** The plan for one {@link PixelInput}. `scan` is `VkKeyScanW`. */
export function planInput(input: PixelInput, desktop: Desktop, scan: ScanChar): Step[] {
  switch (input.kind) {
    case "move":
      return [{ events: [moveTo(desktop, input.x, input.y)] }];
    case "click": {
      const [down, up] = BUTTONS[input.button];
      const steps: Step[] = [{ events: [moveTo(desktop, input.x, input.y)] }];
      for (let n = 0; n < Math.max(1, Math.floor(input.count)); n++) {
        if (n > 0) steps.push({ pause: CLICK_GAP_MS });
        steps.push({ events: [button(down), button(up)] });
      }
      return steps;
    }
    case "drag": {
      const { from, to } = input;
      const steps: Step[] = [
        { events: [moveTo(desktop, from.x, from.y)] },
        { pause: DRAG_PAUSE_MS },
        { events: [button(MOUSEEVENTF.LEFTDOWN)] },
      ];
      for (let i = 1; i <= DRAG_STEPS; i++) {
        const t = i / DRAG_STEPS;
        steps.push({ pause: DRAG_PAUSE_MS / 2 }, {
          events: [moveTo(desktop, from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t)],
        });
      }
      steps.push({ pause: DRAG_PAUSE_MS }, { events: [button(MOUSEEVENTF.LEFTUP)] });
      return steps;
    }
    case "scroll": {
      const events: InputEvent[] = [];
      if (input.x !== undefined && input.y !== undefined) {
        events.push(moveTo(desktop, input.x, input.y));
      }
      // Positive wheel data scrolls up (away from the user); dy > 0 means down, as on X.
      if (input.dy) events.push(button(MOUSEEVENTF.WHEEL, -Math.round(input.dy) * WHEEL_DELTA));
      if (input.dx) events.push(button(MOUSEEVENTF.HWHEEL, Math.round(input.dx) * WHEEL_DELTA));
      return [{ events }];
    }
    case "type":
      return chunks(textEvents(input.text));
    case "key":
      return parseChords(input.keys, scan, "keys").flatMap((chord) => {
        const { down, up } = chordEvents(chord);
        return [{ events: [...down, ...up] }];
      });
    case "hold": {
      const chords = parseChords(input.key, scan, "key");
      if (chords.length !== 1) {
        throw new DriverError(
          "invalid_params",
          `Cannot hold "${input.key}": name one key or chord`,
          {
            issues: [{ path: ["key"], message: "one chord, no spaces" }],
          },
        );
      }
      const { down, up } = chordEvents(chords[0]!);
      return [{ events: down }, { pause: input.ms }, { events: up }];
    }
  }
}

const MOUSE_DOWNS = [MOUSEEVENTF.LEFTDOWN, MOUSEEVENTF.RIGHTDOWN, MOUSEEVENTF.MIDDLEDOWN];

/**
 * The releases for every key or button `events` pressed and did not release, last
 * pressed first (a button's UP flag is its DOWN flag shifted left once).
 */
export function unreleased(events: readonly InputEvent[]): InputEvent[] {
  const held: InputEvent[] = [];
  for (const e of events) {
    if (e.kind === "key") {
      if (e.flags & KEYEVENTF.UNICODE) continue; // each Unicode unit is released at once
      const at = held.findIndex((h) => h.kind === "key" && h.vk === e.vk);
      if (e.flags & KEYEVENTF.KEYUP) {
        if (at >= 0) held.splice(at, 1);
      } else if (at < 0) held.push(e);
      continue;
    }
    const down = MOUSE_DOWNS.find((d) => e.flags === d);
    if (down !== undefined) held.push(e);
    const at = held.findIndex((h) => h.kind === "mouse" && h.flags << 1 === e.flags);
    if (at >= 0) held.splice(at, 1);
  }
  return held.reverse().map((e): InputEvent =>
    e.kind === "key" ? { ...e, flags: e.flags | KEYEVENTF.KEYUP } : { ...e, flags: e.flags << 1 }
  );
}
