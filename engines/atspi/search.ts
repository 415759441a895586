/**
 * `find` beyond the map (`scope: "all"`): a breadth-first search of a window's whole tree,
 * hidden and scrolled-out nodes included, and the rows of a list or table that manages
 * its descendants asked for one by one by index (a GTK tree view creates a row's objects
 * only when asked). Like a read, it never asks for an unbounded list: a plain node's
 * children come by `GetChildren` only when it counts at most {@link MAX_CHILD_LIST}, a
 * manager's by index up to the search's node budget, and a manager counting more than
 * {@link MAX_MANAGED} is not searched through its children: asking for a spreadsheet's
 * billion cells would make the app build them. A sheet is asked for its filled part cell
 * by cell by address (sheet.ts); any other such list is not searched.
 *
 * Each node costs its role, states, name, interfaces and child count (role and interfaces
 * are remembered between reads); only a node whose role and name could match is read in
 * full (text, bounds, actions) to decide.
 *
 * @module
 */
import type { RawNode, SearchBudget, SearchFilter, SearchResult } from "../../model/engine.ts";
import { mapLimit } from "../../util/pool.ts";
import { absent, type AtspiClient, type CallLimits, handleOf, type Ref } from "./client.ts";
import { childAt } from "./managed.ts";
import { isSheet, scanSheet } from "./sheet.ts";
import type { Known } from "./known.ts";
import { axRole } from "./roles.ts";
import type { SkeletonNode } from "./skeleton.ts";
import { STATE } from "./states.ts";
import { buildTree, namedByDescription, unnamed } from "./tree.ts";
import { isManager, MAX_CHILD_LIST, readFacts } from "./walk.ts";

/** Nodes asked about at once. */
const PIPELINE = 32;
/** Most children of a manager searched by index; a larger one is skipped. */
export const MAX_MANAGED = 100_000;

/**
 * Searches the tree under `root` (a window) for nodes `filter` accepts.
 *
 * @param shown The window's "on screen" state, for reading a match as a read would.
 */
export async function searchTree(
  client: AtspiClient,
  root: Ref,
  limits: CallLimits,
  filter: SearchFilter,
  budget: SearchBudget,
  known: Known,
  shown: number,
): Promise<SearchResult> {
  const found: RawNode[] = [];
  // Each found node's parent, by handle: the caller places what it found in the tree.
  const parents = new Map<string, string>();
  let level: Ref[] = [root];
  const parentOf = new Map<Ref, string>();
  let queued = 1;
  let visited = 0;
  let complete = true;
  const done = () => budget.stop.aborted || found.length >= filter.maxResults;
  while (level.length > 0 && !done()) {
    const next: Ref[][] = await mapLimit(level, PIPELINE, async (ref) => {
      if (done()) return [];
      visited++;
      const node = await factsOf(client, ref, limits, known, budget);
      if (node === undefined) return [];
      const keep = (node: SkeletonNode, handle?: string, parent = parentOf.get(ref)) =>
        consider(client, node, limits, filter, known, shown, found, handle).then((kept) => {
          if (kept !== undefined && parent !== undefined) parents.set(kept, parent);
        }).catch((err) => {
          // The search's own time ran out mid-read: what was found stands.
          if (!budget.stop.aborted || budget.signal.aborted) throw err;
        });
      await keep(node);
      const room = budget.maxNodes - queued;
      // A negative count is a manager's that cannot say (too many to count).
      if (node.childCount === 0 || room <= 0) {
        if (node.childCount !== 0) complete = false;
        return [];
      }
      if (isManager(node) && (node.childCount > MAX_MANAGED || node.childCount < 0)) {
        if (isSheet(node, MAX_MANAGED)) {
          queued += await scanSheet(client, node, limits, known, room, done, (cell) => {
            visited++;
            return keep(cell.node, cell.handle, handleOf(node.ref));
          });
        }
        complete = false;
        return [];
      }
      const kids = await childrenOf(client, node, limits, room, budget);
      if (kids.length < node.childCount && room < node.childCount) complete = false;
      queued += kids.length;
      const mine = handleOf(node.ref);
      for (const kid of kids) parentOf.set(kid, mine);
      return kids;
    });
    level = next.flat();
  }
  if (level.length > 0 || budget.stop.aborted || found.length >= filter.maxResults) {
    complete = false;
  }
  const nodes = found.slice(0, filter.maxResults);
  return { nodes, visited, complete, parents };
}

/**
 * Reads `node` in full when its role and name could match, and keeps it when it does.
 * Answers the kept node's handle.
 */
async function consider(
  client: AtspiClient,
  node: SkeletonNode,
  limits: CallLimits,
  filter: SearchFilter,
  known: Known,
  shown: number,
  found: RawNode[],
  handle?: string,
): Promise<string | undefined> {
  const s = node.states;
  const role = axRole(node.role, {
    multiLine: s.has(STATE.MULTI_LINE),
    editable: s.has(STATE.EDITABLE),
  });
  // Names are trimmed, and an unnamed button is named by its description, once read.
  const name = node.name.trim();
  if (!filter.maybe(role, name) && !(unnamed(name) && namedByDescription(node.role))) {
    return undefined;
  }
  // Read alone, as a read of the window would make it: children are not the question.
  const alone = new Map([[node.ref.path, { ...node, children: [] }]]);
  const tree = await buildTree(client, alone, node.ref.path, 1, limits, shown, known).catch(
    absent,
  );
  if (!tree || !filter.accept(tree.root) || found.length >= filter.maxResults) return undefined;
  // What is found beyond the screen is there to be brought onto it.
  const { actions } = tree.root;
  if (node.ifaces.has("Component") && !actions.includes("scroll_into_view")) {
    actions.push("scroll_into_view");
  }
  const kept = handle === undefined ? tree.root : { ...tree.root, handle };
  found.push(kept);
  return kept.handle;
}

/** Role, states, name, interfaces and child count of `ref`; undefined when it is gone. */
async function factsOf(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
  known: Known,
  budget: SearchBudget,
): Promise<SkeletonNode | undefined> {
  try {
    const node = await readFacts(client, ref, limits, known);
    return node.states.has(STATE.DEFUNCT) ? undefined : node;
  } catch (err) {
    if (budget.stop.aborted && !budget.signal.aborted) return undefined;
    return absent(err);
  }
}

/** A node's children, at most `room`: by list when it is short, else by index. */
async function childrenOf(
  client: AtspiClient,
  node: SkeletonNode,
  limits: CallLimits,
  room: number,
  budget: SearchBudget,
): Promise<Ref[]> {
  try {
    if (!isManager(node) && node.childCount <= MAX_CHILD_LIST) {
      const kids = await client.children(node.ref, limits);
      return kids.filter((k) => k.bus === node.ref.bus).slice(0, room);
    }
    const n = Math.min(node.childCount, room);
    const kids = await mapLimit(Array.from({ length: n }, (_, i) => i), PIPELINE, async (i) => {
      if (budget.stop.aborted) return undefined;
      return await childAt(client, node.ref, i, limits);
    });
    return kids.filter((k): k is Ref => k !== undefined);
  } catch (err) {
    if (budget.stop.aborted && !budget.signal.aborted) return [];
    return absent(err) ?? [];
  }
}
