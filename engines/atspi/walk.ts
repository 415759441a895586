/**
 * The direct walk, for toolkits without a cache (GTK 3 via atk-bridge, Qt, LibreOffice) and
 * for the parts a cache leaves out. It never asks an app for a list it has not bounded:
 * every node's `ChildCount` comes first, and only a visible node with at most
 * {@link MAX_CHILD_LIST} children is asked `GetChildren`. A node that manages its
 * descendants (a spreadsheet's billion cells, a 10,000-row tree view) or that counts more
 * children than that is read by its visible range ({@link visibleChildren}).
 *
 * A node's showing children are asked of the app in one call where it has `Collection`
 * (atk-bridge: GTK 3, LibreOffice, Java): hidden ones (a closed menu's items) cost nothing.
 * Elsewhere its children are listed and first asked only their state: a hidden child
 * costs one call, not five. Showing nodes are read as soon as their parent is, a few at a
 * time ({@link PIPELINE}), so a deep branch does not wait for a wide one.
 *
 * @module
 */
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { DriverError } from "../../protocol/errors.ts";
import { STATE, StateSet } from "./states.ts";
import type { Skeleton, SkeletonNode } from "./skeleton.ts";
import { visibleChildren } from "./managed.ts";
import { mapLimit } from "../../util/pool.ts";
import { Known } from "./known.ts";
import { atspiRoleName } from "./roles.ts";

/** Longest child list the walk asks for in one `GetChildren`. */
export const MAX_CHILD_LIST = 1_000;
/** Nodes read at once; each has up to five calls pending. */
const PIPELINE = 24;
/** Children's states asked at once, per node. */
const STATE_BATCH = 16;

const PREFIX = "org.a11y.atspi.";
/** Interface names without the `org.a11y.atspi.` prefix. */
export const stripIfaces = (ifaces: readonly string[]): Set<string> =>
  new Set(ifaces.map((i) => (i.startsWith(PREFIX) ? i.slice(PREFIX.length) : i)));

/** Does `node` keep its children out of a plain child list? */
export function isManager(node: Pick<SkeletonNode, "states" | "childCount">): boolean {
  return node.childCount < 0 || node.childCount > MAX_CHILD_LIST ||
    node.states.has(STATE.MANAGES_DESCENDANTS);
}

/** How far and how a walk goes. */
export interface WalkOptions {
  /** Most nodes. */
  max: number;
  /** The state that says "on screen" (SHOWING; VISIBLE for GTK 4). */
  shown?: number;
  /** The engine's memory of objects' fixed attributes. */
  known?: Known;
  /** The root's states, when the caller has them already (from the cache). */
  rootStates?: StateSet;
}

/**
 * Walks from `root`, at most `max` nodes; subtrees not in state `shown` are not
 * descended. A failure of any call fails the walk (the caller maps "gone" to a missing
 * node).
 */
