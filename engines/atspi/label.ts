/**
 * A field's label, from its label relation (`LABELLED_BY`): the "Size" beside a combo box
 * whose own name is the option it shows. The element map keys such an element by it
 * (`map/ids.ts`), so the id does not follow the value. Only the roles whose name may be
 * their value are asked: one `GetRelationSet` each, and a `Name` when a label is found.
 *
 * @module
 */
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { NULL_PATH } from "./client.ts";

/** AT-SPI roles (by name) whose name may be their value, so a label keys them instead. */
export const LABELLED_ROLES: ReadonlySet<string> = new Set([
  "text",
  "entry",
  "password_text",
  "combo_box",
  "autocomplete",
  "spin_button",
  "slider",
  "dial",
  "date_editor",
  "editbar",
]);

/** `AtspiRelationType.LABELLED_BY`. */
const LABELLED_BY = 2;

/**
 * The trimmed name of the first object `ref` is labelled by in its own app; undefined
 * when it has none or that name is empty.
 */
export async function labelOf(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<string | undefined> {
  const [relations] = await client.call(ref, "Accessible", "GetRelationSet", limits);
  for (const [type, targets] of (relations ?? []) as [number, [string, string][]][]) {
    if (Number(type) !== LABELLED_BY) continue;
    for (const [bus, path] of targets) {
      if (path === NULL_PATH || (bus !== ref.bus && bus !== "")) continue;
      const label = await ownText(client, { bus: ref.bus, path }, ref, limits);
      if (label !== "") return label;
    }
  }
  return undefined;
}

/** Longest label text read. */
const MAX_LABEL = 200;
/** Most children of a label looked at for its own words. */
const MAX_PARTS = 8;

/**
 * A label's own words. A page's `<label>Name <input></label>` holds its field: Gecko's
 * text of it flattens the field's value in ("Name Ann"), and its name too, so the key
 * would follow the value. Such a label's words are its other children's names (its text
 * leaves). A label that holds no field (a toolkit's) is its text, else its name.
 */
async function ownText(
  client: AtspiClient,
  label: Ref,
  field: Ref,
  limits: CallLimits,
): Promise<string> {
  const kids = await client.children(label, limits);
  if (kids.length <= MAX_PARTS && kids.some((k) => k.path === field.path)) {
    const names = await Promise.all(
      kids.filter((k) => k.path !== field.path && (k.bus === "" || k.bus === label.bus)).map((k) =>
        client.prop({ bus: label.bus, path: k.path }, "Accessible", "Name", limits)
      ),
    );
    return names.map((n) => String(n ?? "").trim()).filter((n) => n !== "").join(" ");
  }
  const [ifaces] = (await client.call(label, "Accessible", "GetInterfaces", limits)) as [string[]];
  if (ifaces.includes("org.a11y.atspi.Text")) {
    const [text] = await client.call(label, "Text", "GetText", limits, "ii", [0, MAX_LABEL]);
    const own = String(text ?? "").replaceAll("\ufffc", "").replace(/\s+/g, " ").trim();
    if (own !== "") return own;
  }
  return String(await client.prop(label, "Accessible", "Name", limits) ?? "").trim();
}
