/**
 * `window`: focus, raise, move, resize, minimize, maximize, fullscreen, restore or close a
 * window. The engine that serves the window asks its window system (and window manager)
 * and answers the state it then reads back; a close that leaves the window up says which
 * windows of its app appeared meanwhile (an unsaved-changes dialog), never dismissing one.
 *
 * @module
 */
import type { AppInfo, Engine, WindowInfo } from "../../model/engine.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { HandlerResultOf, ParamsOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { DriverCore } from "../core.ts";
import { locateWindow } from "../engine_choice.ts";

/** How long a close that left its window up is watched for a window its app opens. */
const OPENED_MS = 1_500;

/** Serves one `window` op. */
export async function windowOp(
  core: DriverCore,
  p: ParamsOf<"window">,
  ctx: CallContext,
): Promise<HandlerResultOf<"window">> {
  // A window only X knows is vision's (the one rule that says so: engine_choice.ts).
  const located = await locateWindow(core, core.engine(ctx.engine), p, ctx.signal);
  const engine = core.engine(located.engine);
  if (!engine.windowOp) {
    throw new DriverError(
      "action_not_supported",
      `The ${engine.name} engine has no window operations yet: it cannot ${p.action} a window`,
      { engine: engine.name },
    );
  }
  const { window, timeout_ms: _, ...request } = p;
  const before = p.action === "close" ? appOf(await engine.listApps(ctx.signal), window) : null;
  const out = await engine.windowOp(window, request, ctx.signal);
  const opened = before && !out.reached ? await openedSince(core, engine, before, ctx) : [];
  const s = out.state;
  return {
    ok: out.reached,
    window,
    state: s,
    ...(out.reached ? {} : {
      found: s.exists
        ? `the window is ${s.state}${
          s.focused ? ", focused" : ""
        }, at ${s.bounds.x},${s.bounds.y} ` +
          `${s.bounds.w}×${s.bounds.h}, ${
            s.stacking === 0 ? "on top" : `${s.stacking} below the top`
          }`
        : "the window is gone",
    }),
    ...(opened.length > 0 ? { opened } : {}),
    engine: engine.name,
  };
}

/** The app that has window `window`, or null. */
function appOf(apps: readonly AppInfo[], window: string): AppInfo | null {
  return apps.find((a) => a.windows.some((w) => w.window === window)) ?? null;
}

/** Windows of `before`'s app that it did not have, watched for a short while. */
async function openedSince(
  core: DriverCore,
  engine: Engine,
  before: AppInfo,
  ctx: CallContext,
): Promise<WindowInfo[]> {
  const had = new Set(before.windows.map((w) => w.window));
  const until = performance.now() + OPENED_MS;
  while (true) {
    const apps = await engine.listApps(ctx.signal);
    core.listed(apps);
    const now = apps.find((a) => a.app === before.app);
    const fresh = now?.windows.filter((w) => !had.has(w.window)) ?? [];
    if (fresh.length > 0 || performance.now() >= until) return fresh;
    await new Promise((r) => setTimeout(r, 100));
  }
}