export async function skeletonByWalk(
  client: AtspiClient,
  root: Ref,
  limits: CallLimits,
  { max, shown = STATE.SHOWING, known = new Known(), rootStates }: WalkOptions,
): Promise<Skeleton> {
  const nodes: Skeleton = new Map();
  const queue: Pending[] = [rootStates ? { ref: root, states: rootStates } : { ref: root }];
  let reserved = 1;
  let active = 0;
  let failure: unknown;
  await new Promise<void>((resolve) => {
    const pump = () => {
      while (failure === undefined && active < PIPELINE && queue.length > 0) {
        const next = queue.shift()!;
        active++;
        const room = Math.max(0, max - reserved);
        readNode(client, next, next.ref === root, limits, room, shown, known).then(
          ({ node, kids }) => {
            nodes.set(node.ref.path, node);
            // Children beyond the budget are never asked about.
            const fresh = kids.filter((k) => !nodes.has(k.ref.path)).slice(
              0,
              Math.max(0, max - reserved),
            );
            reserved += fresh.length;
            for (const kid of fresh) {
              // A hidden child is kept as its state alone: the tree leaves it out, and
              // asking its role, name and children would cost four calls for nothing.
              if (readOn(kid, shown)) queue.push(kid);
              else nodes.set(kid.ref.path, hiddenNode(kid.ref, kid.states!));
            }
          },
          (err) => {
            failure ??= err;
          },
        ).finally(() => {
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

/** A node to read, with its state set when its parent already asked for it. */
interface Pending {
  ref: Ref;
  states?: StateSet;
  /** A child of a table or list: VISIBLE is enough (see {@link ROW_HOLDERS}). */
  inRows?: true;
}

/**
 * Roles whose VISIBLE children are their rows or row groups: Gecko never calls an ARIA
 * grid's row group (a `<tbody>` the page fills) SHOWING, though its rows are.
 */
export const ROW_HOLDERS: ReadonlySet<string> = new Set([
  "table",
  "tree_table",
  "tree",
  "list",
  "list_box",
]);

/** Is a node in state `states` read on, as one of the window's showing part? */
const readOn = (kid: Pending, shown: number): boolean =>
  !kid.states || kid.states.has(shown) || (kid.inRows === true && kid.states.has(STATE.VISIBLE));

function hiddenNode(ref: Ref, states: StateSet): SkeletonNode {
  return { ref, role: 0, name: "", states, ifaces: new Set(), children: [], childCount: 0 };
}

/**
 * A node's role, states, name, interfaces and child count, its children not yet asked:
 * role and interfaces from `known` when the node was read before, `states` when the
 * caller has them.
 */
export async function readFacts(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
  known: Known,
  states?: StateSet,
): Promise<SkeletonNode> {
  const fixed = known.get(ref);
  const [role, state, name, ifaces, count] = await Promise.all([
    fixed?.role ?? client.call(ref, "Accessible", "GetRole", limits).then(([r]) => Number(r)),
    states ??
      client.call(ref, "Accessible", "GetState", limits).then(([s]) => new StateSet(s as number[])),
    client.prop(ref, "Accessible", "Name", limits),
    fixed?.ifaces ??
      client.call(ref, "Accessible", "GetInterfaces", limits).then(([i]) =>
        stripIfaces(i as string[])
      ),
    client.prop(ref, "Accessible", "ChildCount", limits),
  ]);
  if (!fixed) known.set(ref, { role, ifaces });
  return {
    ref,
    role,
    name: String(name ?? ""),
    states: state,
    ifaces,
    children: [],
    childCount: Number(count),
  };
}

/**
 * One node: its attributes, then (when it shows) its children, bounded, with their state
 * sets so that only the showing ones are read further.
 */
async function readNode(
  client: AtspiClient,
  { ref, states, inRows }: Pending,
  isRoot: boolean,
  limits: CallLimits,
  room: number,
  shown: number,
  known: Known,
): Promise<{ node: SkeletonNode; kids: Pending[] }> {
  const node = await readFacts(client, ref, limits, known, states);
  const showing = isRoot ||
    readOn({ ref, states: node.states, ...(inRows ? { inRows } : {}) }, shown);
  const holder = ROW_HOLDERS.has(atspiRoleName(node.role));
  if (!showing || node.childCount === 0 || room <= 0) return { node, kids: [] };
  let refs: Ref[];
  if (isManager(node)) {
    const visible = await visibleChildren(client, node, limits, room);
    if (visible.table) node.table = visible.table;
    refs = visible.children;
  } else {
    // A table's row groups are not in the app's SHOWING matches: its children are listed.
    const shownKids = holder
      ? undefined
      : await childrenIn(client, node, shown, room, limits, known);
    if (shownKids) {
      const own = shownKids.filter((k) => k.bus === ref.bus);
      node.children = own.map((k) => k.path);
      node.shownOnly = true;
      // Their states are asked with their other facts, in the next round.
      return { node, kids: own.map((k) => ({ ref: k })) };
    }
    refs = (await client.children(ref, limits)).filter((k) => k.bus === ref.bus);
  }
  node.children = refs.map((k) => k.path);
  const kids = await mapLimit(refs.slice(0, room), STATE_BATCH, async (kid) => {
    const [s] = await client.call(kid, "Accessible", "GetState", limits);
    return {
      ref: kid,
      states: new StateSet(s as number[]),
      ...(holder ? { inRows: true as const } : {}),
    };
  });
  return { node, kids };
}

/**
 * `node`'s children in state `shown`, at most `room`, from the app's `Collection`; undefined
 * where the app has none that answers (its children are then listed). An app whose
 * `GetMatches` fails on a node `GetChildren` answers for is not asked again.
 */
async function childrenIn(
  client: AtspiClient,
  node: SkeletonNode,
  shown: number,
  room: number,
  limits: CallLimits,
  known: Known,
): Promise<Ref[] | undefined> {
  const { ref } = node;
  if (!node.ifaces.has("Collection") || known.noCollection.has(ref.bus)) return undefined;
  try {
    return await client.childrenIn(ref, shown, room, limits);
  } catch (err) {
    // A node gone fails the same way: the listing below then fails too, and says so.
    if (!(err instanceof DriverError) || err.code !== "element_not_found") throw err;
    await client.children(ref, limits);
    known.noCollection.add(ref.bus);
    return undefined;
  }
}
