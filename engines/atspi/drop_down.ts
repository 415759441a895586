/**
 * Combo boxes an app draws itself. LibreOffice's toolbar combos (Paragraph Style, Font
 * Name) are an entry and an unnamed toggle button beside a combo box that never shows:
 * checking the toggle opens the list, and nothing on the bus says so (no HAS_POPUP, no
 * showing combo). Such a toggle offers `show_menu` (act.ts checks it). A read walks past
 * hidden nodes without asking their role, so the hidden sibling's role is asked here, for
 * the few boxes that look like one; a toggle found to be a drop-down is remembered.
 *
 * @module
 */
import type { RawNode } from "../../model/engine.ts";
import type { AtspiClient, CallLimits } from "./client.ts";
import type { Known } from "./known.ts";
import { atspiRoleName } from "./roles.ts";
import type { Skeleton, SkeletonNode } from "./skeleton.ts";

/** A drop-down's box holds its entry, combo and toggle: more children is something else. */
const MAX_KIDS = 4;

/** A toggle button that may be a combo's drop-down, and its hidden siblings. */
export interface DropDownCandidate {
  toggle: SkeletonNode;
  hidden: SkeletonNode[];
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
  if (node.children.length < 2 || node.children.length > MAX_KIDS) return undefined;
  const kids = node.children.flatMap((path) => skeleton.get(path) ?? []);
  const toggles = kids.filter((k) =>
    k.states.has(shown) && atspiRoleName(k.role) === "toggle_button"
  );
  if (toggles.length !== 1 || known.get(toggles[0]!.ref)?.dropDown) return undefined;
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
    const roles = await Promise.all(
      hidden.map((k) =>
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
