/**
 * The router: which engine runs an op for an app, learned per op × app from failures and
 * latency, kept in router.json, with every routed op written to audit.jsonl. It sees
 * engines only as names with the ops they declare, so it runs the same on every OS.
 *
 * ```ts
 * import { AuditLog, RouterStore } from "./router/mod.ts";
 *
 * const store = await RouterStore.open(paths.router, [
 *   { name: "arc", ops: ["read_ui", "act", "run_batch"] },
 *   { name: "cua", ops: ["read_ui", "act", "zoom"] },
 * ]);
 * const audit = new AuditLog(paths.audit);
 * const { engine, reason } = store.router.decide({ op: "read_ui", kind: "read", app: "Notes" });
 * store.router.record({ op: "read_ui", app: "Notes" }, engine, { ok: true, ms: 42 });
 * audit.append({ ts: new Date().toISOString(), op: "read_ui", app: "Notes", engine, reason,
 *   ms: 42, outcome: "ok" });
 * await Promise.all([store.close(), audit.close()]);
 * ```
 *
 * @module
 */
export {
  choose,
  type Decision,
  type EngineDescriptor,
  EXPLORE_EVERY,
  type Reason,
} from "./decide.ts";
export {
  type DecideRequest,
  MAX_ENTRIES,
  Router,
  type RouterOptions,
  type RouterSummary,
} from "./router.ts";
export { chooseSource, MIN_TREE_ELEMENTS, type Source, type SourceDecision } from "./sources.ts";
export {
  CALLER_CODES,
  type EngineStats,
  EWMA_ALPHA,
  LATENCY_RATIO,
  MIN_RECENT,
  MIN_SAMPLES,
  type Outcome,
  RECENT_LIMIT,
} from "./stats.ts";
export { RouterFile } from "./schema.ts";
export { RouterStore, type RouterStoreOptions, SAVE_INTERVAL_MS, type Schedule } from "./store.ts";
export { type AuditEntry, AuditLog, type AuditLogOptions, DEFAULT_MAX_BYTES } from "./audit.ts";
