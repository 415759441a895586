/**
 * The shape of router.json, version 1. Anything that fails it (another program's file, a
 * future version, a torn edit) is treated as corrupt and moved aside by the store.
 *
 * @module
 */
import { z } from "zod";
import { RECENT_LIMIT } from "./stats.ts";

const count = z.number().int().min(0);

/** One remembered outcome. */
const OutcomeRow = z.object({
  ok: z.boolean(),
  ms: z.number().min(0),
  code: z.string().optional(),
  /** When the call finished, ms since the epoch (older tables have none). */
  at: z.number().optional(),
});

/** One engine's record for one op × app. */
export const EngineRow = z.object({
  engine: z.string().min(1),
  calls: count,
  failures: count,
  timed: count,
  ewma_ms: z.number().min(0).nullable(),
  recent: z.array(OutcomeRow).max(RECENT_LIMIT),
});

/** One op × app. Arrays rather than maps keyed by app: app names are untrusted strings. */
export const EntryRow = z.object({
  op: z.string().min(1),
  app: z.string(),
  /** Last outcome recorded, ms since the epoch. */
  at: z.number(),
  /** Read decisions so far; drives the exploration counter across restarts. */
  reads: count,
  engines: z.array(EngineRow),
});

/**
 * router.json. Objects are not strict, so a version-1 file with extra members from a
 * newer driver still loads; an incompatible change bumps `version`.
 */
export const RouterFile = z.object({
  version: z.literal(1),
  /** When the file was written (ISO 8601). */
  saved_at: z.string().optional(),
  /** Least recently used first. */
  entries: z.array(EntryRow),
});

/** Parsed router.json. */
export type RouterFile = z.infer<typeof RouterFile>;
/** One op × app row of router.json. */
export type EntryRow = z.infer<typeof EntryRow>;
/** One engine row of router.json. */
export type EngineRow = z.infer<typeof EngineRow>;
