/**
 * Key names to X keysyms: the names {@link parseKeys} gives (model/keys.ts) resolved through
 * Xlib, and the text-to-keysym rules used for typing.
 *
 * @module
 */
import { cString, type X11 } from "../../ffi/linux_x11.ts";
import { DriverError } from "../../protocol/errors.ts";
import { parseKeys, unknownKey } from "../../model/keys.ts";

export { parseKeys };

/** Keysyms of the characters typing treats specially. */
const CONTROL_KEYSYMS: ReadonlyMap<number, bigint> = new Map([
  [0x08, 0xff08n], // BackSpace
  [0x09, 0xff09n], // Tab
  [0x0a, 0xff0dn], // newline -> Return
  [0x1b, 0xff1bn], // Escape
]);

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
