/**
 * A combo box's value is the option it shows. A page's `<select>` has no text of its own
 * that says so: Chromium's text is one U+FFFC (the place of its list), Gecko's is empty.
 * There the option its list (or the combo itself) holds selected is the value, as a
 * screen reader reads it: two or three calls, for combos only.
 *
 * @module
 */
import type { RawNode } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { childAt } from "./managed.ts";

/** The text of a combo that says nothing: empty, or only embedded-object marks. */
const says = (text: string | undefined) => (text ?? "").replaceAll("\ufffc", "").trim() !== "";

/** Sets `raw.value` to the option combo `ref` shows when its own text says none. */
export async function showChoice(
  client: AtspiClient,
  ref: Ref,
  raw: RawNode,
  limits: CallLimits,
): Promise<void> {
  if (says(raw.value)) return;
  const choice = await selectedIn(client, ref, limits) ??
    await childAt(client, ref, 0, limits).then((list) =>
      list ? selectedIn(client, list, limits) : undefined
    );
  if (choice !== undefined) raw.value = choice;
  else delete raw.value;
}

/** The name of the first child `holder` holds selected, when it has a `Selection`. */
export async function selectedIn(
  client: AtspiClient,
  holder: Ref,
  limits: CallLimits,
): Promise<string | undefined> {
  const [ifaces] = (await client.call(holder, "Accessible", "GetInterfaces", limits)) as [string[]];
  if (!ifaces.includes("org.a11y.atspi.Selection")) return undefined;
  const n = Number(await client.prop(holder, "Selection", "NSelectedChildren", limits));
  if (!(n > 0)) return undefined;
  const [picked] = await client.call(holder, "Selection", "GetSelectedChild", limits, "i", [0]);
  const [bus, path] = picked as [string, string];
  const name = await client.prop({ bus: bus || holder.bus, path }, "Accessible", "Name", limits);
  const text = String(name ?? "").trim();
  return text === "" ? undefined : text;
}
