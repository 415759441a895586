/**
 * Names for fields a toolkit leaves nameless and unlabelled, as a person (and Orca's label
 * inference) reads a form: the words just left of the field on its row, else just above
 * it. zenity's `--forms` grid and mousepad's "Tab width:" have labels with no relation to
 * their fields, so `find` by name could not reach them. A field inside a labelled combo
 * (GTK 3's combo with an entry) takes the combo's label. A check box or radio button whose
 * words end in a colon ("Long line margin at column:") labels the field after it. A list's
 * nameless tick box (zenity's checklist) takes the words of its row's next cell, as Orca
 * reads "git, check box not checked". Every read and patch of a window
 * passes here (windows.ts), so a field read again alone keeps the name its row gives it.
 *
 * @module
 */
import type { RawNode } from "../model/engine.ts";
import type { Bounds } from "../protocol/element.ts";

/** Roles of fields a label names. */
const FIELDS: ReadonlySet<string> = new Set([
  "AXTextField",
  "AXSecureTextField",
  "AXTextArea",
  "AXIncrementor",
  "AXComboBox",
  "AXPopUpButton",
  "AXSlider",
]);

/** Fields a toolkit names by the option they show. */
const POPUPS: ReadonlySet<string> = new Set(["AXPopUpButton", "AXComboBox"]);

/** Farthest a label stands left of its field, and above it, in pixels. */
const LEFT_GAP = 250;
const ABOVE_GAP = 30;
/** Most labels compared with each field: a window of thousands of texts is no form. */
const MAX_LABELS = 2_000;

const sized = (b: Bounds) => b.w > 0 && b.h > 0;
const right = (b: Bounds) => b.x + b.w;
const bottom = (b: Bounds) => b.y + b.h;
const middle = (b: Bounds) => b.y + b.h / 2;

/** A label's words as a name: its closing colon is punctuation. */
export const asName = (words: string): string => words.trim().replace(/\s*:\s*$/, "");

/**
 * Names each nameless, unlabelled field below `root` (see the module doc). A label stands
 * left of the field on its row with no other field between them, or right above it.
 */
export function guessLabels(root: RawNode): void {
  const labels: RawNode[] = [];
  const cells: RawNode[] = [];
  const fields: { node: RawNode; parent: RawNode | undefined }[] = [];
  const stack: { node: RawNode; parent: RawNode | undefined }[] = [{
    node: root,
    parent: undefined,
  }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const { node } = item;
    if (isLabel(node) && sized(node.bounds)) {
      if (labels.length < MAX_LABELS) labels.push(node);
    }
    if (node.role === "AXCell") cells.push(node);
    else if (FIELDS.has(node.role)) {
      fields.push(item);
    }
    for (const c of node.children) stack.push({ node: c, parent: node });
  }
  const boxes = fields.map((f) => f.node.bounds).filter(sized);
  for (const tick of cells) {
    if (tick.name !== "" || tick.checked === undefined || !sized(tick.bounds)) continue;
    const words = rightOf(tick.bounds, cells);
    if (words !== undefined) tick.name = words.name;
  }
  for (const { node, parent } of fields) {
    // A combo named by the option it shows has no name of its own ("Insert Tabs").
    const nameless = node.name === "" || (POPUPS.has(node.role) && node.name === node.value);
    if (!nameless || node.label !== undefined) continue;
    if (parent?.role === "AXComboBox" && parent.label !== undefined) {
      node.name = asName(parent.label);
      continue;
    }
    if (!sized(node.bounds)) continue;
    const words = leftOf(node.bounds, labels, boxes) ?? above(node.bounds, labels);
    if (words !== undefined) node.name = asName(words.name);
  }
}

/** Words that label what follows them: a text, or a check box or radio button ending in ":". */
function isLabel(n: RawNode): boolean {
  if (n.name.trim() === "") return false;
  if (n.role === "AXStaticText") return true;
  return (n.role === "AXCheckBox" || n.role === "AXRadioButton") && /:\s*$/.test(n.name);
}

/** The nearest named cell right of `b` on its row. */
function rightOf(b: Bounds, cells: readonly RawNode[]): RawNode | undefined {
  let best: RawNode | undefined;
  for (const c of cells) {
    const o = c.bounds;
    if (c.name === "" || o.x < right(b) - 2 || middle(o) < b.y || middle(o) > bottom(b)) continue;
    if (!best || o.x < best.bounds.x) best = c;
  }
  return best;
}

/** The nearest label left of `f` on its row, with no field between them. */
function leftOf(f: Bounds, labels: readonly RawNode[], fields: readonly Bounds[]) {
  let best: RawNode | undefined;
  for (const l of labels) {
    const b = l.bounds;
    const gap = f.x - right(b);
    if (gap < -2 || gap > LEFT_GAP || middle(b) < f.y || middle(b) > bottom(f)) continue;
    if (best && right(best.bounds) >= right(b)) continue;
    const between = fields.some((o) =>
      o !== f && o.x >= right(b) - 2 && right(o) <= f.x + 2 && middle(o) >= f.y &&
      middle(o) <= bottom(f)
    );
    if (!between) best = l;
  }
  return best;
}

/** The nearest label right above `f`, starting within its width. */
function above(f: Bounds, labels: readonly RawNode[]) {
  let best: RawNode | undefined;
  for (const l of labels) {
    const b = l.bounds;
    const gap = f.y - bottom(b);
    if (gap < -2 || gap > ABOVE_GAP || b.x < f.x - 10 || b.x > right(f)) continue;
    if (!best || bottom(b) > bottom(best.bounds)) best = l;
  }
  return best;
}
