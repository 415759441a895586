/**
 * Proposals (capture pixels) to the engine's {@link RawNode} tree (screen points): the
 * window node first, its children in reading order. Handles are the role and the bounds
 * relative to the window's corner, so the same pixels give the same handles wherever the
 * window is; crops travel beside the tree, keyed by handle.
 *
 * @module
 */
import type { Bounds } from "../../protocol/element.ts";
import type { Capture, RawNode } from "../../model/engine.ts";
import type { Proposal } from "./regions.ts";

/** A window's vision tree and what it holds. */
export interface VisionTree {
  /** The window node. */
  root: RawNode;
  /** Each node's crop, by handle. */
  crops: Map<string, string>;
  /** Nodes in the tree, the window included. */
  nodes: number;
  /** `maxElements` cut it short. */
  truncated: boolean;
}

/** What the tree needs to know of the window besides its pixels. */
export interface WindowFacts {
  /** Window id (as the engine lists it). */
  window: string;
  /** Title: the window node's name. */
  title: string;
  /** The window is active. */
  focused: boolean;
}

/**
 * Builds the tree of one analysed capture.
 *
 * @param proposals The window's children, capture pixels.
 * @param capture Where the pixels are on screen (`origin`, `scale`, size).
 * @param facts The window's id, title and focus.
 * @param maxElements Largest node count, the window included.
 */
export function toTree(
  proposals: readonly Proposal[],
  capture: Pick<Capture, "origin" | "scale" | "width" | "height">,
  facts: WindowFacts,
  maxElements: number,
): VisionTree {
  const { origin, scale } = capture;
  const crops = new Map<string, string>();
  let nodes = 1;
  let truncated = false;
  const bounds = (r: { x: number; y: number; w: number; h: number }): Bounds => ({
    x: origin.x + r.x / scale,
    y: origin.y + r.y / scale,
    w: r.w / scale,
    h: r.h / scale,
  });
  const convert = (list: readonly Proposal[]): RawNode[] => {
    const out: RawNode[] = [];
    for (const p of list) {
      if (nodes >= maxElements) {
        truncated = true;
        break;
      }
      nodes++;
      const handle = `${p.role}@${p.rect.x},${p.rect.y},${p.rect.w},${p.rect.h}`;
      if (p.crop !== undefined) crops.set(handle, p.crop);
      const node: RawNode = {
        handle,
        role: p.role,
        name: p.name,
        bounds: bounds(p.rect),
        enabled: true,
        focused: false,
        actions: [...p.actions],
        children: convert(p.children),
      };
      if (p.unread !== undefined) node.unread = p.unread;
      out.push(node);
    }
    return out;
  };
  const children = convert(proposals);
  const root: RawNode = {
    handle: `window@${facts.window}`,
    role: "AXWindow",
    name: facts.title,
    bounds: bounds({ x: 0, y: 0, w: capture.width, h: capture.height }),
    enabled: true,
    focused: facts.focused,
    actions: [],
    children,
  };
  return { root, crops, nodes, truncated };
}

/** Every node of a tree by its handle. */
export function nodesByHandle(root: RawNode): Map<string, RawNode> {
  const out = new Map<string, RawNode>();
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    out.set(n.handle, n);
    stack.push(...n.children);
  }
  return out;
}

/**
 * The nodes `requests` name, found in a tree read whole (`null` for one not in it): how
 * engines that cannot read a node alone answer `Engine.readNodes`.
 */
export function nodesFrom(
  root: RawNode,
  requests: readonly { handle: string }[],
): Map<string, RawNode | null> {
  const byHandle = nodesByHandle(root);
  return new Map(requests.map(({ handle }) => [handle, byHandle.get(handle) ?? null]));
}
