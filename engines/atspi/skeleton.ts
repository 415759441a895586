/**
 * A window's skeleton: every node's role, name, states, interfaces and children.
 *
 * Toolkits with a cache interface (GTK 4, Chromium) answer all of it in one
 * `Cache.GetItems` call, but only for objects some client has already seen: GTK 4 exposes
 * a widget's children on their first `GetChildren`. So the read asks `GetItems`, calls
 * `GetChildren` only on visible nodes whose known children fall short of their child
 * count, and asks `GetItems` again, until nothing is missing (one round per unexplored
 * level; a re-read of a known window is one call). Toolkits without a cache, or whose
 * cache lacks the window (GTK 3 via atk-bridge, Qt, LibreOffice), are walked directly
 * (walk.ts), never asking for an unbounded child list; so is an app whose cache proved
 * far bigger than the window's showing part ({@link cacheTooBig}: Firefox holding a long
 * page), after the one read that found it so.
 *
 * @module
 */
import { type AtspiClient, type CallLimits, NULL_PATH, type Ref } from "./client.ts";
import { STATE, StateSet } from "./states.ts";
import { atspiRoleName } from "./roles.ts";
import { mapLimit } from "../../util/pool.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { TableRange } from "../../protocol/element.ts";
import { isManager, ROW_HOLDERS, skeletonByWalk, stripIfaces } from "./walk.ts";
import { Known } from "./known.ts";

export { skeletonByWalk };

/** One node of the skeleton. */
export interface SkeletonNode {
  /** Object reference. */
  ref: Ref;
  /** AtspiRole number. */
  role: number;
  /** Accessible name. */
  name: string;
  /** States. */
  states: StateSet;
  /** Interface names without the `org.a11y.atspi.` prefix. */
  ifaces: Set<string>;
  /** Children paths in order (same bus). */
  children: string[];
  /** The app's own child count (may exceed `children` before they are exposed). */
  childCount: number;
  /** For a table read by its visible range: its size and the range in `children`. */
  table?: TableRange;
  /**
   * `children` holds only the children in the walk's shown state (the app's `Collection`
   * answered which): the hidden ones were never asked, and `childCount` counts them too.
   */
  shownOnly?: true;
  /** Its name was read before the app knew it (Gecko's first answer): to be asked again. */
  nameUnsure?: true;
}

/** The skeleton of a whole app, by object path. */
export type Skeleton = Map<string, SkeletonNode>;

type CacheItem = [
  [string, string],
  [string, string],
  [string, string],
  number,
  number,
  string[],
  string,
  number,
  string,
  number[],
];

/**
 * Reads the app's skeleton through its cache; `undefined` when the toolkit has no cache
 * interface (the caller then walks).
 */
export async function skeletonFromCache(
  client: AtspiClient,
  bus: string,
  limits: CallLimits,
): Promise<Skeleton | undefined> {
  let items: CacheItem[];
  try {
    const [list] = await client.call(
      { bus, path: "/org/a11y/atspi/cache" },
      "Cache",
      "GetItems",
      limits,
    );
    items = list as CacheItem[];
  } catch (err) {
    if (err instanceof DriverError && err.code === "element_not_found") return undefined;
    throw err;
  }
  const nodes: Skeleton = new Map();
  const order = new Map<string, { index: number; path: string }[]>();
  for (const [[, path], , [, parent], index, childCount, ifaces, name, role, , states] of items) {
    nodes.set(path, {
      ref: { bus, path },
      role,
      name,
      states: new StateSet(states),
      ifaces: stripIfaces(ifaces),
      children: [],
      childCount,
    });
    // A node named as its own parent would make the tree a loop; it stays a root.
    if (parent && parent !== NULL_PATH && parent !== path) {
      let kids = order.get(parent);
      if (!kids) order.set(parent, kids = []);
      kids.push({ index, path });
    }
  }
  for (const [parent, kids] of order) {
    const node = nodes.get(parent);
    if (!node) continue;
    kids.sort((a, b) => a.index - b.index);
    node.children = kids.map((k) => k.path);
  }
  return nodes;
}

/**
 * Is a window whose object has `states` no longer on screen: neither showing, visible nor
 * minimized? Swing keeps a disposed dialog's object answering (the Java ATK wrapper), with
 * nothing showing: a fresh read of the JFileChooser its Cancel closed gave an empty window
 * rather than `window_not_found`.
 */
export function windowWithdrawn(states: StateSet): boolean {
  return !states.has(STATE.SHOWING) && !states.has(STATE.VISIBLE) &&
    !states.has(STATE.ICONIFIED);
}

/** The path of an app's own root object, which every cache answer may hold. */
const APP_ROOT = "/org/a11y/atspi/accessible/root";

