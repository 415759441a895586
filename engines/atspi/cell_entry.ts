/**
 * `set_value` and `type_text` on a table's cell (a Calc sheet's),
 * the way a person fills one in: the cell is made current (selected, not opened for editing),
 * the text typed, which replaces what the cell held, and Return commits it. Select-all
 * is never sent: on a selected cell it selects the whole sheet. The text is typed once:
 * a cell read back holding something else is answered with what it holds, not typed into
 * again (a second try typed "77" into a Calc cell).
 *
 * @module
 */
import type { ActOutcome, RawNode } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { alive, centre, grabFocus, type Input } from "./named_action.ts";
import { STATE } from "./states.ts";
import { pollUntil } from "../../util/poll.ts";

/** How long the committed text is waited for (the keys arrive through X). */
const READ_BACK_MS = 1_500;

/**
 * Enters `value` into cell `node` (`ref`: its object); `read` reads the cell's text. A
 * trailing newline is the commit itself (`type_text "7\n"`), not part of the text.
 */
export async function enterCell(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  value: string,
  limits: CallLimits,
  read: () => Promise<string>,
): Promise<ActOutcome> {
  const text = value.endsWith("\n") ? value.slice(0, -1) : value;
  await alive(client, ref, limits);
  // The sheet's own cursor goes to the cell (LibreOffice moves it on GrabFocus): no point
  // on a sheet still being laid out can put the text in the cell above (it did, into B1).
  // A table that takes no focus request is clicked, as a person would.
  const grabbed = await grabFocus(client, ref, limits);
  const focused = grabbed === true &&
    (await pollUntil(() => client.states(ref, limits), (s) => s.has(STATE.FOCUSED), 500)).has(
      STATE.FOCUSED,
    );
  if (!focused) await input({ kind: "click", ...centre(node), button: "left", count: 1 });
  if (text === "") {
    await input({ kind: "key", keys: "Delete" });
  } else {
    await input({ kind: "type", text });
    await input({ kind: "key", keys: "Return" });
  }
  // A formula shows its result: the cell's `Formula` attribute (LibreOffice) says what it holds.
  const holds = text.startsWith("=")
    ? async () => (await formulaOf(client, ref, limits)) ?? await read()
    : read;
  const now = await pollUntil(holds, (t) => sameText(t, text), READ_BACK_MS);
  return sameText(now, text)
    ? { via: "keys", ...(text === "" ? {} : { commit: "enter" as const }) }
    : { via: "keys", found: now, ...(text === "" ? {} : { commit: "enter" as const }) };
}

/**
 * Does the cell's `now` hold the `typed` text? A formula is compared without case or
 * spaces; one its app cut short (see {@link formulaOf}, ending in "\\") by its start.
 */
export function sameText(now: string, typed: string): boolean {
  if (now === typed) return true;
  if (!typed.startsWith("=") || !now.startsWith("=")) return false;
  const bare = (f: string) => f.replace(/\s+/g, "").toUpperCase();
  if (now.endsWith("\\")) {
    const start = bare(now.slice(0, -1));
    return start.length > 1 && bare(typed).startsWith(start);
  }
  return bare(now) === bare(typed);
}

/**
 * The formula a cell holds, as "=SUM(B2:B4)", from its `Formula` attribute; undefined when
 * it has none. LibreOffice escapes the formula's colons and its bridge cuts the value at the
 * first one: "SUM(B2\\" is what arrives, kept with its "\\" to say it was cut.
 */
async function formulaOf(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<string | undefined> {
  const [attrs] = await client.call(ref, "Accessible", "GetAttributes", limits).catch(() => [
    undefined,
  ]);
  const formula = attrs instanceof Map ? attrs.get("Formula") : undefined;
  return typeof formula === "string" && formula !== ""
    ? `=${formula.replace(/\\(.)/g, "$1")}`
    : undefined;
}
