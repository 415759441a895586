/**
 * What the observe bench counts in a read: the interactive elements that carry a handle an
 * agent can act on (Playwright's `[ref=eN]`, the driver's element id), and the words of a
 * text (to measure how much of a page's visible text a read holds).
 *
 * @module
 */

/** Playwright snapshot roles (ARIA) an agent operates. Options are counted with their select. */
export const PLAYWRIGHT_INTERACTIVE: ReadonlySet<string> = new Set([
  "button",
  "link",
  "textbox",
  "searchbox",
  "checkbox",
  "radio",
  "combobox",
  "listbox",
  "tab",
  "switch",
  "slider",
  "spinbutton",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "treeitem",
]);

/** The driver's roles (AX names) for the same kinds of elements. */
export const OUR_INTERACTIVE: ReadonlySet<string> = new Set([
  "AXButton",
  "AXLink",
  "AXTextField",
  "AXSecureTextField",
  "AXTextArea",
  "AXSearchField",
  "AXCheckBox",
  "AXRadioButton",
  "AXComboBox",
  "AXPopUpButton",
  "AXList",
  "AXTab",
  "AXToggleButton",
  "AXSwitch",
  "AXSlider",
  "AXIncrementor",
  "AXMenuItem",
  "AXDisclosureTriangle",
]);

/** An interactive element as a read shows it: role, name and the handle to act on it. */
export interface Handle {
  role: string;
  name: string;
  ref: string;
}

/**
 * The interactive elements of a Playwright MCP snapshot with a `[ref=…]`: lines such as
 * `- button "Sign in" [ref=e8]` or `- link "Forgot?" [ref=e9] [cursor=pointer]:`.
 */
export function playwrightHandles(text: string): Handle[] {
  const out: Handle[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/.exec(line);
    if (!m || !PLAYWRIGHT_INTERACTIVE.has(m[1]!)) continue;
    const ref = /\[ref=([^\]\s]+)\]/.exec(m[3]!)?.[1];
    if (ref) out.push({ role: m[1]!, name: m[2] ?? "", ref });
  }
  return out;
}

/**
 * The interactive elements of the driver's outline (`read_ui`, `find`, or a diff's `+`/`~`
 * lines): `  3etw3msqp5a0 AXButton "Sign in" @16,288,55,40`, each line led by its id.
 */
export function ourHandles(text: string): Handle[] {
  const out: Handle[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*(?:[+~=] )?([0-9a-z]{6,}) (AX\w+)(?: "((?:[^"\\]|\\.)*)")?/.exec(line);
    if (!m || !OUR_INTERACTIVE.has(m[2]!)) continue;
    out.push({ role: m[2]!, name: m[3] ?? "", ref: m[1]! });
  }
  return out;
}

/** The words of `text`: runs of letters and digits, lower-cased. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * The share of `page`'s words that `read` holds, counted with repeats: a word the page
 * shows five times and the read once counts once.
 */
export function wordShare(read: string, page: readonly string[]): number {
  if (page.length === 0) return 1;
  const have = new Map<string, number>();
  for (const w of words(read)) have.set(w, (have.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of page) {
    const n = have.get(w) ?? 0;
    if (n > 0) {
      found++;
      have.set(w, n - 1);
    }
  }
  return found / page.length;
}

/** Approximate tokens of a text: its characters over four. */
export const tokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * The part of a `read_ui` outline that is the page: the first `AXWebArea` line and the
 * lines indented below it (the rest is the browser's frame: toolbar, tabs, infobars).
 */
export function webArea(text: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => /^\s*\S+ AXWebArea "/.test(l));
  if (start < 0) return "";
  const indent = lines[start]!.search(/\S/);
  let end = start + 1;
  while (end < lines.length && lines[end]!.search(/\S/) > indent) end++;
  return lines.slice(start, end).join("\n");
}
