/**
 * Where a read's elements come from: the accessibility tree, the vision fallback, or both.
 *
 * @module
 */

/** Origin of a read's elements (`source` in read_ui). */
export type Source = "tree" | "vision" | "both";

/** A read's source and, unless the tree alone served, why. */
export interface SourceDecision {
  /** Where the elements come from. */
  source: Source;
  /** Why not the tree alone (`empty_tree`, `sparse_tree`, or the app's degraded reason). */
  source_reason?: string;
}

/** A tree with fewer elements than this besides the window is topped up by vision. */
export const MIN_TREE_ELEMENTS = 5;

/** A sparse tree is topped up by vision only when a blank node covers this much of the window. */
export const MIN_BLANK_SHARE = 0.5;

/**
 * Picks a read's source. `elementCount` counts the map's elements with the window itself;
 * `degradedReason` is the app's mark, if any; `blankShare` is the share of the window
 * covered by its largest blank leaf (no name, value or action: a canvas), so a small
 * dialog whose few elements say everything stays a tree read.
 */
export function chooseSource(
  elementCount: number,
  degradedReason?: string,
  blankShare = 1,
): SourceDecision {
  // An engine that says its tree is unusable knows more than the element count does.
  if (degradedReason !== undefined) return { source: "vision", source_reason: degradedReason };
  const besidesWindow = elementCount - 1;
  if (besidesWindow <= 0) return { source: "vision", source_reason: "empty_tree" };
  if (besidesWindow < MIN_TREE_ELEMENTS && blankShare >= MIN_BLANK_SHARE) {
    return { source: "both", source_reason: "sparse_tree" };
  }
  return { source: "tree" };
}
