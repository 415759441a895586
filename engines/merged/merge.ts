/**
 * Merging a thin accessibility tree with the regions vision reads from the same
 * window's pixels (read_ui `source: both`): the tree's nodes stay as they are, so their
 * ids do not move, and vision's regions follow them as more children of the window, in
 * reading order, except where a named tree node already covers them.
 *
 * @module
 */
import type { Bounds } from "../../protocol/element.ts";
import type { RawNode } from "../../model/engine.ts";

/** Prefix of the handles of nodes that came from pixels. */
export const VISION_HANDLE = "vision:";

/** Whether a merged node came from pixels. */
export function fromPixels(node: Pick<RawNode, "handle">): boolean {
  return node.handle.startsWith(VISION_HANDLE);
}

/** The vision engine's own handle of a merged node from pixels. */
export function pixelHandle(handle: string): string {
  return handle.slice(VISION_HANDLE.length);
}

const inside = (b: Bounds, x: number, y: number) =>
  x >= b.x && y >= b.y && x < b.x + b.w && y < b.y + b.h;

/**
 * Named leaves below the window: where the tree already says what is there. Containers
 * are left out, as a named panel over the whole canvas would hide every region.
 */
function namedNodes(root: RawNode): RawNode[] {
  const out: RawNode[] = [];
  const stack = [...root.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.children.length === 0 && n.name !== "" && n.bounds.w > 0 && n.bounds.h > 0) {
      out.push(n);
    }
    stack.push(...n.children);
  }
  return out;
}

/** Copies a vision subtree with every handle marked as from pixels. */
function marked(n: RawNode): RawNode {
  return { ...n, handle: VISION_HANDLE + n.handle, children: n.children.map(marked) };
}

/**
 * The tree's window with vision's top-level regions appended. A region whose centre
 * lies in a named tree leaf is left out: the tree's node says the same, and can be
 * acted on without pixels.
 *
 * @returns The merged window and how many nodes came from pixels.
 */
export function mergeTrees(
  tree: RawNode,
  vision: RawNode,
  maxAdded: number,
): { root: RawNode; added: number; truncated: boolean } {
  const named = namedNodes(tree);
  const count = (n: RawNode): number => 1 + n.children.reduce((s, c) => s + count(c), 0);
  const extra: RawNode[] = [];
  let added = 0;
  let truncated = false;
  for (const region of vision.children) {
    const cx = region.bounds.x + region.bounds.w / 2, cy = region.bounds.y + region.bounds.h / 2;
    if (named.some((n) => inside(n.bounds, cx, cy))) continue;
    const size = count(region);
    if (added + size > maxAdded) {
      truncated = true;
      break;
    }
    added += size;
    extra.push(marked(region));
  }
  return { root: { ...tree, children: [...tree.children, ...extra] }, added, truncated };
}

/** Nodes from pixels anywhere below `root`. */
export function pixelNodes(root: RawNode): number {
  let n = 0;
  const stack = [root];
  while (stack.length) {
    const x = stack.pop()!;
    if (fromPixels(x)) n++;
    stack.push(...x.children);
  }
  return n;
}

/**
 * Share of the window's area covered by its largest blank leaf from the tree: no name,
 * value, action or child, like a canvas or drawing area whose contents only pixels show.
 */
export function blankShare(root: RawNode): number {
  const area = root.bounds.w * root.bounds.h;
  if (!(area > 0)) return 0;
  let largest = 0;
  const stack = [...root.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (fromPixels(n)) continue;
    const blank = n.children.length === 0 && n.name === "" && !n.value && n.actions.length === 0;
    if (blank) largest = Math.max(largest, n.bounds.w * n.bounds.h);
    stack.push(...n.children);
  }
  return Math.min(1, largest / area);
}
