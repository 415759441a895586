/**
 * `act` and `run_batch`: bring the map up to date, refuse stale plans, act, wait until
 * the app settles on real evidence (its notifications), and answer with the diff.
 *
 * @module
 */
import {
  checkElement,
  checkVersion,
  findByCrop,
  resolveAt,
  SECURE_ROLE,
  type WindowMap,
} from "../../map/mod.ts";
import type { ActionName, Element } from "../../protocol/element.ts";
import { DriverError, toRpcError } from "../../protocol/errors.ts";
import type { HandlerResultOf, ParamsOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { DriverCore } from "../core.ts";
import type { Watched } from "../../live/windows.ts";
import { boundsOf } from "../../live/motion.ts";
import { MovedWhileAiming, sameBounds, untilStill } from "./still.ts";
import { pixelInputOf, type PixelStep } from "./input.ts";
import { mapEngineOf } from "../engine_choice.ts";
import { newXWindows } from "../x_apps.ts";
import type { ActOutcome, Engine, InputGate, RawNode, WindowInfo } from "../../model/engine.ts";

type Settled = HandlerResultOf<"act">["settled"];

/** The actions that put text into an element: a secret's, when it is one. */
const TEXT_ACTIONS: ReadonlySet<ActionName> = new Set(["set_value", "type_text"]);

/** One step's outcome, before the batch's bookkeeping. */
interface StepOutcome {
  via: ActOutcome["via"];
  /** What the element holds when its text did not take (see ActOutcome). */
  found: string | undefined;
  /** The text was a secret: `found` is never answered. */
  secret?: true;
  /** The element already was as asked: nothing was done (see ActOutcome). */
  already: boolean;
  /** The element was found again by its crop: its id had changed. */
  byCrop: boolean;
  /** See ActOutcome. */
  verified?: false;
  /** See ActOutcome. */
  commit?: "enter";
  settled: Settled;
  settleMs: number;
  reacted: boolean;
  watched: Watched;
  /** The engine's node of the element acted on (none for a pixel step). */
  acted?: RawNode;
  /** The action closed its window (or ended its app): `watched` is the last map of it. */
  closed?: boolean;
}

/** Errors of a read after an action that mean the action closed what it acted in. */
const GONE = new Set(["window_not_found", "app_not_running"]);

/**
 * Checks the plan's version against a map brought up to date first: the whole window's
 * (`guard` absent or `window`), or only element `id`'s (`element`, map/stale.ts).
 */
async function syncAndCheck(
  core: DriverCore,
  window: string,
  version: number,
  signal: AbortSignal,
  element?: string,
) {
  const { watched } = await core.live.current(core.live.windows.get(window), signal);
  if (element === undefined) checkVersion(watched.map, version);
  else checkElement(watched.map, version, watched.map.resolveId(element));
  return watched;
}

/**
 * Time kept back from the request's deadline for reading the window after an action and
 * answering: once the action is sent, the caller must learn that it was, or it may retry
 * and act twice.
 */
const ANSWER_MS = 250;

/** What the request has left before it must answer, in ms (negative when late). */
function timeLeft(ctx: CallContext): number {
  return ctx.deadline - performance.now() - ANSWER_MS;
}

/**
 * Runs one element action or pixel step and waits for the app to settle: until it is
 * quiet, until `settle_max_ms` (`busy`), or until just before the request's deadline
 * (`timeout`), then reads the window for the diff with what time is left. A read that
 * cannot finish in time answers the map as it stands: the action happened either way.
 */
async function runStep(
  core: DriverCore,
  w: Watched,
  planned: number,
  step:
    | {
      id: string;
      action: ActionName;
      value?: string | undefined;
      extend?: boolean | undefined;
      commit?: "enter" | undefined;
      secret?: boolean | undefined;
    }
    | { input: PixelStep },
  ctx: CallContext,
): Promise<StepOutcome> {
  const { signal } = ctx;
  const engine = mapEngineOf(core, w, !("input" in step));
  const before = core.live.events.count(w.app);
  const plannedBounds = boundsOf(w.tree);
  // The element the engine is acting on, when the step names one.
  let aimed: { id: string; node: RawNode } | undefined;
  // Input that lands by screen position runs alone, whichever windows others own, and
  // only once the element it aims at is at rest.
  const gate: InputGate = async (input, aims = true) => {
    if (aims && aimed && core.live.moving(w)) {
      core.rested++;
      w = await untilStill(core, w, signal, () => timeLeft(ctx));
      // By its object first: ids of look-alike siblings carry their place, which moved.
      const now = w.map.handle(w.map.idOf(aimed.node.handle) ?? aimed.id);
      if (now && !sameBounds(now.bounds, aimed.node.bounds)) throw new MovedWhileAiming(now);
    }
    return await core.locks.pixels(w.window, ctx.op, input, signal);
  };
  let outcome: ActOutcome = { via: "pixel" };
  let secret = false;
  let byCrop = false;
  let actedOn: RawNode | undefined;
  if ("input" in step) {
    // Keys of a batch go to its window, never to whatever else holds the focus.
    await gate(() => engine.input(pixelInputOf(step.input), signal, w.window));
  } else {
    let node: RawNode;
    const id = w.map.resolveId(step.id);
    try {
      node = resolveAt(w.map, planned, id);
    } catch (err) {
      node = await replayByCrop(engine, w, planned, id, err, signal);
      byCrop = true;
    }
    // A password field's text is a secret whatever is done to it (a click with words
    // answered its bullets), and so is text the caller says is one; the map stops
    // answering the element's value before the first key goes in.
    secret = node.role === SECURE_ROLE || (TEXT_ACTIONS.has(step.action) && step.secret === true);
    if (secret) w.map.hideValue(id);
    const aimAt = (target: RawNode) => {
      aimed = { id, node: target };
      const options = {
        ...(step.extend === undefined ? {} : { extend: step.extend }),
        ...(step.commit === undefined ? {} : { commit: step.commit }),
        ...(secret ? { secret: true } : {}),
      };
      return engine.act(w.window, target, step.action, step.value, signal, gate, options);
    };
    // The element came to rest elsewhere before any input was sent: aim again, once.
    const actOn = (target: RawNode) =>
      aimAt(target).catch((err) => {
        if (!(err instanceof MovedWhileAiming)) throw err;
        node = err.node;
        return aimAt(node);
      });
    try {
      outcome = await actOn(node);
    } catch (err) {
      // The map lists the id but the app replaced the object behind it (Gecko and
      // Chromium recreate objects): read the window once, find the id again, act on it.
      if (!(err instanceof DriverError && err.code === "element_not_found")) throw err;
      const again = await findAgain(core, w, id, node.handle, ctx).catch((gone) => {
        // Its window went with it: the press closed its dialog (the toolkit destroyed the
        // button while answering). It was done, and the answer says so.
        if (gone instanceof DriverError && GONE.has(gone.code)) return "closed" as const;
        throw gone;
      });
      if (again === "closed") return closedBy(w, node, byCrop);
      if (again === undefined) throw err;
      ({ watched: w, node } = again);
      outcome = await actOn(node);
      core.rebound++;
    }
    if (outcome.already) {
      return {
        ...outcome,
        found: outcome.found,
        ...(secret ? { secret: true as const } : {}),
        already: true,
        byCrop,
        settled: "no_reaction",
        settleMs: 0,
        reacted: false,
        watched: w,
        acted: node,
      };
    }
    actedOn = node;
    core.live.touch(w, node.handle);
    for (const other of outcome.alsoChanged ?? []) core.live.touch(w, other);
  }
  const t0 = performance.now();
  const settled = await core.live.events.settle(
    w.app,
    before,
    core.config.settle_quiet_ms,
    core.config.no_reaction_ms,
    Math.max(0, Math.min(core.config.settle_max_ms, timeLeft(ctx))),
    signal,
  );
  const settleMs = elapsed(t0);
  const reacted = core.live.events.count(w.app) > before;
  const reading = AbortSignal.any([signal, AbortSignal.timeout(Math.max(1, timeLeft(ctx)))]);
  let closed = false;
  const refresh = (target: Watched) =>
    core.live.refresh(target, reading).catch((err) => {
      if (reading.aborted) return target; // out of time: the map as it stands, with what was done
      // The action closed its own window (a dialog's button) or ended its app: it was done,
      // and the answer says so rather than failing an action that took.
      if (!(err instanceof DriverError && GONE.has(err.code))) throw err;
      closed = true;
      return target;
    });
  let watched = await refresh(w);
  if (!closed) core.live.followMotion(watched, plannedBounds);
  // Rows an app added without a word (Qt) are counted for after that read, which motion
  // already judged: a list whose count changed is read again.
  const listsMoved = !closed && await core.live.checkLists(watched, reading).catch((err) => {
    if (!(reading.aborted || (err instanceof DriverError && GONE.has(err.code)))) throw err;
    return false;
  });
  if (listsMoved) watched = await refresh(watched);
  const acted = actedOn;
  return {
    ...outcome,
    found: outcome.found,
    ...(secret ? { secret: true as const } : {}),
    already: false,
    byCrop,
    closed,
    settled,
    settleMs,
    reacted,
    watched,
    ...(acted !== undefined ? { acted } : {}),
  };
}

/** The outcome of an action whose element went with its window, before any settle. */
function closedBy(w: Watched, node: RawNode, byCrop: boolean): StepOutcome {
  return {
    via: "action",
    found: undefined,
    already: false,
    byCrop,
    closed: true,
    settled: "quiet",
    settleMs: 0,
    reacted: true,
    watched: w,
    acted: node,
  };
}

/** Reads after a dead handle: the app may publish its replacement a moment later. */
const REBIND_READS = 3;

/**
 * The element `id` names once the app replaced the object behind it: the window read
 * again, and again once the app's notifications went quiet, since Gecko publishes a
 * replaced field's object a tick after the DOM change, and a read in between still lists
 * the dead one. `undefined` when no read within the deadline found a new object.
 */
async function findAgain(
  core: DriverCore,
  w: Watched,
  id: string,
  dead: RawNode["handle"],
  ctx: CallContext,
): Promise<{ watched: Watched; node: RawNode } | undefined> {
  for (let read = 0; read < REBIND_READS && timeLeft(ctx) > 0; read++) {
    if (read > 0) {
      const since = core.live.events.count(w.app);
      const quiet = core.config.settle_quiet_ms;
      const wait = Math.min(core.config.settle_max_ms, timeLeft(ctx));
      await core.live.events.settle(w.app, since, quiet, quiet, Math.max(0, wait), ctx.signal);
    }
    w = await core.live.refresh(w, ctx.signal, true);
    const again = w.map.handle(id);
    if (again !== undefined && again.handle !== dead) return { watched: w, node: again };
  }
  return undefined;
}

/**
 * An id the current map lacks, looked for by the crop its planned version kept (read with
 * `crops: true`): the same pixels under a new name. Without a kept crop or a match, the
 * original `element_not_found` stands.
 */
async function replayByCrop(
  engine: Engine,
  w: Watched,
  planned: number,
  id: string,
  err: unknown,
  signal: AbortSignal,
): Promise<RawNode> {
  const then = err instanceof DriverError && err.code === "element_not_found"
    ? w.map.cropAt(planned, id)
    : undefined;
  if (!then) throw err;
  const match = findByCrop(w.map, then, await engine.capture(w.window, signal));
  if (!match) throw err;
  return match.node;
}

/** Serves `act`. */
export async function act(
  core: DriverCore,
  p: ParamsOf<"act">,
  ctx: CallContext,
): Promise<HandlerResultOf<"act">> {
  const guarded = p.guard === "element" ? p.id : undefined;
  const w = await syncAndCheck(core, p.window, p.version, ctx.signal, guarded);
  const windows = core.live.events.windowCount(w.app);
  const screenBefore = await screenWindows(core, ctx);
  const out = await runStep(core, w, p.version, p, ctx);
  const element = p.action === "scroll_into_view" && out.acted !== undefined && !out.closed
    ? await elementNow(core, out, out.acted, ctx)
    : undefined;
  const map = out.watched.map;
  const delta = deltaSince(map, p.version);
  // An element already as asked was left alone: what the map took in meanwhile (a late
  // notification of an earlier action) is in the diff, but is no effect of this act.
  const changed = !out.already &&
    (map.version !== p.version || out.reacted || out.closed === true);
  // Only when the app announced a window-level change does the answer look for new windows.
  const opened = !out.closed && core.live.events.windowCount(w.app) > windows
    ? await openedBy(core, out.watched, ctx)
    : [];
  if (screenBefore && !out.closed) {
    // Only when a top-level window appeared are the app's windows listed from X: naming
    // and placing every window costs 20-30 ms, the fingerprint one round trip.
    const appeared = await windowsSince(core, screenBefore, ctx);
    if (appeared.size > 0) {
      opened.push(...await xOpened(core, out.watched, appeared, opened, ctx));
    }
  }
  return {
    ok: out.found === undefined,
    version: map.version,
    via: out.via,
    ...(out.found !== undefined && !out.secret ? { value: out.found } : {}),
    ...(out.secret ? { secret: true as const } : {}),
    ...(out.already ? { already: true as const } : {}),
    ...(out.verified === false ? { verified: false as const } : {}),
    ...(out.commit !== undefined ? { commit: out.commit } : {}),
    ...(out.closed ? { closed: true as const } : {}),
    ...(core.live.moving(out.watched) ? { moving: true as const } : {}),
    effect: changed ? "changed" : "none",
    settled: out.settled,
    settle_ms: out.settleMs,
    ...(out.byCrop ? { resolved_by: "crop" as const } : {}),
    ...delta,
    ...(opened.length > 0 ? { opened } : {}),
    ...(element !== undefined ? { element } : {}),
    engine: map.engine,
  };
}

/**
 * The element acted on (by its engine handle, else by its role and name when one element
 * of the map has them) as the window's map holds it now. One that
 * came into view without the app announcing it is not in the map yet: the window is read
 * again, with what time the request has left. `out.watched` follows that read.
 */
async function elementNow(
  core: DriverCore,
  out: StepOutcome,
  acted: Pick<RawNode, "handle" | "role" | "name">,
  ctx: CallContext,
): Promise<Element | undefined> {
  const handle = acted.handle;
  let id = out.watched.map.idOf(handle);
  if (id === undefined) {
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(1, timeLeft(ctx)))]);
    out.watched = await core.live.refresh(out.watched, signal, true).catch((err) => {
      if (!signal.aborted) throw err;
      return out.watched;
    });
    id = out.watched.map.idOf(handle);
  }
  if (id !== undefined) return out.watched.map.get(id);
  // Qt hands out a second object for a cell its read asked for again: the one element of
  // the same role and name is the one scrolled to; with several, none is guessed.
  const same = out.watched.map.elements.filter((e) =>
    e.role === acted.role && e.name === acted.name
  );
  return same.length === 1 ? same[0] : undefined;
}

