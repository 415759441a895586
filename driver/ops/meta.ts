/**
 * `hello` and `list_apps`.
 *
 * @module
 */
import { OP_NAMES } from "../../protocol/ops.ts";
import type { HandlerResultOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { DriverCore } from "../core.ts";
import { NAME, PROTOCOL, VERSION } from "../../model/version.ts";
import { log } from "../../util/log.ts";
import { withXApps } from "../x_apps.ts";
import { launchable } from "./apps.ts";

/** Serves `hello`: never fails, even with no engine available. */
export async function hello(core: DriverCore): Promise<HandlerResultOf<"hello">> {
  await core.recheck();
  const available = core.loaded.find((l) => l.availability.available);
  return {
    name: NAME,
    version: VERSION,
    protocol: PROTOCOL,
    os: Deno.build.os,
    pid: Deno.pid,
    engines: core.loaded.map((l) => ({
      name: l.entry.name,
      available: l.availability.available,
      ...(l.availability.reason ? { reason: l.availability.reason } : {}),
      ops: [...(l.engine?.ops ?? l.entry.ops)],
    })),
    ops: [...OP_NAMES],
    live: {
      watched: core.live.windows.size,
      limit: core.config.watch_limit,
      events: core.live.events.total,
      rebound: core.rebound,
      rested: core.rested,
      ...(available?.engine ? available.engine.stats() : {}),
    },
    router: { ...core.router.summary() },
    app_control: { enabled: core.config.app_control, launch: [...core.config.launch] },
    engine: available?.entry.name ?? "none",
  };
}

/**
 * Serves `list_apps`: the serving engine's apps, and, when a tree engine serves it, the
 * apps only X knows, as vision lists them (`x_apps.ts`): vision reads them, and an agent
 * names them by what it sees here. Without vision (or X) the tree's apps stand alone.
 */
export async function listApps(
  core: DriverCore,
  ctx: CallContext,
  launchables = false,
): Promise<HandlerResultOf<"list_apps">> {
  const engine = core.engine(ctx.engine);
  let apps = await engine.listApps(ctx.signal);
  const vision = core.available("vision");
  if (vision && vision !== engine) {
    try {
      apps = withXApps(apps, await vision.listApps(ctx.signal));
    } catch (err) {
      log("debug", "no X-only apps in the listing", { error: String(err) });
    }
  }
  core.listed(apps);
  return {
    apps,
    ...(launchables ? { launchable: await launchable(core, engine, ctx.signal) } : {}),
    engine: engine.name,
  };
}