/**
 * True when a cache answer holds no object of the app besides its root (Qt's empty
 * answer), or there was no cache: the app's windows are never found there.
 */
export function holdsNoObjects(skeleton: Skeleton | undefined): boolean {
  return skeleton === undefined || [...skeleton.keys()].every((path) => path === APP_ROOT);
}

/**
 * How old the warm-up's answer may be for a first read to start from it: the fill lands
 * 1 to 25 ms after it (first_read.ts), and the read follows at once.
 */
const WARM_MAX_MS = 100;

/** Most rounds of exposing children before the read settles for what it has. */
const MAX_ROUNDS = 64;

/**
 * Reads the skeleton of the window at `root` by the cheapest route the toolkit allows.
 * `known` is the engine's memory across reads: objects' fixed attributes, and the apps
 * whose cache proved no use for their windows (walked at once; one found so is added).
 */
export async function readSkeleton(
  client: AtspiClient,
  root: Ref,
  limits: CallLimits,
  max: number,
  known: Known = new Known(),
): Promise<Skeleton> {
  const walk = () => {
    known.walkOnly.add(root.bus);
    return skeletonByWalk(client, root, limits, { max, known });
  };
  if (!known.toolkits.has(root.bus)) await askToolkit(client, root.bus, limits, known);
  if (known.walkOnly.has(root.bus)) return await walk();
  // The warm-up's answer, taken once and soon: asked before the fill, it lacks only names;
  // later, the page may have changed.
  const kept = known.warm.get(root.bus);
  known.warm.delete(root.bus);
  const warm = kept && performance.now() - kept.at <= WARM_MAX_MS ? kept.skeleton : undefined;
  let skeleton = warm ?? await skeletonFromCache(client, root.bus, limits);
  if (!skeleton?.has(root.path)) {
    // Qt answers the cache call with an empty list: a cache without any window is no
    // cache, and the app is walked from then on. A cache that holds the app's other
    // objects has lost this window (a GTK 4 dialog just closed; the read says it is gone):
    // only this read walks. Marked walk-only by that read, a GTK 4 app's main window was
    // walked ever after, and a walk for SHOWING finds none of GTK 4's children (VISIBLE
    // only): the map was the window and one unknown node.
    if (holdsNoObjects(skeleton)) return await walk();
    return await skeletonByWalk(client, root, limits, { max, known });
  }
  remember(skeleton, known);
  const asked = new Map<string, Ref[]>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const missing = judgeCache(skeleton, root, known, max);
    if (missing.length === 0) break;
    const lists = await mapLimit(missing, 64, (ref) => client.children(ref, limits));
    missing.forEach((ref, i) => asked.set(ref.path, lists[i]!));
    const before = skeleton.size;
    skeleton = (await skeletonFromCache(client, root.bus, limits))!;
    remember(skeleton, known);
    // Some children are filed under other parents in the cache (GTK 3 popovers), and some
    // are never cached at all: when a round exposes nothing new, more rounds will not.
    if (skeleton.size <= before) break;
  }
  // LibreOffice's cache keeps entries of objects it has since replaced, filed under parents
  // that no longer exist: when even the window's own children are still missing after the
  // rounds, the cache is not this window's tree and the window is walked.
  const top = skeleton.get(root.path);
  if (!top || top.children.length < top.childCount) return await walk();
  await walkUncached(client, skeleton, root, limits, max, known);
  await walkMissing(client, skeleton, root, asked, limits, max, known);
  if (warm) markEmptyNames(skeleton, root, max);
  return skeleton;
}

/**
 * Marks each showing node below `root` that `skeleton` has without a name (at most `max`)
 * as to be asked again with the read's other questions: Gecko answered them empty before
 * the warm-up's fill (14 of a form page's 91), and far fewer are asked than a whole new
 * `GetItems` answers.
 */
function markEmptyNames(skeleton: Skeleton, root: Ref, max: number): void {
  const stack = [root.path];
  const seen = new Set<string>();
  while (stack.length > 0 && seen.size < max) {
    const node = skeleton.get(stack.pop()!);
    if (!node || seen.has(node.ref.path) || !node.states.has(STATE.SHOWING)) continue;
    seen.add(node.ref.path);
    if (node.name === "") node.nameUnsure = true;
    stack.push(...node.children);
  }
}

/** The toolkit names web browsers give (Firefox, Chromium), in lower case. */
const BROWSERS = ["gecko", "chromium", "chrome"];

/**
 * Asks app `bus` its toolkit, remembered in `known`. GTK 3's atk-bridge answers
 * `GetItems` with every object of the app it has seen (a text editor's 322, its closed
 * menus' items among them, for a window of 18 showing nodes): walking the window costs
 * less, so GTK 3 apps are walked. GTK 4 takes no focus request; a browser's focus is not
 * read back.
 */
