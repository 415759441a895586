// deno-lint-ignore-file no-console -- run alone, it prints its figures.
/**
 * The walk of bench/pyatspi_walk.py through libatspi via `Deno.dlopen`
 * (bench/ffi/linux_atspi.ts): the same nodes, attributes and pruning, one blocking libatspi
 * call per attribute. bench/atspi_walk_bench.ts runs it in-process next to the engine's
 * pipelined D-Bus read and pyatspi.
 *
 * Alone, inside the desktop session: `deno run -A bench/atspi_ffi_walk.ts APP [RUNS]`
 * prints `{"nodes":N,"ms":T}` per walk like pyatspi_walk.py (the first, the warm-up, marked
 * `"warmup":true`).
 *
 * @module
 */
import { AtspiAccessible, type Extents } from "./ffi/linux_atspi.ts";
import { DriverError } from "../protocol/errors.ts";
import { atspiRoleName } from "../engines/atspi/roles.ts";
import { STATE, StateSet } from "../engines/atspi/states.ts";

/** The roles whose text the engine reads (engines/atspi/tree.ts); never password_text. */
const TEXT_ROLES = new Set([
  "text",
  "entry",
  "terminal",
  "document_text",
  "spin_button",
  "combo_box",
  "editbar",
  "autocomplete",
]);
const MAX_TEXT = 10_000;

/** One kept node, with what the engine reads for it. */
export interface WalkNode {
  /** AtspiRole number. */
  role: number;
  /** Accessible name. */
  name: string;
  /** State set. */
  states: StateSet;
  /** Screen extents, when the node has the Component interface. */
  bounds?: Extents;
  /** Text of text-like roles. */
  value?: string;
  /** Kept children. */
  children: WalkNode[];
}

/** What one walk produced. */
export interface WalkResult {
  /** The window node. */
  root: WalkNode;
  /** Nodes kept. */
  nodes: number;
  /** Wall time of the walk. */
  ms: number;
}

/** Which app: by name (as AT-SPI lists it) or by process id. */
export type AppMatch = { name: string } | { pid: number };

/** The first window of the matching app, or `undefined` when it is not on the bus. */
export function findWindow(match: AppMatch): AtspiAccessible | undefined {
  using desktop = AtspiAccessible.desktop();
  const count = desktop.childCount();
  for (let i = 0; i < count; i++) {
    using app = desktop.childAt(i);
    if (!app || app.childCount() === 0) continue;
    const hit = "pid" in match ? app.processId() === match.pid : app.name() === match.name;
    if (hit) return app.childAt(0) ?? undefined;
  }
  return undefined;
}

/** A child that vanished between the count and the read is skipped, like the engine does. */
function gone(err: unknown): boolean {
  return err instanceof DriverError && err.code === "element_not_found";
}

function readNode(node: AtspiAccessible, states: StateSet): WalkNode {
  const role = node.role();
  const out: WalkNode = { role, name: node.name(), states, children: [] };
  const bounds = node.extents();
  if (bounds) out.bounds = bounds;
  if (TEXT_ROLES.has(atspiRoleName(role))) {
    const text = node.text();
    if (text !== undefined) out.value = text.slice(0, MAX_TEXT);
  }
  return out;
}

/** A node's children with their states; the caller closes them. */
function openChildren(node: AtspiAccessible): Kid[] {
  const out: Kid[] = [];
  try {
    const count = node.childCount();
    for (let i = 0; i < count; i++) {
      let child: AtspiAccessible | null = null;
      try {
        child = node.childAt(i);
        if (child) out.push({ child, states: new StateSet(child.states()) });
      } catch (err) {
        child?.close();
        if (!gone(err)) throw err;
      }
    }
    return out;
  } catch (err) {
    for (const k of out) k.child.close();
    throw err;
  }
}

interface Kid {
  child: AtspiAccessible;
  states: StateSet;
}

/**
 * Walks `window` keeping what the engine keeps: below the window, children that are
 * SHOWING, or VISIBLE when none of the window's children is SHOWING (GTK 4; the same test
 * as "the SHOWING walk reaches no descendant").
 */
export function walkWindow(window: AtspiAccessible, max = 5_000): WalkResult {
  const started = performance.now();
  let nodes = 0;
  const rootStates = new StateSet(window.states());
  // The window's children (with states) are read before deciding what "shown" means,
  // and passed on so that the decision costs no second read.
  const top = openChildren(window);
  const shown = top.some((k) => k.states.has(STATE.SHOWING)) ? STATE.SHOWING : STATE.VISIBLE;
  const visit = (node: AtspiAccessible, states: StateSet, kids: Kid[] | undefined): WalkNode => {
    nodes++;
    let raw: WalkNode;
    try {
      raw = readNode(node, states);
      kids ??= openChildren(node);
    } catch (err) {
      for (const k of kids ?? []) k.child.close();
      throw err;
    }
    try {
      for (const { child, states: s } of kids) {
        if (nodes >= max) break;
        if (!s.has(shown)) continue;
        try {
          raw.children.push(visit(child, s, undefined));
        } catch (err) {
          // A vanished node costs its subtree, not the read.
          if (!gone(err)) throw err;
        }
      }
    } finally {
      for (const k of kids) k.child.close();
    }
    return raw;
  };
  const root = visit(window, rootStates, top);
  return { root, nodes, ms: performance.now() - started };
}

if (import.meta.main) {
  const [app, runsArg] = Deno.args;
  if (!app) {
    console.error("usage: deno run -A bench/atspi_ffi_walk.ts APP_NAME [RUNS]");
    Deno.exit(2);
  }
  const window = findWindow({ name: app });
  if (!window) {
    console.error(`atspi_ffi_walk: no window of app "${app}" on the bus`);
    Deno.exit(1);
  }
  const runs = Number(runsArg ?? 15);
  for (let run = 0; run <= runs; run++) {
    const { nodes, ms } = walkWindow(window);
    const line = {
      nodes,
      ms: Math.round(ms * 1000) / 1000,
      ...(run === 0 ? { warmup: true } : {}),
    };
    console.log(JSON.stringify(line));
  }
  window.close();
}
