/**
 * Key names to macOS virtual key codes (`kVK_*`, Events.h, ANSI layout) and modifier
 * flags. Chords are parsed by the same rules as on Linux (`model/keys.ts`: `ctrl+a`,
 * `cmd+shift+z`, `Return`, `F4`), so callers write keys one way on every OS; `cmd`,
 * `super` and `meta` are Command, `alt` is Option. Pure: tested off macOS.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import { CG_FLAGS } from "../../ffi/macos/core_graphics.ts";
import { parseKeys } from "../../model/keys.ts";

/** One key of a chord: its code and, for a modifier, the flag it adds. */
export interface MacKey {
  /** `CGKeyCode`. */
  code: number;
  /** The `CGEventFlags` bit it holds down (modifiers only). */
  flag?: bigint;
  /** Shift is needed to type it (`plus` is shift+= on ANSI). */
  shifted?: boolean;
}

const MODIFIERS: Readonly<Record<string, MacKey>> = {
  Control_L: { code: 0x3b, flag: CG_FLAGS.control },
  Shift_L: { code: 0x38, flag: CG_FLAGS.shift },
  Alt_L: { code: 0x3a, flag: CG_FLAGS.alternate },
  Super_L: { code: 0x37, flag: CG_FLAGS.command },
};

const NAMED: Readonly<Record<string, number>> = {
  Return: 0x24,
  Tab: 0x30,
  space: 0x31,
  BackSpace: 0x33,
  Escape: 0x35,
  Delete: 0x75,
  Insert: 0x72,
  Caps_Lock: 0x39,
  Home: 0x73,
  End: 0x77,
  Prior: 0x74,
  Next: 0x79,
  Left: 0x7b,
  Right: 0x7c,
  Down: 0x7d,
  Up: 0x7e,
  plus: 0x18,
  minus: 0x1b,
  F1: 0x7a,
  F2: 0x78,
  F3: 0x63,
  F4: 0x76,
  F5: 0x60,
  F6: 0x61,
  F7: 0x62,
  F8: 0x64,
  F9: 0x65,
  F10: 0x6d,
  F11: 0x67,
  F12: 0x6f,
  F13: 0x69,
  F14: 0x6b,
  F15: 0x71,
  F16: 0x6a,
  F17: 0x40,
  F18: 0x4f,
  F19: 0x50,
  F20: 0x5a,
};

/** Unshifted characters of the ANSI layout. */
const CHARS: Readonly<Record<string, number>> = {
  a: 0x00,
  s: 0x01,
  d: 0x02,
  f: 0x03,
  h: 0x04,
  g: 0x05,
  z: 0x06,
  x: 0x07,
  c: 0x08,
  v: 0x09,
  b: 0x0b,
  q: 0x0c,
  w: 0x0d,
  e: 0x0e,
  r: 0x0f,
  y: 0x10,
  t: 0x11,
  "1": 0x12,
  "2": 0x13,
  "3": 0x14,
  "4": 0x15,
  "6": 0x16,
  "5": 0x17,
  "=": 0x18,
  "9": 0x19,
  "7": 0x1a,
  "-": 0x1b,
  "8": 0x1c,
  "0": 0x1d,
  "]": 0x1e,
  o: 0x1f,
  u: 0x20,
  "[": 0x21,
  i: 0x22,
  p: 0x23,
  l: 0x25,
  j: 0x26,
  "'": 0x27,
  k: 0x28,
  ";": 0x29,
  "\\": 0x2a,
  ",": 0x2b,
  "/": 0x2c,
  n: 0x2d,
  m: 0x2e,
  ".": 0x2f,
  "`": 0x32,
}; // deno-fmt-ignore

/** Shifted characters: the unshifted key that types them with Shift. */
const SHIFTED: Readonly<Record<string, string>> = {
  "!": "1", "@": "2", "#": "3", $: "4", "%": "5", "^": "6", "&": "7", "*": "8", "(": "9",
  ")": "0", _: "-", "+": "=", "{": "[", "}": "]", "|": "\\", ":": ";", '"': "'", "<": ",",
  ">": ".", "?": "/", "~": "`",
}; // deno-fmt-ignore

/**
 * The key for one name from `parseKeys`.
 *
 * @param name A parsed name (`Control_L`, `Return`, `a`, `F4`).
 * @param inChord Part of a chord with other keys: a capital letter means its key (add
 *   `shift` to mean the capital), as on Linux.
 * @throws {DriverError} `invalid_params` for a name with no key on the ANSI layout.
 */
export function macKeyFor(name: string, inChord = false, path = "keys"): MacKey {
  const modifier = MODIFIERS[name];
  if (modifier) return modifier;
  const named = NAMED[name];
  if (named !== undefined) return { code: named, shifted: name === "plus" };
  if ([...name].length === 1) {
    const lower = /^[A-Z]$/.test(name) ? name.toLowerCase() : name;
    const code = CHARS[lower];
    if (code !== undefined) return { code, shifted: !inChord && lower !== name };
    const base = SHIFTED[name];
    if (base !== undefined) return { code: CHARS[base]!, shifted: true };
  }
  throw new DriverError("invalid_params", `Unknown key "${name}"`, {
    issues: [{ path: [path], message: `"${name}" has no key on the macOS ANSI layout` }],
  });
}

/** One chord: modifiers held (in order), then the keys pressed with them. */
export interface MacChord {
  /** Modifier keys, pressed in order and released in reverse. */
  modifiers: MacKey[];
  /** Other keys, each pressed and released while the modifiers are held. */
  keys: MacKey[];
}

/** Parses `keys` (`"cmd+a cmd+c"`) into chords of macOS key codes. */
export function macChords(keys: string, path = "keys"): MacChord[] {
  return parseKeys(keys, path).map((names) => {
    const inChord = names.length > 1;
    const chord: MacChord = { modifiers: [], keys: [] };
    for (const name of names) {
      const key = macKeyFor(name, inChord, path);
      (key.flag === undefined ? chord.keys : chord.modifiers).push(key);
    }
    return chord;
  });
}

/** The `CGEventFlags` of held modifiers plus Shift when a key needs it. */
export function flagsOf(held: readonly MacKey[], key?: MacKey): bigint {
  let flags = 0n;
  for (const m of held) flags |= m.flag ?? 0n;
  if (key?.shifted) flags |= CG_FLAGS.shift;
  return flags;
}