export async function askToolkit(
  client: AtspiClient,
  bus: string,
  limits: CallLimits,
  known: Known,
): Promise<void> {
  const app = { bus, path: "/org/a11y/atspi/accessible/root" };
  const [name, version] = await Promise.all([
    client.prop(app, "Application", "ToolkitName", limits),
    client.prop(app, "Application", "Version", limits),
  ]).catch(() => ["", ""]);
  known.toolkits.set(bus, String(name));
  if (String(name) === "gtk" && String(version).startsWith("3.")) {
    known.walkOnly.add(bus);
    known.clicksFirst.add(bus);
  }
  if (String(name) === "GTK" && String(version).startsWith("4.")) {
    known.noFocusRequest.add(bus);
    known.windowRelative.add(bus);
  }
  if (BROWSERS.includes(String(name).toLowerCase())) known.focusUnseen.add(bus);
  if (String(name) === "Gecko") known.popupUnseen.add(bus);
}

/** Every cached object's role and interfaces, for walks of what the cache leaves out. */
function remember(skeleton: Skeleton, known: Known): void {
  for (const node of skeleton.values()) {
    if (!known.get(node.ref)) known.set(node.ref, { role: node.role, ifaces: node.ifaces });
  }
}

/**
 * Children the cache never lists are walked directly. Chromium leaves out of its cache
 * a page's document that the renderer attached after the browser filled the cache: the
 * whole page, while its container still counts it. So a visible node still short of its
 * child count after the cache rounds takes its child list from `GetChildren` (the
 * answer of the last round, `asked`, when there is one), and each child the cache lacks
 * is walked like a toolkit without a cache.
 */
async function walkMissing(
  client: AtspiClient,
  skeleton: Skeleton,
  root: Ref,
  asked: Map<string, Ref[]>,
  limits: CallLimits,
  max: number,
  known: Known,
): Promise<void> {
  const short = unexposed(skeleton, root, max);
  if (short.length === 0) return;
  const shown = visibilityState(skeleton, root.path);
  const lists = await mapLimit(
    short,
    64,
    async (ref) => asked.get(ref.path) ?? await client.children(ref, limits),
  );
  for (const [i, ref] of short.entries()) {
    const kids = lists[i]!.filter((k) => k.bus === ref.bus);
    const unknown = kids.filter((k) => !skeleton.has(k.path));
    // All known, only filed under another parent: the app's own answer says whose they
    // are. Chromium, after a page's modal <dialog> closed over a drop-down's use, still
    // filed the page's content under an object it no longer shows: the map lost the page.
    if (unknown.length === 0) {
      if (kids.length > 0) refile(skeleton, ref.path, kids.map((k) => k.path));
      continue;
    }
    skeleton.get(ref.path)!.children = kids.map((k) => k.path);
    for (const kid of unknown) {
      if (skeleton.size >= max) return;
      const sub = await skeletonByWalk(client, kid, limits, {
        max: max - skeleton.size,
        shown,
        known,
      });
      for (const [path, node] of sub) if (!skeleton.has(path)) skeleton.set(path, node);
    }
  }
}

/**
 * Is `node` (a child of `parent`) part of what the window shows? It says so (`shown`:
 * SHOWING, or GTK 4's VISIBLE), or it is a VISIBLE part Gecko never calls SHOWING: an ARIA
 * grid's row group (a `<tbody>` the page fills), under its table, empty at the first read
 * and filled later, or a wrapper whose children say SHOWING. The grid's rows were missing
 * from the map though each says SHOWING.
 */
export function shownIn(
  skeleton: Skeleton,
  node: SkeletonNode,
  shown: number,
  parent: SkeletonNode,
): boolean {
  if (node.states.has(shown)) return true;
  if (shown !== STATE.SHOWING || !node.states.has(STATE.VISIBLE)) return false;
  if (ROW_HOLDERS.has(atspiRoleName(parent.role))) return true;
  return node.children.some((c) => skeleton.get(c)?.states.has(STATE.SHOWING) === true);
}

/** Makes `kids` the children of `parent` alone, taking them from whoever else lists them. */
function refile(skeleton: Skeleton, parent: string, kids: readonly string[]): void {
  const moved = new Set(kids);
  for (const node of skeleton.values()) {
    if (node.ref.path === parent || !node.children.some((c) => moved.has(c))) continue;
    node.children = node.children.filter((c) => !moved.has(c));
  }
  skeleton.get(parent)!.children = [...kids];
}

/**
 * Nodes that manage their descendants (tables, big lists) keep their children out of the
 * cache and report a child count of -1 there: they are walked directly, which reads only
 * their visible range (managed.ts), and merged in.
 */
