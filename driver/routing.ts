/**
 * Every op passes through here: engine_choice.ts picks the engine (capability, map origin,
 * learning), the locks give input one owner per window (screen-wide input excludes all),
 * and the outcome is recorded for the router and appended to the audit log.
 *
 * @module
 */
import { toRpcError } from "../protocol/errors.ts";
import { type OpName, OPS } from "../protocol/ops.ts";
import type { CallContext } from "../rpc/dispatcher.ts";
import type { DriverCore } from "./core.ts";
import { pickEngine } from "./engine_choice.ts";

/** Runs `run` for `op` under the router, the locks and the audit log. */
export async function routed<T>(
  core: DriverCore,
  op: OpName,
  params: Record<string, unknown>,
  ctx: CallContext,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const kind = OPS[op].kind;
  const pick = pickEngine(core, op, params);
  const { window, app, reason } = pick;
  const chosen = pick.engine;
  const engine = chosen ?? (reason === "meta" ? "driver" : "none");
  let outcome = "ok";
  // The engine that really served: a known window is read, and an element acted on, by
  // the engine that made its map, which may differ from the router's pick.
  let served = chosen;
  try {
    // Handlers find the router's choice on the call context.
    if (chosen) ctx.engine = chosen;
    const result = kind === "input"
      ? await core.locks.input(null, op, run, ctx.signal)
      : kind === "action"
      ? await core.locks.input(window ?? null, op, run, ctx.signal)
      : await run();
    const answered = (result as { engine?: unknown }).engine;
    if (chosen && typeof answered === "string" && core.available(answered)) served = answered;
    return result;
  } catch (err) {
    outcome = toRpcError(err).data.code;
    throw err;
  } finally {
    const ms = Math.round((performance.now() - started) * 100) / 100;
    if (served) {
      const ok = outcome === "ok";
      core.router.record({ op, app }, served, { ok, ms, ...(ok ? {} : { code: outcome }) });
    }
    core.audit.append({
      ts: new Date().toISOString(),
      op,
      app,
      ...(window !== undefined ? { window } : {}),
      engine: served ?? engine,
      reason: served !== undefined && served !== chosen ? "map" : reason,
      ms,
      outcome,
    });
  }
}
