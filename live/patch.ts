/**
 * Applying a patch: folds the nodes an engine read again into the window's last tree, so
 * the map can be rebuilt without reading anything else (design document, "Patching").
 *
 * @module
 */
import type { PatchScope, RawNode } from "../model/engine.ts";

/** What a patch did to the tree. */
export interface Patched {
  /** The tree after the patch (a new root when the root itself was read with its subtree). */
  root: RawNode;
  /** Nodes in the tree after the patch. */
  nodes: number;
  /** The window node itself is gone: only a full read can tell what is there now. */
  windowGone: boolean;
  /** Handles that were read but are not in the tree (nothing to apply). */
  unknown: string[];
}

interface Place {
  node: RawNode;
  parent: RawNode | undefined;
}

function index(root: RawNode): Map<string, Place> {
  const out = new Map<string, Place>();
  const stack: Place[] = [{ node: root, parent: undefined }];
  while (stack.length) {
    const p = stack.pop()!;
    out.set(p.node.handle, p);
    for (const c of p.node.children) stack.push({ node: c, parent: p.node });
  }
  return out;
}

/**
 * Copies the node's own attributes, keeping its children: every field but those two, so
 * that one added to {@link RawNode} (a state, `truncated`, `table`) is never left stale.
 */
function assign(into: RawNode, from: RawNode): void {
  const children = into.children;
  const handle = into.handle;
  for (const key of Object.keys(into) as (keyof RawNode)[]) {
    if (!(key in from)) delete into[key];
  }
  Object.assign(into, from, { children, handle });
}

/** Which scope wins when one node is named by several notifications. */
export function widerScope(a: PatchScope | undefined, b: PatchScope): PatchScope {
  const rank = { bounds: 0, node: 1, subtree: 2 } as const;
  return a !== undefined && rank[a] >= rank[b] ? a : b;
}

/**
 * Applies `reads` (handle → the node read again, or `null` when it is gone) to `root`,
 * in place, each as far as its scope says: `bounds` moves the node, `node` replaces its
 * own attributes, `subtree` replaces it with its children. Narrow scopes go first so a
 * subtree read of an ancestor wins.
 */
export function applyPatch(
  root: RawNode,
  reads: ReadonlyMap<string, RawNode | null>,
  scopes: ReadonlyMap<string, PatchScope>,
): Patched {
  const places = index(root);
  const unknown: string[] = [];
  let top = root;
  const rank = (h: string) => ({ bounds: 0, node: 1, subtree: 2 })[scopes.get(h) ?? "node"];
  const ordered = [...reads].sort(([a], [b]) => rank(a) - rank(b));
  for (const [handle, read] of ordered) {
    const place = places.get(handle);
    if (!place) {
      unknown.push(handle);
      continue;
    }
    const { node, parent } = place;
    if (read === null) {
      if (!parent) return { root, nodes: 0, windowGone: true, unknown };
      parent.children = parent.children.filter((c) => c !== node);
    } else if (scopes.get(handle) === "subtree") {
      if (!parent) top = read;
      else parent.children = parent.children.map((c) => (c === node ? read : c));
    } else if (scopes.get(handle) === "bounds") {
      node.bounds = read.bounds;
    } else {
      assign(node, read);
    }
  }
  let nodes = 0;
  const stack = [top];
  while (stack.length) {
    const n = stack.pop()!;
    nodes++;
    stack.push(...n.children);
  }
  return { root: top, nodes, windowGone: false, unknown };
}

/**
 * The containers a patch checks for children added or removed without a notification:
 * the nodes it reads without their subtree and their ancestors below the window, each
 * once, nearest first, at most `limit`. Only nodes with children whose read child count
 * is known qualify, and none that is read with its subtree anyway.
 */
export function containersToCheck(
  root: RawNode,
  scopes: ReadonlyMap<string, PatchScope>,
  limit: number,
): RawNode[] {
  const places = index(root);
  const out = new Map<string, RawNode>();
  for (const handle of scopes.keys()) {
    let place = places.get(handle);
    // The window itself is the staleness probe's to check.
    while (place?.parent && out.size < limit) {
      const n = place.node;
      const container = n.childCount !== undefined && (n.childCount > 0 || n.children.length > 0);
      if (container && scopes.get(n.handle) !== "subtree") out.set(n.handle, n);
      place = places.get(place.parent.handle);
    }
  }
  return [...out.values()];
}

/** Roles whose children are rows or cells an app may add without telling. */
const LIST_ROLES = new Set(["AXTable", "AXOutline", "AXList", "AXGrid", "AXBrowser"]);

/**
 * The lists and tables of `root` whose child count the read knows, at most `limit`, for
 * the check after an action: Qt adds a row to a table, or a tree's rows on expanding,
 * with no notification at all.
 */
export function listsToCheck(root: RawNode, limit: number): RawNode[] {
  const out: RawNode[] = [];
  const stack = [root];
  while (stack.length > 0 && out.length < limit) {
    const n = stack.pop()!;
    if (LIST_ROLES.has(n.role) && n.childCount !== undefined) out.push(n);
    else stack.push(...n.children);
  }
  return out;
}
