/**
 * Key names to Windows virtual-key codes. Chords are parsed by the X11 engine's
 * `parseKeys` (pure, no X needed), so `ctrl+shift+z`, `alt+F4` and `Return` mean the same
 * on every OS; its X keysym names are mapped to virtual keys here. Keys that need the
 * extended flag (arrows, navigation block, right-hand modifiers) carry it.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import { parseKeys } from "../../model/keys.ts";

/** One key to press: a virtual key, or a UTF-16 string typed as Unicode input. */
export type Key =
  | { vk: number; extended: boolean; shift?: boolean; ctrl?: boolean; alt?: boolean }
  | { text: string };

/** `VK_*` codes (winuser.h). */
export const VK = {
  BACK: 0x08,
  TAB: 0x09,
  RETURN: 0x0d,
  SHIFT: 0x10,
  CONTROL: 0x11,
  MENU: 0x12,
  PAUSE: 0x13,
  CAPITAL: 0x14,
  ESCAPE: 0x1b,
  SPACE: 0x20,
  PRIOR: 0x21,
  NEXT: 0x22,
  END: 0x23,
  HOME: 0x24,
  LEFT: 0x25,
  UP: 0x26,
  RIGHT: 0x27,
  DOWN: 0x28,
  SNAPSHOT: 0x2c,
  INSERT: 0x2d,
  DELETE: 0x2e,
  LWIN: 0x5b,
  RWIN: 0x5c,
  APPS: 0x5d,
  NUMPAD0: 0x60,
  MULTIPLY: 0x6a,
  ADD: 0x6b,
  SUBTRACT: 0x6d,
  DECIMAL: 0x6e,
  DIVIDE: 0x6f,
  F1: 0x70,
  NUMLOCK: 0x90,
  SCROLL: 0x91,
  RSHIFT: 0xa1,
} as const;

/** X keysym names (lower case) to [virtual key, extended]. */
const NAMED: ReadonlyMap<string, [number, boolean]> = new Map([
  ["control_l", [VK.CONTROL, false]],
  ["control_r", [VK.CONTROL, true]],
  ["shift_l", [VK.SHIFT, false]],
  ["shift_r", [VK.RSHIFT, false]],
  ["alt_l", [VK.MENU, false]],
  ["alt_r", [VK.MENU, true]],
  ["super_l", [VK.LWIN, true]],
  ["super_r", [VK.RWIN, true]],
  ["return", [VK.RETURN, false]],
  ["kp_enter", [VK.RETURN, true]],
  ["escape", [VK.ESCAPE, false]],
  ["backspace", [VK.BACK, false]],
  ["tab", [VK.TAB, false]],
  ["space", [VK.SPACE, false]],
  ["delete", [VK.DELETE, true]],
  ["insert", [VK.INSERT, true]],
  ["home", [VK.HOME, true]],
  ["end", [VK.END, true]],
  ["prior", [VK.PRIOR, true]],
  ["next", [VK.NEXT, true]],
  ["up", [VK.UP, true]],
  ["down", [VK.DOWN, true]],
  ["left", [VK.LEFT, true]],
  ["right", [VK.RIGHT, true]],
  ["menu", [VK.APPS, true]],
  ["caps_lock", [VK.CAPITAL, false]],
  ["print", [VK.SNAPSHOT, true]],
  ["pause", [VK.PAUSE, false]],
  ["num_lock", [VK.NUMLOCK, true]],
  ["scroll_lock", [VK.SCROLL, false]],
  ["kp_add", [VK.ADD, false]],
  ["kp_subtract", [VK.SUBTRACT, false]],
  ["kp_multiply", [VK.MULTIPLY, false]],
  ["kp_divide", [VK.DIVIDE, true]],
  ["kp_decimal", [VK.DECIMAL, false]],
]);

/** Characters the X parser spells as keysym names. */
const NAMED_CHARS: ReadonlyMap<string, string> = new Map([["plus", "+"], ["minus", "-"]]);

/** `VkKeyScanW`: the key and shift state that types a character on this keyboard layout. */
export type ScanChar = (ch: number) => number;

function unknown(name: string, path: string, why: string): DriverError {
  return new DriverError("invalid_params", `Unknown key "${name}"`, {
    issues: [{ path: [path], message: why }],
  });
}

/**
 * The key for one parsed name. Letters and digits are their own virtual keys; a capital
 * letter on its own means shift + the letter, in a chord the letter (add `shift` to mean
 * the capital), as on X. Other characters go through the keyboard layout (`scan`); one
 * the layout cannot type is sent as Unicode input when it is not part of a chord.
 */
export function keyFor(name: string, inChord: boolean, scan: ScanChar, path = "keys"): Key {
  const lower = name.toLowerCase();
  const named = NAMED.get(lower);
  if (named) return { vk: named[0], extended: named[1] };
  const fn = /^f([1-9][0-9]?)$/.exec(lower);
  if (fn && Number(fn[1]) <= 24) return { vk: VK.F1 + Number(fn[1]) - 1, extended: false };
  const kp = /^kp_([0-9])$/.exec(lower);
  if (kp) return { vk: VK.NUMPAD0 + Number(kp[1]), extended: false };
  const ch = NAMED_CHARS.get(lower) ?? name;
  if ([...ch].length !== 1) throw unknown(name, path, `"${name}" is not a key name Windows knows`);
  if (/^[a-z]$/i.test(ch)) {
    return { vk: ch.toUpperCase().charCodeAt(0), extended: false, shift: !inChord && ch !== lower };
  }
  if (/^[0-9]$/.test(ch)) return { vk: ch.charCodeAt(0), extended: false };
  const code = ch.length === 1 ? scan(ch.charCodeAt(0)) : -1;
  if (code !== -1 && (code & 0xff) !== 0xff) {
    const mods = (code >> 8) & 0xff;
    return {
      vk: code & 0xff,
      extended: false,
      shift: (mods & 1) !== 0,
      ctrl: (mods & 2) !== 0,
      alt: (mods & 4) !== 0,
    };
  }
  if (inChord) throw unknown(name, path, `the keyboard layout has no key for "${ch}"`);
  return { text: ch };
}

/** Parses `keys` into chords of {@link Key}s (whitespace separates chords, `+` joins keys). */
export function parseChords(keys: string, scan: ScanChar, path = "keys"): Key[][] {
  return parseKeys(keys, path).map((chord) =>
    chord.map((name) => keyFor(name, chord.length > 1, scan, path))
  );
}
