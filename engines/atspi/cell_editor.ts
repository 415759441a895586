/**
 * `set_value` and `type_text` on a cell that is edited in place: a Qt item view's cell. Qt
 * never says whether a cell is editable (no EDITABLE state, no text interface: only a
 * "Toggle" action, which selects it), so the cell is edited the way a person does: made
 * current by a click, opened with F2 (Qt's edit key), and typed into only once its editor
 * took the focus. A cell that opens no editor gets nothing typed: keys sent to the table
 * itself would search it and Return would activate the row (open a file in a file dialog).
 * The editor is in no table's children; the app's focus announcement is what finds it.
 *
 * @module
 */
import type { ActOutcome, RawNode } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { alive, centre, type Input, refused } from "./named_action.ts";
import type { Known } from "./known.ts";
import { pollUntil } from "../../util/poll.ts";

/** How long the editor is waited for after F2. */
const EDITOR_MS = 1_000;
/** How long the committed text is waited for in the cell's name. */
const READ_BACK_MS = 1_500;

/** What is typed into the cell: its new text, or text added after what it holds. */
export type CellEntry = { kind: "set" | "type"; value: string };

/**
 * Opens cell `node` (`ref`) for editing, enters `entry` and commits it with Return; the
 * answer says whether the cell's name then holds the text.
 */
export async function editInPlace(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  entry: CellEntry,
  limits: CallLimits,
  known: Known,
): Promise<ActOutcome> {
  if (!known.focusHeard) {
    throw refused(
      node,
      "edit",
      "its editor is found by the app's focus notification, and notifications are off",
    );
  }
  await alive(client, ref, limits);
  const nameOf = async () =>
    String(await client.prop(ref, "Accessible", "Name", limits) ?? "").trim();
  const before = await nameOf();
  const since = performance.now();
  await input({ kind: "click", ...centre(node), button: "left", count: 1 });
  await input({ kind: "key", keys: "F2" });
  const editor = await pollUntil(
    async () => await editorOf(client, ref, known, since, limits),
    (r) => r !== undefined,
    EDITOR_MS,
  );
  if (!editor) {
    throw refused(
      node,
      "edit",
      "it opened no editor on F2 (its view does not edit it); nothing was typed",
    );
  }
  const text = entry.value.endsWith("\n") ? entry.value.slice(0, -1) : entry.value;
  // The editor holds the cell's text: replaced whole, or added to at its end.
  await input({ kind: "key", keys: entry.kind === "set" ? "ctrl+a" : "End" });
  if (text !== "") await input({ kind: "type", text });
  else if (entry.kind === "set") await input({ kind: "key", keys: "Delete" });
  await input({ kind: "key", keys: "Return" });
  const want = entry.kind === "set" ? text : before + text;
  const now = await pollUntil(nameOf, (t) => t === want, READ_BACK_MS);
  return now === want
    ? { via: "keys", commit: "enter" }
    : { via: "keys", commit: "enter", found: now };
}

/**
 * The editable text that took the app's focus after `since`: the cell's editor. Not the
 * cell itself, nor anything without an editable text.
 */
async function editorOf(
  client: AtspiClient,
  cell: Ref,
  known: Known,
  since: number,
  limits: CallLimits,
): Promise<Ref | undefined> {
  const last = known.lastFocus.get(cell.bus);
  if (!last || last.at < since || last.path === cell.path) return undefined;
  const ref = { bus: cell.bus, path: last.path };
  const [ifaces] = await client.call(ref, "Accessible", "GetInterfaces", limits).catch(() => [[]]);
  return Array.isArray(ifaces) && ifaces.includes("org.a11y.atspi.EditableText") ? ref : undefined;
}
