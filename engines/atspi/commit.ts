/**
 * `set_value` with `commit: "enter"`: the field is given Return once its text is in, as a
 * person does when the app reads a field only on Enter (evince's page number, Gnumeric's
 * edit line, a search box). Never by default: Return sends a chat message, submits a form
 * or presses a dialog's default button.
 *
 * @module
 */
import type { ActOutcome, RawNode } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { alive, centre, focusForKeys, type Input } from "./named_action.ts";

/**
 * Commits the text now in field `node` (`ref`) by Return sent with the field focused (its
 * text was typed, by keys: text_entry.ts). Not by GTK's `activate` action: Gnumeric's edit
 * line ignored it, as it ignores text not typed. `out` is the set's answer: a set that did
 * not take is not committed (the app would read the wrong text).
 */
export async function commitEnter(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  out: ActOutcome,
  limits: CallLimits,
): Promise<ActOutcome> {
  if (out.found !== undefined || out.commit !== undefined) return out;
  await alive(client, ref, limits);
  // Keys go where the focus is: the field takes it again (a spin box was set through its
  // Value, not by keys).
  await focusForKeys(client, input, ref, centre(node), limits);
  await input({ kind: "key", keys: "Return" });
  return { ...out, commit: "enter" };
}
