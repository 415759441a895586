/**
 * Which engine serves an op: the one place this is decided. Op handlers and the routing
 * wrapper ask here; nothing else picks an engine. The rules, in order:
 *
 * 1. Capability: an engine only gets an op it declares (the router's engine table).
 * 2. The map: a window the live map watches is served by the engine that read its map, for
 *    every kind of op. Only that engine holds its elements' handles and knows its window id.
 * 3. Learning: otherwise the router's pick over its statistics (failures, latency,
 *    exploration; `router/decide.ts`, a pure function); for ops answered from elements
 *    (`read_ui`, `find`, `verify`) only among engines that read trees.
 * 4. Where a read's elements come from: an app the picked engine does not see at all is
 *    looked for by vision (no accessibility tree); after a read, the degraded-source rules
 *    (`router/sources.ts`) call for the tree and its pixels merged (`<tree>+vision`) for an
 *    empty or thin tree, and for the tree alone again once it has grown.
 *
 * @module
 */
import { blankShare, pixelNodes } from "../engines/merged/merge.ts";
import type { Watched } from "../live/windows.ts";
import type { Engine } from "../model/engine.ts";
import { DriverError } from "../protocol/errors.ts";
import { type OpName, OPS } from "../protocol/ops.ts";
import type { DriverCore } from "./core.ts";
import { resolveTarget, type Target } from "./target.ts";

/** The engine of pixels and OCR, for windows with no usable tree. */
const VISION = "vision";

/**
 * Ops answered from a window's elements, and `list_apps`, whose window ids the reads must
 * find again; and the ops on windows and apps, which take those ids and names. Whether elements come from a tree, pixels or both is rule 4's call, never
 * the router's: an OCR engine that measured faster (or stood in during a short outage of
 * the accessibility bus) must not take a tree app's reads over, nor hand out window ids
 * that `read_ui` answers under other names.
 */
const TREE_FIRST: ReadonlySet<OpName> = new Set([
  "read_ui",
  "find",
  "verify",
  "list_apps",
  "window",
  "launch_app",
  "close_app",
  "clipboard_get",
  "clipboard_set",
]);

/** Engines whose elements come from pixels: vision, and a tree merged with vision. */
function fromPixels(engine: string): boolean {
  return engine === VISION || engine.endsWith(`+${VISION}`);
}

/** The decision for one call, before its handler runs. */
export interface Pick {
  /** Engine to serve the op; undefined for the driver's own ops and when none can. */
  engine: string | undefined;
  /** Which rule decided (the audit log's `reason`). */
  reason: string;
  /** App the op concerns, as the router keys its statistics. */
  app: string;
  /** Window the op names, if any. */
  window: string | undefined;
}

/** Decides the engine for `op` with `params` (rules 1 to 3). */
export function pickEngine(
  core: DriverCore,
  op: OpName,
  params: Record<string, unknown>,
): Pick {
  const window = typeof params.window === "string" ? params.window : undefined;
  const watched = window !== undefined ? core.live.windows.peek(window) : undefined;
  const app = watched?.appName ??
    (params.app !== undefined ? String(params.app) : window !== undefined ? "?" : "*");
  const kind = OPS[op].kind;
  if (kind === "meta" && op !== "list_apps") {
    return { engine: undefined, reason: "meta", app, window };
  }
  if (!core.routable) return { engine: undefined, reason: "unavailable", app, window };
  const capable = core.router.capable(op);
  const mapEngine = watched?.map.engine;
  if (mapEngine !== undefined && core.available(mapEngine) && capable.includes(mapEngine)) {
    return { engine: mapEngine, reason: "map", app, window };
  }
  const trees = capable.filter((e) => !fromPixels(e));
  const among = TREE_FIRST.has(op) && trees.length > 0 ? trees : undefined;
  const d = core.router.decide({ op, kind, app, ...(among ? { among } : {}) });
  return { engine: d.engine, reason: d.reason, app, window };
}

/**
 * The engine that read `w`'s map, for anything done to the window: the only one that holds
 * its elements' handles and knows where the window is (rule 2). For an element action
 * (`actsOnElements`), an engine that does not act on elements is not asked to (rule 1):
 * `action_not_supported`, naming it.
 */
