/**
 * The router's rules as one pure function over its statistics: capability, then what was
 * learned (failures, latency, exploration), then the preferred engine. The map's origin
 * and degraded sources are the driver's to weigh (driver/engine_choice.ts).
 *
 * @module
 */
import type { OpKind } from "../protocol/ops.ts";
import { type EngineStats, hasSamples, isFailing, isMuchFaster } from "./stats.ts";

/** Why the router picked an engine (recorded in the audit log). */
export type Reason = "capability" | "failures" | "latency" | "explore" | "default";

/** An engine as the router sees it: a name and the ops it declares. */
export interface EngineDescriptor {
  /** Engine name (`atspi`, `uia`, `arc`, `cua`, ...). */
  name: string;
  /** Ops the engine can serve. */
  ops: readonly string[];
}

/** The router's answer. */
export interface Decision {
  /** Engine to run the op on. */
  engine: string;
  /** Which rule decided. */
  reason: Reason;
}

/**
 * A read explores on every EXPLORE_EVERY-th routed call of its op × app (a counter, not a
 * coin, so tests and audits can predict it): one call in 20.
 */
export const EXPLORE_EVERY = 20;

/**
 * The read-only ops that try another engine now and then (design: verify, screenshot,
 * zoom). `read_ui` and `find` do not: where a window's elements come from (its tree, its
 * pixels, both) is the degraded-source rules' call, never an experiment's.
 */
export const EXPLORE_OPS: ReadonlySet<string> = new Set(["verify", "screenshot", "zoom"]);

/** Everything {@link choose} needs besides the engines. */
export interface Choice {
  /** The op's kind: input and actions never explore. */
  kind: OpKind;
  /** The op is one of {@link EXPLORE_OPS}. */
  explores: boolean;
  /** Now, ms since the epoch: a failing engine is tried again after a cool-down. */
  now: number;
  /** 1-based count of read decisions for this op × app, this one included. */
  readCount: number;
  /** What was learned about an engine for this op × app. */
  stats: (engine: string) => EngineStats | undefined;
}

/** Picks one of `capable` (non-empty, preferred first) for an op. */
export function choose(capable: readonly string[], c: Choice): Decision {
  const preferred = capable[0];
  if (preferred === undefined) throw new RangeError("choose() needs a capable engine");
  if (capable.length === 1) return { engine: preferred, reason: "capability" };

  const healthy = capable.filter((e) => !isFailing(c.stats(e), c.now));
  let decision: Decision = { engine: preferred, reason: "default" };
  const fallback = healthy[0];
  if (isFailing(c.stats(preferred), c.now) && fallback !== undefined) {
    decision = { engine: fallback, reason: "failures" };
  }

  const fastest = healthy
    .filter((e) => e !== decision.engine && isMuchFaster(c.stats(e), c.stats(decision.engine)))
    .sort((a, b) => (c.stats(a)?.ewmaMs ?? 0) - (c.stats(b)?.ewmaMs ?? 0))[0];
  if (fastest !== undefined) decision = { engine: fastest, reason: "latency" };

  // Input and actions change the desktop, so only reads may be spent on an experiment.
  if (c.kind === "read" && c.explores && c.readCount % EXPLORE_EVERY === 0) {
    const novice = healthy
      .filter((e) => e !== decision.engine && !hasSamples(c.stats(e)))
      .sort((a, b) => (c.stats(a)?.timed ?? 0) - (c.stats(b)?.timed ?? 0))[0];
    if (novice !== undefined) return { engine: novice, reason: "explore" };
  }
  return decision;
}
