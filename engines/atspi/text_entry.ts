/**
 * `set_value` and `type_text` on editable text, checked by reading the text back.
 *
 * The element's own interface goes first (`EditableText.SetTextContents`, `InsertText`).
 * Toolkits differ in what that does: Gecko answers true to `SetTextContents` and leaves a
 * web input as it was; Chromium offers no EditableText on inputs at all. So the text is
 * read back, and when it is not what was asked (or there is no such interface), the
 * element is focused and the text typed through the keyboard, select-all first for a
 * `set_value`, and read back again. The outcome says which way (`action` or `keys`), and
 * when even the keys did not give the asked text, what the element holds (`found`).
 *
 * A password field shows bullets: only its length is compared, and `found` is bullets.
 * An app whose EditableText proved not to work is remembered, and typed into at once.
 *
 * @module
 */
import type { ActOutcome, RawNode } from "../../model/engine.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { alive, focusForKeys, type Input } from "./named_action.ts";
import type { Known } from "./known.ts";
import { STATE } from "./states.ts";
import { stripIfaces } from "./walk.ts";
import { enterCell } from "./cell_entry.ts";
import { inBrowser } from "./range_value.ts";
import { editInPlace } from "./cell_editor.ts";

/** How long a read-back waits for the text the keys typed (they arrive through X). */
const READ_BACK_MS = 1_500;
/** How long a read-back waits on an element that was disabled under the keys. */
const GIVE_UP_MS = 250;
/** How long it waits after an interface call (GTK changes the text before answering). */
const READ_BACK_ACTION_MS = 150;
/** ATSPI_ROLE_PASSWORD_TEXT. */
const PASSWORD_TEXT = 40;
/** Longest text read back: what the driver reads into `value` at most. */
const MAX_READ = 10_000;

/**
 * What is asked: replace the whole text, or insert at the caret. `byKeys`: a set typed as
 * a person types it, for an app that reads the field's keys, not its text (Gnumeric's
 * edit line took a text set through its interface and never entered it in the cell).
 */
export type Entry = { kind: "set"; value: string; byKeys?: boolean; secret?: boolean } | {
  kind: "type";
  value: string;
  secret?: boolean;
};