async function walkUncached(
  client: AtspiClient,
  skeleton: Skeleton,
  root: Ref,
  limits: CallLimits,
  max: number,
  known: Known,
): Promise<void> {
  const shown = visibilityState(skeleton, root.path);
  const reachable = new Set<string>();
  const stack = [root.path];
  const managers: SkeletonNode[] = [];
  while (stack.length > 0 && reachable.size < max) {
    const node = skeleton.get(stack.pop()!);
    if (!node || reachable.has(node.ref.path)) continue;
    reachable.add(node.ref.path);
    if (isManager(node)) managers.push(node);
    for (const c of node.children) {
      const child = skeleton.get(c);
      if (child && shownIn(skeleton, child, shown, node)) stack.push(c);
    }
  }
  // All at once: GTK 3 gives each menu of a menu bar a child count of -1, and walking
  // them one after another made a round trip of each.
  const room = Math.max(1, max - skeleton.size);
  const subs = await Promise.all(
    managers.map((m) =>
      skeletonByWalk(client, m.ref, limits, { max: room, shown, known, rootStates: m.states })
    ),
  );
  for (const sub of subs) for (const [path, node] of sub) skeleton.set(path, node);
}

/**
 * Visible nodes under `root` whose children the cache does not hold yet, each once. A cache
 * caught mid-change can list a node under its own descendant; every node is visited once.
 */
export function unexposed(skeleton: Skeleton, root: Ref, max: number): Ref[] {
  return survey(skeleton, root, max).missing;
}

/**
 * The showing part of the window at `root` in the skeleton (at most `max` nodes): how many
 * nodes it has, and those of them whose children do not add up (see {@link unexposed}).
 */
function survey(skeleton: Skeleton, root: Ref, max: number): { missing: Ref[]; shown: number } {
  const shown = visibilityState(skeleton, root.path);
  const missing: Ref[] = [];
  const stack = [root.path];
  const seen = new Set<string>();
  while (stack.length > 0 && seen.size < max) {
    const path = stack.pop()!;
    const node = seen.has(path) ? undefined : skeleton.get(path);
    if (!node) continue;
    seen.add(path);
    // A manager's children are never listed; walkUncached reads its visible range. More
    // children than the node counts is no better: Chromium's cache filed a drop-down's
    // options under the page after the page's own content had left it (the map lost the
    // page); the node's own answer is asked.
    const short = node.childCount >= 0 && !node.shownOnly &&
      (node.children.length < node.childCount || node.children.length > node.childCount);
    if (short && !isManager(node)) missing.push(node.ref);
    for (const c of node.children) {
      const child = seen.has(c) ? undefined : skeleton.get(c);
      if (child && shownIn(skeleton, child, shown, node)) stack.push(c);
    }
  }
  return { missing, shown: seen.size };
}

/**
 * The nodes of the window at `root` short of their children (see {@link unexposed}); on
 * the way, marks its app to be walked from now on when its cache `skeleton` proves too big
 * for that window ({@link cacheTooBig}: whoever asked for it has paid for this answer).
 */
export function judgeCache(skeleton: Skeleton, root: Ref, known: Known, max: number): Ref[] {
  const { missing, shown } = survey(skeleton, root, max);
  if (cacheTooBig(skeleton.size, shown)) known.walkOnly.add(root.bus);
  return missing;
}

/**
 * Whether a cache of `items` objects is too big to be read for a window whose showing part
 * is `shown` nodes: answering it costs the app more than a walk of that part. Firefox
 * answers every object of every page it holds, 6,072 for a long table of which 132 show:
 * 85 ms of its main thread on each read, against 40 ms for the walk of the whole read.
 */
export function cacheTooBig(items: number, shown: number): boolean {
  return items > CACHE_WASTE * Math.max(shown, CACHE_FLOOR);
}

/** How many times the window's showing part a cache may hold and still be read. */
const CACHE_WASTE = 10;
/** The showing part counts as at least this many nodes: a small app's cache is cheap. */
const CACHE_FLOOR = 100;

/**
 * The state that says "on screen" for this toolkit. GTK 3 and Chromium set SHOWING on
 * mapped widgets; GTK 4 sets only VISIBLE below the window, so when no descendant of
 * the window reports SHOWING, VISIBLE is the best the toolkit offers.
 */
export function visibilityState(skeleton: Skeleton, windowPath: string): number {
  for (const node of skeleton.values()) {
    if (node.ref.path !== windowPath && node.states.has(STATE.SHOWING)) {
      const role = atspiRoleName(node.role);
      if (role !== "frame" && role !== "window" && role !== "application") return STATE.SHOWING;
    }
  }
  return STATE.VISIBLE;
}