/**
 * The windows of `w`'s app that its last listing did not have (a dialog, a menu the action
 * brought up), listed with what time the request has left; none when that runs out.
 */
async function openedBy(core: DriverCore, w: Watched, ctx: CallContext): Promise<WindowInfo[]> {
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(1, timeLeft(ctx)))]);
  try {
    const apps = await mapEngineOf(core, w, false).listApps(signal);
    const app = apps.find((a) => a.app === w.app);
    const opened = app ? core.appWindows.opened(app, w.window) : [];
    core.listed(apps);
    return opened;
  } catch (err) {
    if (!signal.aborted) throw err;
    return [];
  }
}

/** How long a tree app's new X dialog is waited for on the bus (see `act`). */
const TREE_LAG_MS = 500;

/**
 * Which of the X windows that `appeared` are `w`'s app's, that no notification announced
 * and `opened` lacks: a vision app's every new window, a tree app's new dialogs and windows.
 */
async function xOpened(
  core: DriverCore,
  w: Watched,
  appeared: ReadonlySet<string>,
  opened: readonly WindowInfo[],
  ctx: CallContext,
): Promise<WindowInfo[]> {
  // A vision app's every window; a tree app's dialogs and plain windows (Qt announces a
  // new tool window, shown without a window manager, by no window event), not its menus
  // and popups, which its tree holds.
  const vision = w.map.engine === "vision";
  const now = (await xWindowsOf(core, w.pid, ctx) ?? []).filter((x) =>
    appeared.has(x.window) &&
    (vision || x.role === undefined || x.role === "window" || x.role === "dialog")
  );
  // `now` holds only windows that appeared: none of them was there before.
  const before = new Set<string>();
  const tree = [...opened];
  let fresh = newXWindows(before, now, w.window, tree);
  // A tree app's dialog reaches X before its toolkit lists it on the bus (GTK 4 registers
  // a window some ms after mapping it: gtk4-demo's dialog was answered under its X id,
  // read by OCR, its fields no text fields). The tree is listed again until it has the
  // dialog, for at most TREE_LAG_MS; only a dialog on no bus (Chromium's file chooser)
  // waits that long, and is then answered under its X id.
  const deadline = performance.now() + Math.min(TREE_LAG_MS, timeLeft(ctx));
  const added: WindowInfo[] = [];
  while (!vision && fresh.length > 0 && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    for (const info of await openedBy(core, w, ctx)) {
      if (tree.some((t) => t.window === info.window)) continue;
      tree.push(info);
      added.push(info);
    }
    fresh = newXWindows(before, now, w.window, tree);
  }
  return [...added, ...fresh];
}