export function mapEngineOf(core: DriverCore, w: Watched, actsOnElements: boolean): Engine {
  const engine = core.engine(w.map.engine);
  if (actsOnElements && !engine.ops.includes("act")) {
    throw new DriverError(
      "action_not_supported",
      `Cannot act on window "${w.window}": the "${engine.name}" engine read its map and ` +
        "does not act on elements",
      { actions: [], engine: engine.name },
    );
  }
  return engine;
}

/**
 * Finds the window a read means with the picked engine; an app that engine does not know
 * (no accessibility tree at all: xcalc, xterm, a canvas) is looked for by vision, whose
 * reads then come from pixels (rule 4).
 */
export async function locateWindow(
  core: DriverCore,
  engine: Engine,
  params: { app?: string | number | undefined; window?: string | undefined },
  signal: AbortSignal,
): Promise<{ target: Target; engine: string }> {
  try {
    return { target: await resolveTarget(engine, params, signal, core), engine: engine.name };
  } catch (first) {
    let err = first;
    // An app on the bus that did not answer the listing in time has a tree: read by its
    // pixels, its window would stay a vision window for its whole life. It is asked again.
    const until = performance.now() + BUSY_APP_WAIT_MS;
    while (notResponding(err) && performance.now() < until && !signal.aborted) {
      await new Promise((r) => setTimeout(r, 100));
      try {
        return { target: await resolveTarget(engine, params, signal, core), engine: engine.name };
      } catch (again) {
        err = again;
      }
    }
    const vision = core.available(VISION);
    const missing = err instanceof DriverError &&
      (err.code === "app_not_running" || err.code === "window_not_found");
    const named = params.app !== undefined || params.window !== undefined;
    if (!missing || !vision || vision === engine || !named) throw err;
    const target = await resolveTarget(vision, params, signal).catch(() => {
      throw err; // Vision does not see it either: the first engine's answer stands.
    });
    core.router.markDegraded(target.appName, "no_accessibility_tree");
    return { target, engine: vision.name };
  }
}

/**
 * How long a read waits for an app on the bus that lists no window because it did not
 * answer (ms): a GTK or Qt app building its first window under load answered within a
 * second or two in the churn soak; one that stays silent longer is read by its pixels.
 */
export const BUSY_APP_WAIT_MS = 3_000;

const notResponding = (err: unknown): boolean =>
  err instanceof DriverError && err.code === "window_not_found" &&
  err.data.not_responding === true;

/** The source fields of a read_ui answer. */
export interface SourceFields {
  /** Where the elements come from. */
  source: "tree" | "vision" | "both";
  /** Why, when not the tree alone. */
  source_reason?: string;
  /** The app's tree is not usable as it is. */
  degraded?: boolean;
  /** Why it is degraded. */
  degraded_reason?: string;
}

/**
 * Where a read window's elements come from, and the engine to read it with when that is
 * not the one that just read it (rule 4): pixels alone for apps with no tree at all; the
 * tree and pixels merged for an empty or thin tree of an app on the bus; the tree alone
 * again once it has grown.
 */
export function sourceOf(core: DriverCore, w: Watched): { source: SourceFields; reread?: string } {
  if (w.map.engine === VISION) {
    const reason = core.router.degradedReason(w.appName) ?? "no_accessibility_tree";
    return {
      source: { source: "vision", source_reason: reason, degraded: true, degraded_reason: reason },
    };
  }
  // An engine that calls its own tree unusable knows more than the element count does.
  if (w.treeDegraded) core.router.markDegraded(w.appName, w.treeDegraded);
  else core.router.clearDegraded(w.appName); // a usable tree again
  const [treeEngine] = w.map.engine.split("+") as [string];
  const fromTree = w.map.elements.length - pixelNodes(w.tree);
  const src = core.router.sources(w.appName, fromTree, blankShare(w.tree));
  if (src.source === "tree") {
    const reread = treeEngine !== w.map.engine ? treeEngine : undefined;
    return { source: { source: "tree" }, ...(reread ? { reread } : {}) };
  }
  const reason = src.source_reason!;
  const merged = `${treeEngine}+${VISION}`;
  if (!core.available(merged)) {
    return {
      source: {
        source: "tree",
        source_reason: `${reason}; merging in vision needs the ${merged} engine, unavailable here`,
        degraded: true,
        degraded_reason: reason,
      },
    };
  }
  return {
    source: { source: src.source, source_reason: reason, degraded: true, degraded_reason: reason },
    ...(w.map.engine !== merged ? { reread: merged } : {}),
  };
}
