/**
 * The driver's tunables. Every limit the design document names is a default here and can
 * be changed in `<data>/computer-use/driver/config.jsonc` (JSON with comments).
 *
 * @module
 */
import { parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import { z } from "zod";

const ms = z.number().int().min(0).max(3_600_000);

/** Config file schema; every field optional, defaults from the design document. */
export const DriverConfig = z.strictObject({
  /** Map versions kept per window. */
  versions: z.number().int().min(2).max(64).default(8),
  /** Windows watched at once (least recently used goes). */
  watch_limit: z.number().int().min(1).max(64).default(8),
  /** A window unused this long is unwatched. */
  unwatch_ms: ms.default(300_000),
  /** Staleness probe period per watched window. */
  probe_ms: ms.default(2_000),
  /** Structural notifications in one burst that trigger a full walk instead of a patch. */
  burst_limit: z.number().int().min(1).default(40),
  /** Containers around a patch's nodes whose child count is checked (0: no check). */
  child_checks: z.number().int().min(0).max(256).default(16),
  /** A degraded window's map is reused at most this long. */
  degraded_reuse_ms: ms.default(500),
  /** A reader that waited for another walk reuses it if it finished this recently. */
  walk_reuse_ms: ms.default(250),
  /** Per-call timeout for apps the driver watches. */
  app_timeout_ms: ms.default(1_000),
  /** Per-call timeout for apps it doesn't watch yet. */
  default_app_timeout_ms: ms.default(6_000),
  /** Background patching only for windows read this recently. */
  active_ms: ms.default(60_000),
  /** Background patches per window at most this often. */
  patch_interval_ms: ms.default(100),
  /** An action settled when notifications were quiet this long. */
  settle_quiet_ms: ms.default(80),
  /** An action that caused no notification is settled after this long. */
  no_reaction_ms: ms.default(600),
  /**
   * An action whose app never goes quiet (a terminal printing, a progress bar) is answered
   * after this long anyway, `settled: busy`, with the diff so far.
   */
  settle_max_ms: ms.default(2_000),
  /** Default element budget of one read. */
  max_elements: z.number().int().min(1).max(100_000).default(5_000),
  /** Default request deadline. */
  request_timeout_ms: ms.default(30_000),
  /**
   * A driver whose event loop has not turned this long is killed, to be restarted by its
   * service manager or parent (0: no watchdog).
   */
  watchdog_ms: ms.default(30_000),
  /** How long a request waits for a lock before `busy`. */
  lock_timeout_ms: ms.default(10_000),
});
/** Resolved config. */
export type DriverConfig = z.infer<typeof DriverConfig>;

/** Defaults only. */
export function defaultConfig(): DriverConfig {
  return DriverConfig.parse({});
}

/** Parses JSONC text; errors name the line and what is wrong. */
export function parseConfig(text: string, source = "config.jsonc"): DriverConfig {
  const errors: ParseError[] = [];
  const raw = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const e = errors[0]!;
    const line = text.slice(0, e.offset).split("\n").length;
    throw new Error(`Cannot read "${source}": ${printParseErrorCode(e.error)} on line ${line}`);
  }
  const parsed = DriverConfig.safeParse(raw ?? {});
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new Error(`Cannot use "${source}": ${i.path.join(".") || "(top)"}: ${i.message}`);
  }
  return parsed.data;
}
