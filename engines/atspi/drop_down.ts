/**
 * Combo boxes an app draws itself. LibreOffice's toolbar combos (Paragraph Style, Font
 * Name) are an entry and an unnamed toggle button beside a combo box that never shows:
 * checking the toggle opens the list, and nothing on the bus says so (no HAS_POPUP, no
 * showing combo). Such a toggle offers `show_menu` (act.ts checks it). A read walks past
 * hidden nodes without asking their role (or, where the app answers which children show,
 * without listing them), so the hidden sibling is asked for here, for the few boxes that
 * look like one; a toggle found to be a drop-down is remembered.
 *
 * @module
 */
import type { RawNode } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import type { Known } from "./known.ts";
import { atspiRoleName } from "./roles.ts";
import type { Skeleton, SkeletonNode } from "./skeleton.ts";

/** A drop-down's box holds its entry, combo and toggle: more children is something else. */
const MAX_KIDS = 4;

/** A toggle button that may be a combo's drop-down, and its hidden siblings. */
export interface DropDownCandidate {
  toggle: SkeletonNode;
  /** Its hidden siblings, or its box when the walk did not list them (`shownOnly`). */
  hidden: SkeletonNode[] | { box: SkeletonNode };
}

/**
 * The one showing toggle button among `node`'s few children when some sibling is hidden
 * (its role unknown, or a combo box), not yet known as a drop-down; else undefined.
 */
export function dropDownCandidate(
  skeleton: Skeleton,
  node: SkeletonNode,
  shown: number,
  known: Known,
): DropDownCandidate | undefined {
  const count = node.shownOnly ? node.childCount : node.children.length;
  if (count < 2 || count > MAX_KIDS) return undefined;
  const kids = node.children.flatMap((path) => skeleton.get(path) ?? []);
  const toggles = kids.filter((k) =>
    k.states.has(shown) && atspiRoleName(k.role) === "toggle_button"
  );
  if (toggles.length !== 1 || known.get(toggles[0]!.ref)?.dropDown) return undefined;
  if (node.shownOnly) {
    return node.children.length < node.childCount
      ? { toggle: toggles[0]!, hidden: { box: node } }
      : undefined;
  }
  // A hidden node read by a walk has no role yet (0); one from the cache has its own.
  const hidden = kids.filter((k) =>
    !k.states.has(shown) && (k.role === 0 || atspiRoleName(k.role) === "combo_box")
  );
  return hidden.length > 0 ? { toggle: toggles[0]!, hidden } : undefined;
}

/**
 * Gives each candidate whose hidden sibling is a combo box `show_menu` (its node in
 * `rawOf`, by path) and remembers it in `known`. A sibling that cannot be asked leaves the
 * toggle as it is.
 */
export async function markDropDowns(
  client: AtspiClient,
  candidates: readonly DropDownCandidate[],
  rawOf: ReadonlyMap<string, RawNode>,
  known: Known,
  limits: CallLimits,
): Promise<void> {
  await Promise.all(candidates.map(async ({ toggle, hidden }) => {
    const others = Array.isArray(hidden)
      ? hidden
      : (await unlisted(client, hidden.box, limits)).map((ref) => ({ ref, role: 0 }));
    const roles = await Promise.all(
      others.map((k) =>
        k.role !== 0 ? k.role : client.call(k.ref, "Accessible", "GetRole", limits)
          .then(([role]) => Number(role), () => 0)
      ),
    );
    if (!roles.some((r) => atspiRoleName(r) === "combo_box")) return;
    const { ref, role, ifaces } = toggle;
    known.set(ref, { ...known.get(ref), role, ifaces, dropDown: true });
    const raw = rawOf.get(ref.path);
    if (raw && !raw.actions.includes("show_menu")) raw.actions.push("show_menu");
  }));
}

/** The children of `box` its walk did not list (bounded: a candidate has few); none if gone. */
async function unlisted(
  client: AtspiClient,
  box: SkeletonNode,
  limits: CallLimits,
): Promise<Ref[]> {
  const listed = new Set(box.children);
  const all = await client.children(box.ref, limits).catch(() => []);
  return all.filter((k) => k.bus === box.ref.bus && !listed.has(k.path));
}
