/**
 * xcalc as an OCR reference: the labels its keys really carry, a score of a vision read
 * against them, and a private X server with a chosen font path, so one test run can see
 * xcalc in the bitmap font (xfonts-base) and in the Type 1 font X falls back to without it.
 *
 * @module
 */
/** xcalc's keypad (TI mode), row by row as it draws it; `x²`, `√` etc. as printed. */
export const XCALC_KEYS: readonly string[] = [
  ...["1/x", "x²", "√", "CE/C", "AC"],
  ...["INV", "sin", "cos", "tan", "DRG"],
  ...["e", "EE", "log", "ln", "y^x"],
  ...["not", "and", "or", "xor", "trunc"],
  ...["π", "x!", "(", ")", "base"],
  ...["shl", "D", "E", "F", "shr"],
  ...["mod", "A", "B", "C", "÷"],
  ...["STO", "7", "8", "9", "*"],
  ...["RCL", "4", "5", "6", "-"],
  ...["SUM", "1", "2", "3", "+"],
  ...["EXC", "0", ".", "+/-", "="],
];

/** The keys a calculation needs: the digits and the operators. */
export const XCALC_DIGITS_AND_OPERATORS: readonly string[] = [
  ..."0123456789".split(""),
  ...["+", "-", "*", "="],
];

/** What scoring needs of an element or a vision proposal. */
export interface Named {
  role: string;
  name: string;
  unread?: string | undefined;
}

/** How a vision read named each key. */
export interface KeyScore<T extends Named> {
  /** Keys named exactly as printed. */
  right: string[];
  /** Keys named something else: `label→name`. */
  wrong: string[];
  /** Keys left unnamed, with the reason the engine gave: `label (reason)`. */
  unread: string[];
  /** Each key's button, by its printed label. */
  byLabel: Map<string, T>;
}

/**
 * Scores the buttons of a vision read of xcalc against {@link XCALC_KEYS}, pairing them in
 * reading order (the engine lists siblings row by row).
 *
 * @throws {Error} when the read does not have one button per key.
 */
export function scoreKeys<T extends Named>(elements: readonly T[]): KeyScore<T> {
  const buttons = elements.filter((e) => e.role === "AXButton");
  if (buttons.length !== XCALC_KEYS.length) {
    throw new Error(`Expected ${XCALC_KEYS.length} xcalc keys, read ${buttons.length}`);
  }
  const score: KeyScore<T> = { right: [], wrong: [], unread: [], byLabel: new Map() };
  buttons.forEach((b, i) => {
    const label = XCALC_KEYS[i]!;
    if (b.name === label) score.right.push(label);
    else if (b.name === "") score.unread.push(`${label} (${b.unread ?? "no reason"})`);
    else score.wrong.push(`${label}→${b.name}`);
    score.byLabel.set(label, b);
  });
  return score;
}

/** A private X server, stopped by {@link close}. */
export interface PrivateX {
  /** `:N`. */
  display: string;
  /** Stops the server. Idempotent. */
  close(): Promise<void>;
}

/** The font path of an X server that has only the Type 1 fonts (no xfonts-base). */
export const FALLBACK_FONT_PATH = "/usr/share/fonts/X11/Type1,built-ins";

/**
 * Starts `Xvfb` on a free display with `fontPath` (X's `-fp`), e.g. {@link FALLBACK_FONT_PATH}
 * to see apps as on a machine without bitmap fonts.
 */
export async function startXvfb(fontPath?: string): Promise<PrivateX> {
  const args = ["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"];
  if (fontPath) args.push("-fp", fontPath);
  const child = new Deno.Command("Xvfb", { args, stdout: "piped", stderr: "null" }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  try {
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("Xvfb exited before it named its display");
      text += value;
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  let closed: Promise<void> | undefined;
  return {
    display: `:${text.trim()}`,
    close: () =>
      closed ??= (async () => {
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
        await child.status;
        await child.stdout.cancel().catch(() => {});
      })(),
  };
}
