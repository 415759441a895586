/**
 * Raw trees for the map's tests and benchmark (not part of the public API).
 *
 * @module
 */
import type { RawNode } from "../model/engine.ts";
import type { ActionName, Bounds } from "../protocol/element.ts";

let handles = 0;

/** Extra fields of {@link node}. */
export interface NodeExtras {
  /** Value, absent by default. */
  value?: string;
  /** Default true. */
  enabled?: boolean;
  /** Default false. */
  focused?: boolean;
  /** Default none. */
  actions?: ActionName[];
  /** Default a fresh `h<n>`. */
  handle?: string;
}

/**
 * A raw node with defaults: enabled, not focused, no actions, a fresh handle.
 *
 * @param role AX role.
 * @param name Accessible name.
 * @param bounds Screen points.
 * @param children Children in order.
 * @param extras Value, states, actions, handle.
 */
export function node(
  role: string,
  name: string,
  bounds: Bounds,
  children: RawNode[] = [],
  extras: NodeExtras = {},
): RawNode {
  const n: RawNode = {
    handle: extras.handle ?? `h${++handles}`,
    role,
    name,
    bounds,
    enabled: extras.enabled ?? true,
    focused: extras.focused ?? false,
    actions: extras.actions ?? [],
    children,
  };
  if (extras.value !== undefined) n.value = extras.value;
  return n;
}

/**
 * Deep copy of a tree with every node shifted by (`dx`, `dy`), as when a window moves.
 *
 * @param root Tree to copy.
 * @param dx Points to the right.
 * @param dy Points down.
 */
export function moved(root: RawNode, dx: number, dy: number): RawNode {
  const b = root.bounds;
  return {
    ...root,
    bounds: { x: b.x + dx, y: b.y + dy, w: b.w, h: b.h },
    actions: [...root.actions],
    children: root.children.map((c) => moved(c, dx, dy)),
  };
}

/** Deterministic PRNG (mulberry32) so benchmark trees are the same every run. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONTAINERS = ["AXGroup", "AXList", "AXTable", "AXRow", "AXToolbar", "AXScrollArea"];
const LEAVES = ["AXButton", "AXStaticText", "AXTextField", "AXCheckBox", "AXMenuItem", "AXCell"];
// Repeated names make twins, as real apps do ("", "Delete" in every row, ...).
const COMMON = ["", "", "OK", "Delete", "More", "Edit"];
const ACTIONS: ActionName[] = ["press", "focus"];

/**
 * A window-like tree of exactly `count` nodes, about six levels deep: containers with
 * 3-9 children, mixed roles, unique and repeated names (so some twins), values on text
 * fields, and bounds laid out in rows inside each parent.
 *
 * @param count Nodes in the tree, the window included.
 * @param seed PRNG seed.
 */
export function syntheticWindow(count: number, seed = 1): RawNode {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const root = node("AXWindow", "Document", { x: 100, y: 80, w: 1200, h: 800 });
  let made = 1;
  // Breadth-first so the tree fills to an even depth before `count` runs out.
  const queue: { n: RawNode; depth: number }[] = [{ n: root, depth: 0 }];
  for (let q = 0; q < queue.length && made < count; q++) {
    const { n: parent, depth } = queue[q]!;
    const fan = 3 + Math.floor(rand() * 7);
    const leaf = depth >= 5;
    const pb = parent.bounds;
    for (let i = 0; i < fan && made < count; i++) {
      const role = leaf || (depth > 1 && rand() < 0.3) ? pick(LEAVES) : pick(CONTAINERS);
      const name = rand() < 0.4 ? pick(COMMON) : `${role.slice(2)} ${made}`;
      const h = Math.max(1, Math.floor(pb.h / fan));
      const bounds = { x: pb.x + 4, y: pb.y + i * h, w: Math.max(1, pb.w - 8), h };
      const extras: NodeExtras = { actions: ACTIONS.slice(0, 1 + (made % 2)) };
      if (role === "AXTextField") extras.value = `text ${made}`;
      const child = node(role, name, bounds, [], extras);
      parent.children.push(child);
      made++;
      if (!LEAVES.includes(role)) queue.push({ n: child, depth: depth + 1 });
    }
  }
  if (made < count) throw new Error(`Cannot build ${count} nodes from seed ${seed}: made ${made}`);
  return root;
}

/**
 * A deep copy of `root` with about `count` random visible changes: values and names
 * changed, leaves removed and inserted, bounds nudged, as between two reads of a busy app.
 *
 * @param root Tree to copy; left untouched.
 * @param count Changes to make.
 * @param seed PRNG seed.
 */
export function mutated(root: RawNode, count: number, seed: number): RawNode {
  const rand = prng(seed);
  const copy = (n: RawNode): RawNode => ({
    ...n,
    bounds: { ...n.bounds },
    actions: [...n.actions],
    children: n.children.map(copy),
  });
  const out = copy(root);
  const all: RawNode[] = [];
  const walk = (n: RawNode) => {
    all.push(n);
    n.children.forEach(walk);
  };
  walk(out);
  for (let i = 0; i < count; i++) {
    const n = all[1 + Math.floor(rand() * (all.length - 1))]!;
    const kind = rand();
    if (kind < 0.5) n.value = `edit ${seed}.${i}`;
    else if (kind < 0.6) n.name = `${n.name} ${i}`;
    else if (kind < 0.7) n.bounds = { ...n.bounds, y: n.bounds.y + 1 };
    else if (kind < 0.85) n.children.pop();
    else n.children.push(node("AXStaticText", `new ${seed}.${i}`, n.bounds));
  }
  return out;
}
