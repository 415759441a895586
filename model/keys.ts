/**
 * The key grammar every engine shares: chords (`ctrl+shift+z`, `alt+F4`, `Return`) parsed
 * into key names, with friendly aliases resolved to X keysym names, the names the protocol
 * documents. Pure: no library, no display. Each OS maps the names to its own key codes.
 *
 * @module
 */
import { DriverError } from "../protocol/errors.ts";

/** Friendly and modifier names (lower case) to X keysym names. */
const ALIASES: Readonly<Record<string, string>> = {
  ctrl: "Control_L",
  control: "Control_L",
  shift: "Shift_L",
  alt: "Alt_L",
  super: "Super_L",
  meta: "Super_L",
  cmd: "Super_L",
  enter: "Return",
  return: "Return",
  esc: "Escape",
  escape: "Escape",
  backspace: "BackSpace",
  del: "Delete",
  delete: "Delete",
  ins: "Insert",
  insert: "Insert",
  tab: "Tab",
  space: "space",
  up: "Up",
  down: "Down",
  left: "Left",
  right: "Right",
  home: "Home",
  end: "End",
  pageup: "Prior",
  page_up: "Prior",
  pagedown: "Next",
  page_down: "Next",
  menu: "Menu",
  capslock: "Caps_Lock",
  printscreen: "Print",
  print: "Print",
  plus: "plus",
  minus: "minus",
};

/**
 * Splits `keys` into chords: whitespace separates chords (`"ctrl+a ctrl+c"`), `+` joins
 * keys pressed together. Names come back as X keysym names where an alias is known
 * (`ctrl` -> `Control_L`, `enter` -> `Return`, `f4` -> `F4`), otherwise as written. A key
 * named `+` is allowed (`"ctrl++"`). Pure: needs no library or display.
 */
export function parseKeys(keys: string, path: string = "keys"): string[][] {
  const chords = keys.trim().split(/\s+/).filter((c) => c !== "");
  if (chords.length === 0) throw unknownKey(keys, path, "no key named");
  return chords.map((chord) => splitChord(chord).map((name) => normalize(name, chord, path)));
}

function splitChord(chord: string): string[] {
  const names: string[] = [];
  let i = 0;
  while (i < chord.length) {
    // Search from i + 1 so a name may itself be "+" (as in "ctrl++").
    const sep = chord.indexOf("+", i + 1);
    const end = sep === -1 ? chord.length : sep;
    names.push(chord.slice(i, end));
    i = end + 1;
    if (sep === chord.length - 1) names.push(""); // "ctrl+" names nothing after the +
  }
  return names;
}

function normalize(name: string, chord: string, path: string): string {
  if (name === "") throw unknownKey(chord, path, `"${chord}" has an empty key name`);
  if (name === "+") return "plus";
  const lower = name.toLowerCase();
  const alias = ALIASES[lower];
  if (alias !== undefined) return alias;
  const fn = /^f([1-9][0-9]?)$/.exec(lower);
  if (fn) return `F${fn[1]}`;
  return name;
}

/** An `invalid_params` error for a key name that cannot be pressed. */
export function unknownKey(name: string, path: string, message: string): DriverError {
  return new DriverError("invalid_params", `Unknown key "${name}"`, {
    issues: [{ path: [path], message }],
  });
}
