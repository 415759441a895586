/**
 * Key names to X keysyms: chord parsing (`ctrl+shift+z`, `alt+F4`, `Return`) and the
 * text-to-keysym rules used for typing.
 *
 * @module
 */
import { cString, type X11 } from "../../ffi/linux_x11.ts";
import { DriverError } from "../../protocol/errors.ts";

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

/** Keysyms of the characters typing treats specially. */
const CONTROL_KEYSYMS: ReadonlyMap<number, bigint> = new Map([
  [0x08, 0xff08n], // BackSpace
  [0x09, 0xff09n], // Tab
  [0x0a, 0xff0dn], // newline -> Return
  [0x1b, 0xff1bn], // Escape
]);

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

/**
 * Resolves one key name from {@link parseKeys} to a keysym. A single character maps to
 * its own keysym; in a chord with other keys an ASCII letter is taken in lower case
 * (`ctrl+A` means ctrl+a: add `shift` to mean the capital). Other names go through
 * `XStringToKeysym`, then once more with the first letter capitalised (`tab` -> `Tab`); X
 * names are otherwise case-sensitive. Unknown -> `invalid_params`.
 */
export function keysymFor(x11: X11, name: string, inChord = false, path = "keys"): bigint {
  const chars = [...name];
  if (chars.length === 1) {
    const ch = inChord && /^[A-Z]$/.test(name) ? name.toLowerCase() : name;
    const sym = charKeysym(ch.codePointAt(0)!);
    if (sym !== undefined) return sym;
  }
  for (const candidate of [name, name.charAt(0).toUpperCase() + name.slice(1)]) {
    const sym = x11.XStringToKeysym(cString(candidate));
    if (sym !== 0n) return sym;
  }
  throw unknownKey(name, path, `"${name}" is not an X keysym name or a known alias`);
}

/**
 * The keysym that types code point `cp`: Latin-1 code points are their own keysyms,
 * others are `0x01000000 + cp` (the X Unicode keysym range); `\n`, `\t`, `\b` and ESC
 * map to Return, Tab, BackSpace and Escape. Other control characters have no keysym.
 */
export function charKeysym(cp: number): bigint | undefined {
  const control = CONTROL_KEYSYMS.get(cp);
  if (control !== undefined) return control;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return undefined;
  if (cp <= 0xff) return BigInt(cp);
  return 0x01000000n + BigInt(cp);
}

/** Keysyms for `text`, one per code point; `\r\n` and `\r` count as one newline. */
export function textKeysyms(text: string): bigint[] {
  const out: bigint[] = [];
  for (const ch of text.replace(/\r\n?/g, "\n")) {
    const cp = ch.codePointAt(0)!;
    const sym = charKeysym(cp);
    if (sym === undefined) {
      throw new DriverError(
        "invalid_params",
        `Cannot type U+${
          cp.toString(16).toUpperCase().padStart(4, "0")
        }: it is a control character`,
        { issues: [{ path: ["text"], message: "control characters other than \\n \\t \\b ESC" }] },
      );
    }
    out.push(sym);
  }
  return out;
}

function unknownKey(name: string, path: string, message: string): DriverError {
  return new DriverError("invalid_params", `Unknown key "${name}"`, {
    issues: [{ path: [path], message }],
  });
}