/** The screen's top-level window ids (vision's cheap fingerprint); undefined without X. */
async function screenWindows(core: DriverCore, ctx: CallContext): Promise<string[] | undefined> {
  const vision = core.available("vision");
  if (!vision?.screenWindows || timeLeft(ctx) <= 0) return undefined;
  try {
    return await vision.screenWindows(ctx.signal);
  } catch {
    return undefined; // no X: the tree's notifications alone say what opened
  }
}

/** The windows that appeared since fingerprint `before` (vision's window ids). */
async function windowsSince(
  core: DriverCore,
  before: readonly string[],
  ctx: CallContext,
): Promise<Set<string>> {
  const vision = core.available("vision");
  if (!vision?.windowsSince || timeLeft(ctx) <= 0) return new Set();
  try {
    return new Set(await vision.windowsSince(before, ctx.signal));
  } catch {
    return new Set(); // X went away meanwhile: the tree's notifications alone say
  }
}

/**
 * The X top-level windows of process `pid` as vision lists them (a few X round trips, no
 * OCR), to tell what an action brought up where no notification says (x_apps.ts
 * `newXWindows`); undefined without vision, a pid, or time.
 */
async function xWindowsOf(
  core: DriverCore,
  pid: number,
  ctx: CallContext,
): Promise<WindowInfo[] | undefined> {
  const vision = core.available("vision");
  if (!vision || pid <= 0 || timeLeft(ctx) <= 0) return undefined;
  try {
    const apps = await vision.listApps(ctx.signal);
    return apps.filter((a) => a.pid === pid).flatMap((a) => a.windows);
  } catch {
    return undefined; // no X: the tree's notifications alone say what opened
  }
}