/** The element's text, at most {@link MAX_READ} characters. */
export async function textOf(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<string> {
  const count = Number(await client.prop(ref, "Text", "CharacterCount", limits));
  if (!(count > 0)) return "";
  const [t] = await client.call(ref, "Text", "GetText", limits, "ii", [
    0,
    Math.min(count, MAX_READ),
  ]);
  const text = String(t ?? "");
  return text.includes(EMBEDDED) ? await withParts(client, ref, text, limits) : text;
}

/** Gecko's mark of a child object inside a text. */
const EMBEDDED = "\uFFFC";

/**
 * `text` with each mark of a child object replaced by that child's text: Gecko's date field
 * reads "\uFFFC/\uFFFC/\uFFFC" while its parts hold "06", "12" and "2025". The marks stand
 * for the children in order.
 */
async function withParts(
  client: AtspiClient,
  ref: Ref,
  text: string,
  limits: CallLimits,
): Promise<string> {
  const kids = (await client.children(ref, limits)).filter((k) => k.bus === ref.bus);
  const parts = await Promise.all(
    kids.map((k) => textOf(client, k, limits).catch(() => EMBEDDED)),
  );
  let i = 0;
  return text.replaceAll(EMBEDDED, () => parts[i++] ?? EMBEDDED);
}

/**
 * Reads the text until `want` holds (or, given `number`, the element's Value holds it) or
 * `ms` pass; the last text read and whether it took. With `keys`, it
 * stops early once the keys cannot arrive: the element has been disabled for
 * {@link GIVE_UP_MS} with its text unchanged (a page that opens a popup on focus and
 * disables its form).
 */
async function readBack(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
  want: (text: string) => boolean,
  ms: number,
  keys = false,
  number?: number,
): Promise<{ text: string; took: boolean }> {
  const until = performance.now() + ms;
  let last: string | undefined;
  let since = performance.now();
  while (true) {
    const [text, taking, held] = await Promise.all([
      textOf(client, ref, limits),
      keys ? takesKeys(client, ref, limits) : true,
      number === undefined ? undefined : currentValue(client, ref, limits),
    ]);
    const took = want(text) || (number !== undefined && held === number);
    const now = performance.now();
    if (text !== last || taking) [last, since] = [text, now];
    if (took || now >= until || now - since >= GIVE_UP_MS) return { text, took };
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The element's Value, when it has one that reads as a number. */
async function currentValue(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<number | undefined> {
  const v = Number(await client.prop(ref, "Value", "CurrentValue", limits));
  return Number.isFinite(v) ? v : undefined;
}

/** How long a secret's field may take to report the focus it was given. */
const SECRET_FOCUS_MS = 1_000;

/**
 * Waits until the element at `ref` says it holds the focus; refuses (`focus_denied`,
 * nothing typed) when it does not in time.
 */
async function holdsFocus(client: AtspiClient, ref: Ref, limits: CallLimits): Promise<void> {
  const until = performance.now() + SECRET_FOCUS_MS;
  while (!(await client.states(ref, limits)).has(STATE.FOCUSED)) {
    if (performance.now() >= until) {
      throw new DriverError(
        "focus_denied",
        "The field did not take the focus: a secret is typed only into the field holding it",
        { holder: null },
      );
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Can typed keys still reach the element? Not once it is disabled. (A focus that moved
 * away is no proof: toolkits report the focus a moment late, and a lagging state must
 * not end the wait for keys that are on their way.)
 */
async function takesKeys(client: AtspiClient, ref: Ref, limits: CallLimits): Promise<boolean> {
  return (await client.states(ref, limits)).has(STATE.SENSITIVE);
}

/** Enters `entry` into the editable text element `node`. */
export async function enterText(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  entry: Entry,
  limits: CallLimits,
  known: Known,
): Promise<ActOutcome> {
  // The read that listed the element already learnt its role and interfaces.
  const fixed = known.get(ref);
  const ifaces = fixed?.ifaces ??
    stripIfaces((await client.call(ref, "Accessible", "GetInterfaces", limits))[0] as string[]);
  // A cell without text (Qt's) is typed into through its editor, opened in place.
  if (node.role === "AXCell" && !ifaces.has("Text")) {
    return await editInPlace(client, input, ref, node, entry, limits, known);
  }
  const [before, role] = await Promise.all([
    textOf(client, ref, limits),
    fixed?.role ?? client.call(ref, "Accessible", "GetRole", limits).then(([r]) => Number(r)),
  ]);
  // A spreadsheet's cell (Calc) is not a text field: typing over the cell replaces what it
  // holds, Return commits it, and select-all would select the sheet.
  if (node.role === "AXCell") {
    return await enterCell(
      client,
      input,
      ref,
      node,
      entry.value,
      limits,
      () => textOf(client, ref, limits),
    );
  }
  // Typing goes at the end, by the interface as by the keys (ctrl+End): where a person
  // clicking into the field types. The caret is no guide: GTK leaves it at 0 after a set,
  // and " Lee" went before "Ann".
  const at = entry.kind === "set" ? 0 : before.length;
  const expected = entry.kind === "set"
    ? entry.value
    : before.slice(0, at) + entry.value + before.slice(at);
  // A password field answers bullets: its length is all that can be compared.
  const masked = role === PASSWORD_TEXT;
  const holds = (text: string, want: string) =>
    masked ? [...text].length === [...want].length : text === want;
  // A password field that reads back nothing (Qt's) cannot be checked at all: the text
  // went in, and the answer says it is unverified rather than that it failed.
  // Bullets of the right length are no proof either: the answer says unverified.
  const unverified = (text: string): ActOutcome | undefined =>
    masked && text === "" && entry.value !== "" ? { via: "keys", verified: false } : undefined;
  const checked = (out: ActOutcome): ActOutcome =>
    masked && out.found === undefined ? { ...out, verified: false } : out;
  // Typed text counts as entered when it is there once more than before: someone else
  // typing into the field at the same time (a user, another program) changes the rest,
  // and typing it a second time by keys would enter it twice.
  const occurrences = (text: string) => text.split(entry.value).length - 1;
  const inserted = (text: string) =>
    masked
      ? [...text].length >= [...before].length + [...entry.value].length
      : entry.value === "" || occurrences(text) > occurrences(before);
  const entered = (text: string, want: string) =>
    entry.kind === "set" ? holds(text, want) : inserted(text);
  const editable = ifaces.has("EditableText");
  // A newline typed into a one-line field is Return, which the app acts on (a calculator
  // evaluates): through the interface it went in as a character and nothing happened.
  const byKeys = (entry.kind === "set" && entry.byKeys === true) ||
    (entry.kind === "type" && entry.value.includes("\n") && node.role === "AXTextField");
  if (editable && !byKeys && !known.editableTextFails.has(ref.bus)) {
    const [ok] = entry.kind === "set"
      ? await client.call(ref, "EditableText", "SetTextContents", limits, "s", [entry.value])
      : await client.call(ref, "EditableText", "InsertText", limits, "isi", [
        at,
        entry.value,
        // The length is in UTF-8 bytes (atk and GTK take it as a byte count).
        new TextEncoder().encode(entry.value).length,
      ]);
    if (ok !== false) {
      const back = await readBack(
        client,
        ref,
        limits,
        (t) => entered(t, expected),
        READ_BACK_ACTION_MS,
      );
      if (back.took) return checked({ via: "action" });
      // A page's password field shows bullets once it holds text (Gecko's, Chromium's):
      // nothing read back there means nothing went in (Gecko answers true and does
      // nothing). Only a field that never shows its text (Qt's) is left unverified.
      const blank = masked && back.text === "" && inBrowser(known, ref);
      if (ok === true && !blank && unverified(back.text)) {
        return { via: "action", verified: false };
      }
    }
    // Gecko answers true and changes nothing: its apps are typed into from now on.
    known.editableTextFails.add(ref.bus);
  }
  // Through the keyboard: the element takes the focus, the pointer rests on it (with no
  // window manager, X sends keys to the window under the pointer), then the keys. Keys
  // go wherever the focus is: never for an element that is gone.
  const typeKeys = async (): Promise<string> => {
    await alive(client, ref, limits);
    const b = node.bounds;
    const mid = { x: Math.round(b.x + b.w / 2), y: Math.round(b.y + b.h / 2) };
    // Only the window under the pointer matters: a layout still moving need not rest first.
    await focusForKeys(client, input, ref, mid, limits);
    // A secret's keys go only to the field itself holding the focus: the window having it
    // is not enough (a dialog of another app over it took a password in clear).
    if (masked || entry.secret) await holdsFocus(client, ref, limits);
    const now = await textOf(client, ref, limits);
    if (entry.kind === "set") {
      await input({ kind: "key", keys: "ctrl+a" });
      await input(
        entry.value === "" ? { kind: "key", keys: "BackSpace" } : {
          kind: "type",
          text: entry.value,
        },
      );
    } else {
      // Focusing may have moved the caret: type at the end, where a person clicking into
      // the field would.
      await input({ kind: "key", keys: "ctrl+End" });
      await input({ kind: "type", text: entry.value });
    }
    return now;
  };
  const now = await typeKeys();
  // Return in a one-line field hands its text to the app, which may clear or replace it (a
  // calculator shows the result): there is nothing left to read the typing back from.
  if (entry.kind === "type" && byKeys) return { via: "keys", verified: false };
  const want = entry.kind === "set" ? entry.value : now + entry.value;
  // An app may show a typed symbol as its own ("/" as "÷" in a calculator): that is the text
  // taken, and typing it again would enter it twice.
  const took = (t: string) =>
    entry.kind === "set"
      ? holds(t, want) || (!masked && symbolsRewritten(t, want))
      : inserted(t) || holds(t, want);
  // Chromium leaves a spin button's text as it was while its Value follows the keys: a
  // number asked of an element with a Value counts as held when the Value holds it.
  const number = entry.kind === "set" && ifaces.has("Value") && entry.value.trim() !== ""
    ? Number(entry.value)
    : undefined;
  const readKeys = () =>
    readBack(
      client,
      ref,
      limits,
      took,
      READ_BACK_MS,
      true,
      Number.isFinite(number) ? number : undefined,
    );
  let back = await readKeys();
  const blind = back.took ? undefined : unverified(back.text);
  if (blind) return blind;
  // A browser moves its focus on its own time: under load Chromium took keys sent before the
  // focus had come ("7" into "4" gave "74": the select-all went to the button focused
  // before; or nothing at all). A set is the same keys again, select-all first, so it is
  // typed once more; typing into a field (type_text) is not, and is not repeated.
  if (!back.took && entry.kind === "set") {
    await typeKeys();
    back = await readKeys();
  }
  if (back.took) return checked({ via: "keys" });
  // Text that did not take in an element the app has since replaced is no answer: the
  // element is gone, and the caller finds it again.
  await alive(client, ref, limits);
  return { via: "keys", found: back.text };
}

/**
 * Does `shown` hold `typed` with only its symbols drawn otherwise? Same length, and every
 * character that differs is neither a letter nor a digit on both sides: GNOME Calculator
 * shows "(40+2)/6" as "(40+2)÷6".
 */
export function symbolsRewritten(shown: string, typed: string): boolean {
  const a = [...shown], b = [...typed];
  if (a.length !== b.length || shown === typed) return false;
  const word = /[\p{L}\p{N}]/u;
  return a.every((c, i) => c === b[i] || (!word.test(c) && !word.test(b[i]!)));
}
