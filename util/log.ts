/**
 * Structured logging: one JSON object per line on stderr, because stdout carries the
 * protocol (forwarder, `call`) or the ready line (`serve`).
 *
 * @module
 */
import { writeAllSync } from "./write.ts";

/** Severity, lowest first. */
export type Level = "debug" | "info" | "warn" | "error";

const RANK: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

function threshold(): number {
  const env = Deno.env.get("ALLTERNIT_LOG_LEVEL") as Level | undefined;
  return RANK[env ?? "info"] ?? RANK.info;
}

let minRank = threshold();

/** Re-reads `ALLTERNIT_LOG_LEVEL` (tests change it). */
export function refreshLogLevel(): void {
  minRank = threshold();
}

/** Writes one log line to stderr when `level` passes the threshold. Never throws. */
export function log(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
  if (RANK[level] < minRank) return;
  try {
    const line = JSON.stringify({ ts: new Date().toISOString(), level, msg, ...fields }) + "\n";
    // A long line written in part would leave a broken JSON line for log readers.
    writeAllSync(Deno.stderr, line);
  } catch {
    // A closed stderr must never take the driver down.
  }
}