/** Serves `run_batch`. */
export async function runBatch(
  core: DriverCore,
  p: ParamsOf<"run_batch">,
  ctx: CallContext,
): Promise<HandlerResultOf<"run_batch">> {
  let w = await syncAndCheck(core, p.window, p.version, ctx.signal);
  const stopOnError = p.stop_on_error ?? true;
  const results: HandlerResultOf<"run_batch">["results"] = [];
  let failed = false;
  for (const step of p.steps) {
    // Out of time: what was done is answered, the rest is not started.
    const late = timeLeft(ctx) <= 0;
    if ((failed && stopOnError) || late) {
      failed ||= late;
      results.push({ ok: false, skipped: true, ms: 0 });
      continue;
    }
    const t0 = performance.now();
    try {
      const out = await runStep(
        core,
        w,
        p.version,
        "op" in step ? { input: step } : step,
        ctx,
      );
      w = out.watched;
      if (out.found !== undefined) failed = true;
      results.push({
        ok: out.found === undefined,
        via: out.via,
        ...(out.found !== undefined
          ? {
            ...(out.secret ? { secret: true as const } : { value: out.found }),
            error: {
              code: "value_mismatch",
              message: out.secret
                ? "The element does not hold what was asked (a secret: its text is not answered)"
                : `The element holds ${JSON.stringify(out.found)}, not what was asked`,
            },
          }
          : {}),
        ...(out.already ? { already: true as const } : {}),
        ...(out.verified === false ? { verified: false as const } : {}),
        ...(out.commit !== undefined ? { commit: out.commit } : {}),
        ...(out.byCrop ? { resolved_by: "crop" as const } : {}),
        settled: out.settled,
        ms: elapsed(t0),
      });
    } catch (err) {
      // The deadline ends the whole batch; a step's own failure ends only that step.
      if (ctx.signal.aborted) throw err;
      if (err instanceof DriverError && err.code === "app_not_running") throw err;
      failed = true;
      const e = toRpcError(err);
      results.push({
        ok: false,
        error: { code: e.data.code, message: e.message },
        ms: elapsed(t0),
      });
    }
    // A trace frames each step that ran: the window after it is the next one's before.
    await ctx.afterStep?.(results.length - 1);
  }
  const map = w.map;
  const delta = deltaSince(map, p.version);
  return {
    ok: !failed,
    results,
    version: map.version,
    ...delta,
    engine: map.engine,
  };
}

/**
 * What changed from the version an action was planned on: the whole map as added when
 * that version aged out (it was current when the action was checked, so only a very
 * long batch can outrun the kept versions).
 */
function deltaSince(map: WindowMap, planned: number) {
  const d = map.since(planned);
  return d.reset
    ? { added: [...d.elements], changed: [], removed: [] }
    : { added: d.added, changed: d.changed, removed: d.removed };
}

function elapsed(t0: number): number {
  return Math.round((performance.now() - t0) * 10) / 10;
}
