/**
 * `launch_app` and `close_app`, and what `list_apps` says of launchable apps. Starting
 * and ending apps are actions a deployment may forbid: config `app_control: false` turns
 * both off, and only the desktop entries config `launch` names may start (none by
 * default). A close asks each window politely; an app that asks about unsaved changes
 * keeps its window, and its dialog comes back in `opened`, never dismissed.
 *
 * @module
 */
import type { AppInfo, Engine } from "../../model/engine.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { HandlerResultOf, ParamsOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { DriverCore } from "../core.ts";

/** How long a polite close's effect (or its app's dialog) is watched before the answer. */
const CLOSE_WATCH_MS = 1_500;
/** Time kept to answer in before the request's deadline. */
const ANSWER_MS = 250;
/** Default wait for a closed app's process to exit before `force` ends it. */
const GRACE_MS = 3_000;

/** A desktop entry id as the allow-list compares it. */
const bare = (id: string) => id.replace(/\.desktop$/, "");

/** Refuses when config turns app control off. */
function controlled(core: DriverCore, what: string): void {
  if (!core.config.app_control) {
    throw new DriverError(
      "action_not_supported",
      `Cannot ${what}: app control is off in this driver's config (app_control: false)`,
      { reason: "app_control_off" },
    );
  }
}

/** Is desktop entry `id` on the config's `launch` allow-list? */
export function allowed(core: DriverCore, id: string): boolean {
  return core.config.launch.some((a) => bare(a) === bare(id));
}

/** The launchable entries for `list_apps`, each marked allowed or not. */
export async function launchable(
  core: DriverCore,
  engine: Engine,
  signal: AbortSignal,
): Promise<{ id: string; name: string; allowed: boolean }[]> {
  if (!engine.launchables) return [];
  return (await engine.launchables(signal)).map((e) => ({ ...e, allowed: allowed(core, e.id) }));
}

/** Serves `launch_app`: starts an allowed entry and answers once its first window is listed. */
export async function launchApp(
  core: DriverCore,
  p: ParamsOf<"launch_app">,
  ctx: CallContext,
): Promise<HandlerResultOf<"launch_app">> {
  controlled(core, `launch ${p.id}`);
  if (!allowed(core, p.id)) {
    throw new DriverError(
      "action_not_supported",
      `Cannot launch ${p.id}: it is not on this driver's allow-list. Add "${
        bare(p.id)
      }" to "launch" in config.jsonc to allow it`,
      { reason: "not_allowed", id: p.id },
    );
  }
  const engine = core.engine(ctx.engine);
  if (!engine.launch) {
    throw new DriverError("action_not_supported", `The ${engine.name} engine cannot start apps`);
  }
  const before = new Set((await engine.listApps(ctx.signal)).map((a) => a.app));
  const { pid, program } = await engine.launch(p.id, p.args ?? [], ctx.signal);
  // The started process, or a new app of the same program (a launcher script's child).
  const mine = (a: AppInfo) =>
    a.windows.length > 0 && (a.pid === pid || (!before.has(a.app) && a.name === program));
  while (true) {
    const apps = await engine.listApps(ctx.signal);
    const app = apps.find(mine);
    if (app) {
      core.listed(apps);
      const { app: id, pid: appPid, name, windows } = app;
      return {
        ok: true,
        id: p.id,
        pid,
        app: { app: id, pid: appPid, name, windows },
        engine: engine.name,
      };
    }
    // The request's deadline ends the wait (`timeout`), with the started pid said.
    if (ctx.deadline - performance.now() < ANSWER_MS) {
      throw new DriverError("timeout", `${p.id} started (pid ${pid}) but showed no window`, {
        ms: 0,
        pid,
      });
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Serves `close_app`: each window closed politely, then the process waited for or ended. */
export async function closeApp(
  core: DriverCore,
  p: ParamsOf<"close_app">,
  ctx: CallContext,
): Promise<HandlerResultOf<"close_app">> {
  controlled(core, `close ${p.app}`);
  const engine = core.engine(ctx.engine);
  if (!engine.windowOp || !engine.endProcess) {
    throw new DriverError("action_not_supported", `The ${engine.name} engine cannot close apps`);
  }
  const apps = await engine.listApps(ctx.signal);
  const app = apps.find((a) => typeof p.app === "number" ? a.pid === p.app : a.name === p.app);
  if (!app) {
    throw new DriverError("app_not_running", `No app "${p.app}" is running`, {
      apps: apps.map((a) => a.name),
    });
  }
  const had = new Set(app.windows.map((w) => w.window));
  const windows: { window: string; title: string; closed: boolean }[] = [];
  // Top-level windows first: a dialog of theirs goes with them.
  for (const w of [...app.windows].sort((a, b) => Number(!!a.parent) - Number(!!b.parent))) {
    const out = await engine.windowOp(w.window, { action: "close" }, ctx.signal).catch((err) => {
      if (err instanceof DriverError && err.code === "window_not_found") {
        return { reached: true };
      }
      throw err;
    });
    windows.push({ window: w.window, title: w.title, closed: out.reached });
  }
  // What the app opened instead of closing: a question about unsaved changes.
  let opened: AppInfo["windows"] = [];
  if (windows.some((w) => !w.closed)) {
    const until = performance.now() + CLOSE_WATCH_MS;
    while (opened.length === 0 && performance.now() < until) {
      const now = (await engine.listApps(ctx.signal)).find((a) => a.app === app.app);
      opened = now?.windows.filter((w) => !had.has(w.window)) ?? [];
      if (opened.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
  }
  // An app asking a question is not ended unless asked to be.
  const force = p.force === true;
  const graceMs = force || windows.every((w) => w.closed) ? p.grace_ms ?? GRACE_MS : 0;
  const ended = app.pid > 0
    ? await engine.endProcess(app.pid, { force, graceMs }, ctx.signal)
    : { gone: false, forced: false };
  return {
    ok: ended.gone && (ended.forced || windows.every((w) => w.closed)),
    windows,
    ...(opened.length > 0 ? { opened } : {}),
    exited: ended.gone,
    ...(ended.forced ? { forced: true } : {}),
    engine: engine.name,
  };
}
