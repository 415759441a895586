/**
 * The driver's tunables. Every limit the design document names is a default here and can
 * be changed in `<data>/computer-use/driver/config.jsonc` (JSON with comments).
 *
 * @module
 */
import {
  findNodeAtLocation,
  getNodeValue,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import { z } from "zod";

/**
 * A duration: at least `min` ms, because a smaller value the schema let through would
 * make the driver useless rather than fast (a 0 ms app timeout fails every read).
 */
const ms = (min: number) => z.number().int().min(min).max(3_600_000);
/** A duration where 0 turns the feature off. */
const msOrOff = (min: number) =>
  z.number().int().max(3_600_000).refine((v) => v === 0 || v >= min, {
    message: `must be 0 (off) or at least ${min}`,
  });

/** Config file schema; every field optional, defaults from the design document. */
export const DriverConfig = z.strictObject({
  /** Map versions kept per window. */
  versions: z.number().int().min(2).max(64).default(8),
  /** Windows watched at once (least recently used goes). */
  watch_limit: z.number().int().min(1).max(64).default(8),
  /** A window unused this long is unwatched. */
  unwatch_ms: ms(1_000).default(300_000),
  /** Staleness probe period per watched window. */
  probe_ms: ms(100).default(2_000),
  /** Structural notifications in one burst that trigger a full walk instead of a patch. */
  burst_limit: z.number().int().min(1).max(100_000).default(40),
  /** Containers around a patch's nodes whose child count is checked (0: no check). */
  child_checks: z.number().int().min(0).max(256).default(16),
  /** A degraded window's map is reused at most this long. */
  degraded_reuse_ms: ms(0).default(500),
  /** A reader that waited for another walk reuses it if it finished this recently. */
  walk_reuse_ms: ms(0).default(250),
  /** Per-call timeout for apps the driver watches. */
  app_timeout_ms: ms(50).default(1_000),
  /** Per-call timeout for apps it doesn't watch yet. */
  default_app_timeout_ms: ms(50).default(6_000),
  /** Background patching only for windows read this recently. */
  active_ms: ms(0).default(60_000),
  /** Background patches per window at most this often. */
  patch_interval_ms: ms(10).default(100),
  /** An action settled when notifications were quiet this long. */
  settle_quiet_ms: ms(10).default(80),
  /** An action that caused no notification is settled after this long. */
  no_reaction_ms: ms(10).default(600),
  /**
   * An action whose app never goes quiet (a terminal printing, a progress bar) is answered
   * after this long anyway, `settled: busy`, with the diff so far.
   */
  settle_max_ms: ms(100).default(2_000),
  /** Default element budget of one read. */
  max_elements: z.number().int().min(1).max(100_000).default(5_000),
  /** Default request deadline. */
  request_timeout_ms: ms(100).default(30_000),
  /**
   * A driver whose event loop has not turned this long is killed, to be restarted by its
   * service manager or parent (0: no watchdog).
   */
  watchdog_ms: msOrOff(1_000).default(30_000),
  /** How long a request waits for a lock before `busy`. */
  lock_timeout_ms: ms(100).default(10_000),
  /** Client connections served at once; one more is told `busy` and closed. */
  max_connections: z.number().int().min(1).max(10_000).default(256),
  /** A connection that has sent no authorised request is closed after this quiet time. */
  connection_idle_ms: ms(100).default(30_000),
  /** A connection that has is closed after this quiet time (0: kept while open). */
  session_idle_ms: msOrOff(1_000).default(3_600_000),
  /**
   * Starting and closing apps (`launch_app`, `close_app`): a deployment that forbids them
   * turns them off, and both ops then refuse whatever the allow-list says.
   */
  app_control: z.boolean().default(true),
  /**
   * Desktop entries `launch_app` may start, by desktop file id (`org.gnome.Calculator` or
   * `org.gnome.Calculator.desktop`). Empty by default: nothing starts until named here.
   */
  launch: z.array(z.string().min(1).max(256)).max(1_000).default([]),
});
/** Resolved config. */
export type DriverConfig = z.infer<typeof DriverConfig>;

/** Defaults only. */
export function defaultConfig(): DriverConfig {
  return DriverConfig.parse({});
}

/**
 * Parses JSONC text; errors name the line and what is wrong. A file with nothing but
 * comments and blanks (an emptied config) means the defaults.
 */
export function parseConfig(text: string, source = "config.jsonc"): DriverConfig {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true });
  if (tree === undefined && errors.every((e) => e.offset >= text.length)) return defaultConfig();
  if (errors.length > 0) {
    const e = errors[0]!;
    throw new Error(
      `Cannot read "${source}": ${printParseErrorCode(e.error)} on line ${lineAt(text, e.offset)}`,
    );
  }
  if (tree?.type !== "object") {
    throw new Error(`Cannot use "${source}": line 1: expected an object of settings`);
  }
  const parsed = DriverConfig.safeParse(getNodeValue(tree));
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    const path = i.path.filter((p) => typeof p !== "symbol") as (string | number)[];
    // An unknown key's issue points at the object; its own node is the line to name.
    const key = i.code === "unrecognized_keys" ? i.keys[0] : undefined;
    const node = findNodeAtLocation(tree, key === undefined ? path : [...path, key]);
    const where = `line ${lineAt(text, node?.parent?.offset ?? node?.offset ?? tree.offset)}`;
    const name = key ?? (path.join(".") || "(top)");
    throw new Error(`Cannot use "${source}": ${where}: ${name}: ${i.message}`);
  }
  return parsed.data;
}

/** The 1-based line holding `offset`. */
function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length;
}
