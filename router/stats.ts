/**
 * What the router learns about one engine for one op × app: calls, failures, a latency
 * average and the last few outcomes, plus the rules that read them. Pure data.
 *
 * @module
 */

/** Weight of the newest sample in the latency average; 0.3 follows a change within ~5 calls. */
export const EWMA_ALPHA = 0.3;
/** Outcomes kept per engine for the failure rule. */
export const RECENT_LIMIT = 10;
/** The failure rule needs at least this many recent calls. */
export const MIN_RECENT = 3;
/** Timed calls each engine needs before latencies are compared. */
export const MIN_SAMPLES = 5;
/** The other engine takes over when its latency is at most this share of the current one. */
export const LATENCY_RATIO = 0.5;
/**
 * A failing engine is tried again once its newest fault is this old: an outage passes (a
 * registry stalled for two seconds), and an engine never tried again would never recover.
 */
export const RETRY_AFTER_MS = 30_000;

/**
 * Failure codes that say the caller asked for something impossible, not that the engine
 * broke: they count as calls but never as failures, or a stale id would flip engines.
 */
export const CALLER_CODES: ReadonlySet<string> = new Set([
  "parse_error",
  "invalid_request",
  "invalid_params",
  "method_not_found",
  "unauthorized",
  "stale_version",
  "app_not_running",
  "window_not_found",
  "element_not_found",
  "busy",
  "obscured",
]);

/** One finished call as the router saw it. */
export interface Outcome {
  /** The call succeeded. */
  ok: boolean;
  /** Wall time of the call. */
  ms: number;
  /** Error code when it failed. */
  code?: string;
  /** When it finished, ms since the epoch; absent in tables from before it was kept. */
  at?: number;
}

/** One engine's record for one op × app. */
export interface EngineStats {
  /** Calls routed to it. */
  calls: number;
  /** Calls that failed through the engine's fault. */
  failures: number;
  /** Calls whose latency entered the average (successes only). */
  timed: number;
  /** Latency average in ms, or null before the first timed call. */
  ewmaMs: number | null;
  /** Newest last; at most {@link RECENT_LIMIT}. */
  recent: Outcome[];
}

/** A record with no calls. */
export function emptyStats(): EngineStats {
  return { calls: 0, failures: 0, timed: 0, ewmaMs: null, recent: [] };
}

/** Did this outcome fail through the engine's fault? */
export function isEngineFault(outcome: Outcome): boolean {
  return !outcome.ok && !(outcome.code !== undefined && CALLER_CODES.has(outcome.code));
}

/** Adds one outcome to `stats` in place. */
export function addOutcome(stats: EngineStats, outcome: Outcome): void {
  stats.calls++;
  if (isEngineFault(outcome)) stats.failures++;
  // A failed call's time measures the failure (often a timeout), not the engine's speed.
  const measured = Number.isFinite(outcome.ms) && outcome.ms >= 0;
  if (outcome.ok && measured) {
    stats.timed++;
    stats.ewmaMs = stats.ewmaMs === null
      ? outcome.ms
      : EWMA_ALPHA * outcome.ms + (1 - EWMA_ALPHA) * stats.ewmaMs;
  }
  // JSON has no NaN or Infinity: an unmeasured time is kept as 0 so the file stays valid.
  const kept: Outcome = { ok: outcome.ok, ms: measured ? outcome.ms : 0 };
  if (outcome.code !== undefined) kept.code = outcome.code;
  if (outcome.at !== undefined) kept.at = outcome.at;
  stats.recent.push(kept);
  if (stats.recent.length > RECENT_LIMIT) {
    stats.recent.splice(0, stats.recent.length - RECENT_LIMIT);
  }
}

/**
 * Failed at least half of {@link MIN_RECENT} or more recent calls, the newest fault less
 * than {@link RETRY_AFTER_MS} before `now` (a fault with no time is taken as long past).
 */
export function isFailing(stats: EngineStats | undefined, now: number): boolean {
  if (stats === undefined || stats.recent.length < MIN_RECENT) return false;
  const faults = stats.recent.filter(isEngineFault);
  if (faults.length * 2 < stats.recent.length) return false;
  return now - (faults.at(-1)!.at ?? -Infinity) < RETRY_AFTER_MS;
}

/** Has enough timed calls for its latency to be compared. */
export function hasSamples(stats: EngineStats | undefined): boolean {
  return stats !== undefined && stats.timed >= MIN_SAMPLES && stats.ewmaMs !== null;
}

/** Is `other` at most {@link LATENCY_RATIO} as slow as `current`, both with enough samples? */
export function isMuchFaster(
  other: EngineStats | undefined,
  current: EngineStats | undefined,
): boolean {
  const o = other?.ewmaMs;
  const c = current?.ewmaMs;
  if (!hasSamples(other) || !hasSamples(current) || o == null || c == null) return false;
  // The tolerance absorbs float noise of the average, so exactly half counts as half.
  return c > 0 && o <= c * LATENCY_RATIO * (1 + 1e-9);
}
