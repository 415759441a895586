/**
 * The direct walk, for toolkits without a cache (GTK 3 via atk-bridge, Qt, LibreOffice) and
 * for the parts a cache leaves out. It never asks an app for a list it has not bounded:
 * every node's `ChildCount` comes first, and only a visible node with at most
 * {@link MAX_CHILD_LIST} children is asked `GetChildren`. A node that manages its
 * descendants (a spreadsheet's billion cells, a 10,000-row tree view) or that counts more
 * children than that is read by its visible range ({@link visibleChildren}).
 *
 * Nodes are read as soon as their parent is, with at most {@link PIPELINE} calls per app
 * in flight, so a deep branch does not wait for a wide one.
 *
 * @module
 */
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { STATE, StateSet } from "./states.ts";
import type { Skeleton, SkeletonNode } from "./skeleton.ts";
import { visibleChildren } from "./managed.ts";

/** Longest child list the walk asks for in one `GetChildren`. */
export const MAX_CHILD_LIST = 1_000;
/** Nodes read at once; each has up to six calls pending. */
const PIPELINE = 12;

const PREFIX = "org.a11y.atspi.";
/** Interface names without the `org.a11y.atspi.` prefix. */
export const stripIfaces = (ifaces: readonly string[]): Set<string> =>
  new Set(ifaces.map((i) => (i.startsWith(PREFIX) ? i.slice(PREFIX.length) : i)));

/** Does `node` keep its children out of a plain child list? */
export function isManager(node: Pick<SkeletonNode, "states" | "childCount">): boolean {
  return node.childCount < 0 || node.childCount > MAX_CHILD_LIST ||
    node.states.has(STATE.MANAGES_DESCENDANTS);
}

/**
 * Walks from `root`, at most `max` nodes; subtrees not in state `shown` (SHOWING, or
 * VISIBLE for GTK 4) are not descended. A failure of any call fails the walk (the caller
 * maps "gone" to a missing node).
 */
export async function skeletonByWalk(
  client: AtspiClient,
  root: Ref,
  limits: CallLimits,
  max: number,
  shown: number = STATE.SHOWING,
): Promise<Skeleton> {
  const nodes: Skeleton = new Map();
  const queue: Ref[] = [root];
  let reserved = 1;
  let active = 0;
  let failure: unknown;
  await new Promise<void>((resolve) => {
    const pump = () => {
      while (failure === undefined && active < PIPELINE && queue.length > 0) {
        const ref = queue.shift()!;
        active++;
        readNode(client, ref, ref === root, limits, max - reserved, shown).then((node) => {
          nodes.set(node.ref.path, node);
          // Children beyond the budget are never asked about.
          const room = Math.max(0, max - reserved);
          const kids = node.children.filter((p) => !nodes.has(p)).slice(0, room);
          reserved += kids.length;
          for (const path of kids) queue.push({ bus: ref.bus, path });
        }, (err) => {
          failure ??= err;
        }).finally(() => {
          active--;
          if (active === 0 && (queue.length === 0 || failure !== undefined)) resolve();
          else pump();
        });
      }
    };
    pump();
  });
  if (failure !== undefined) throw failure;
  return nodes;
}

/** One node: its attributes, then (when it shows) its children, bounded. */
async function readNode(
  client: AtspiClient,
  ref: Ref,
  isRoot: boolean,
  limits: CallLimits,
  room: number,
  shown: number,
): Promise<SkeletonNode> {
  const [role, state, name, ifaces, count] = await Promise.all([
    client.call(ref, "Accessible", "GetRole", limits),
    client.call(ref, "Accessible", "GetState", limits),
    client.prop(ref, "Accessible", "Name", limits),
    client.call(ref, "Accessible", "GetInterfaces", limits),
    client.prop(ref, "Accessible", "ChildCount", limits),
  ]);
  const node: SkeletonNode = {
    ref,
    role: Number(role[0]),
    name: String(name ?? ""),
    states: new StateSet(state[0] as number[]),
    ifaces: stripIfaces(ifaces[0] as string[]),
    children: [],
    childCount: Number(count),
  };
  const showing = isRoot || node.states.has(shown);
  if (!showing || node.childCount === 0 || room <= 0) return node;
  if (isManager(node)) {
    const visible = await visibleChildren(client, node, limits, room);
    node.children = visible.children.map((k) => k.path);
    if (visible.table) node.table = visible.table;
    return node;
  }
  const kids = await client.children(ref, limits);
  node.children = kids.filter((k) => k.bus === ref.bus).map((k) => k.path);
  return node;
}
