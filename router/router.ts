/**
 * The router: picks an engine per op and app from what engines declare and what past calls
 * taught, and decides per read where elements come from. It knows no OS: engines are only
 * {@link EngineDescriptor}s, and its table round-trips through {@link RouterFile}.
 *
 * @module
 */
import { DriverError } from "../protocol/errors.ts";
import type { OpKind } from "../protocol/ops.ts";
import { choose, type Decision, type EngineDescriptor, EXPLORE_OPS } from "./decide.ts";
import { type EntryRow, RouterFile } from "./schema.ts";
import { chooseSource, type Source, type SourceDecision } from "./sources.ts";
import { addOutcome, emptyStats, type EngineStats, type Outcome } from "./stats.ts";

/** Op × app rows kept; the least recently used goes first, so the file stays small. */
export const MAX_ENTRIES = 1_000;

/** A routing question. */
export interface DecideRequest {
  /** Op name. */
  op: string;
  /** The op's kind from the op table. */
  kind: OpKind;
  /** App the op targets ("" for screen-wide ops). */
  app: string;
  /** Only these engines may be picked (the driver's rules narrowed them); all by default. */
  among?: readonly string[];
}

/** Router options. */
export interface RouterOptions {
  /** Clock in ms since the epoch (tests inject one). */
  now?: () => number;
  /** Called after every change worth saving (the store schedules a write). */
  onChange?: () => void;
}

/** Small report for `hello`. */
export interface RouterSummary {
  /** Calls and failures per engine, over every op × app. */
  engines: Record<string, { calls: number; failures: number }>;
  /** Op × app rows in the table. */
  entries: number;
  /** Apps currently marked degraded. */
  degraded: number;
  /** Source decisions since start (router.sources). */
  sources: Record<Source, number>;
  /** When the table was last saved (ISO 8601), or null. */
  saved_at: string | null;
}

interface Entry {
  op: string;
  app: string;
  at: number;
  reads: number;
  engines: Map<string, EngineStats>;
}

/** Picks engines per op × app and learns from outcomes. */
export class Router {
  readonly #engines: readonly EngineDescriptor[];
  readonly #now: () => number;
  readonly #onChange: (() => void) | undefined;
  // Map order is recency order: touching an entry moves it to the end.
  readonly #entries = new Map<string, Entry>();
  readonly #degraded = new Map<string, string>();
  readonly #sources: Record<Source, number> = { tree: 0, vision: 0, both: 0 };
  #savedAt: number | null = null;

  /** Makes a router over `engines`, preferred first. */
  constructor(engines: readonly EngineDescriptor[], opts: RouterOptions = {}) {
    this.#engines = engines.map((e) => ({ name: e.name, ops: [...e.ops] }));
    this.#now = opts.now ?? Date.now;
    this.#onChange = opts.onChange;
  }

  /** The engines that declare `op`, preferred first. */
  capable(op: string): string[] {
    return this.#engines.filter((e) => e.ops.includes(op)).map((e) => e.name);
  }

  /** Picks the engine for one call; `driver_unavailable` when no engine declares the op. */
  decide(req: DecideRequest): Decision {
    const among = req.among;
    const capable = this.capable(req.op).filter((e) => among === undefined || among.includes(e));
    if (capable.length === 0) {
      const known = this.#engines.map((e) => e.name).join(", ") || "none";
      throw new DriverError(
        "driver_unavailable",
        `No engine can "${req.op}": engines ${known} do not declare it`,
        { reason: "no_capable_engine", op: req.op },
      );
    }
    let readCount = 0;
    let entry: Entry | undefined;
    const explores = EXPLORE_OPS.has(req.op);
    if (capable.length > 1 && explores) {
      // Reads need a row for the exploration counter; other kinds only look. The counter
      // reaches the file with the next record(), so decide() schedules no write.
      entry = this.#entry(req.op, req.app);
      readCount = ++entry.reads;
    } else if (capable.length > 1) {
      entry = this.#entries.get(key(req.op, req.app));
    }
    const choice = {
      kind: req.kind,
      readCount,
      stats: (engine: string) => entry?.engines.get(engine),
      explores,
      now: this.#now(),
    };
    return choose(capable, choice);
  }

  /** Learns from one finished call of `req.op` on `req.app` that ran on `engine`. */
  record(req: { op: string; app: string }, engine: string, outcome: Outcome): void {
    const entry = this.#entry(req.op, req.app);
    let stats = entry.engines.get(engine);
    if (stats === undefined) entry.engines.set(engine, stats = emptyStats());
    const now = this.#now();
    addOutcome(stats, { ...outcome, at: now });
    entry.at = now;
    this.#onChange?.();
  }

  /** A copy of what was learned about `engine` for `op` × `app`, if anything. */
  stats(op: string, app: string, engine: string): EngineStats | undefined {
    const s = this.#entries.get(key(op, app))?.engines.get(engine);
    return s === undefined ? undefined : { ...s, recent: s.recent.map((o) => ({ ...o })) };
  }

  /** Marks `app`'s tree unusable (empty tree, an engine's degraded reason): reads use vision. */
  markDegraded(app: string, reason: string): void {
    this.#degraded.set(app, reason);
  }

  /** Clears `app`'s degraded mark. */
  clearDegraded(app: string): void {
    this.#degraded.delete(app);
  }

  /** Why `app` is degraded, or undefined. */
  degradedReason(app: string): string | undefined {
    return this.#degraded.get(app);
  }

  /** Decides and counts where one read of `app` gets its elements (window included). */
  sources(app: string, elementCount: number, blankShare?: number): SourceDecision {
    const decision = chooseSource(elementCount, this.#degraded.get(app), blankShare);
    this.#sources[decision.source]++;
    return decision;
  }

  /** Notes that the table was saved at `at` (ms since the epoch). */
  saved(at: number): void {
    this.#savedAt = at;
  }

  /** Small JSON for `hello`. */
  summary(): RouterSummary {
    const engines: RouterSummary["engines"] = {};
    for (const entry of this.#entries.values()) {
      for (const [name, s] of entry.engines) {
        const total = engines[name] ??= { calls: 0, failures: 0 };
        total.calls += s.calls;
        total.failures += s.failures;
      }
    }
    return {
      engines,
      entries: this.#entries.size,
      degraded: this.#degraded.size,
      sources: { ...this.#sources },
      saved_at: this.#savedAt === null ? null : new Date(this.#savedAt).toISOString(),
    };
  }

  /** The table as router.json holds it (degraded marks are live state and not saved). */
  toJSON(): RouterFile {
    const entries: EntryRow[] = [...this.#entries.values()].map((e) => ({
      op: e.op,
      app: e.app,
      at: e.at,
      reads: e.reads,
      engines: [...e.engines].map(([engine, s]) => ({
        engine,
        calls: s.calls,
        failures: s.failures,
        timed: s.timed,
        ewma_ms: s.ewmaMs,
        recent: s.recent.map((o) => ({ ...o })),
      })),
    }));
    const file: RouterFile = { version: 1, entries };
    if (this.#savedAt !== null) file.saved_at = new Date(this.#savedAt).toISOString();
    return file;
  }

  /** Rebuilds a router from router.json contents; throws when `data` fails the schema. */
  static fromJSON(
    data: unknown,
    engines: readonly EngineDescriptor[],
    opts: RouterOptions = {},
  ): Router {
    const parsed = RouterFile.safeParse(data);
    if (!parsed.success) {
      const issues = parsed.error.issues.slice(0, 3)
        .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
      throw new Error(`Not a version-1 router table: ${issues}`, { cause: parsed.error });
    }
    const file = parsed.data;
    const router = new Router(engines, opts);
    for (const row of file.entries) {
      const entry = router.#entry(row.op, row.app);
      entry.at = row.at;
      entry.reads = row.reads;
      for (const e of row.engines) {
        const recent = e.recent.map((o) => {
          const kept: Outcome = { ok: o.ok, ms: o.ms };
          if (o.code !== undefined) kept.code = o.code;
          if (o.at !== undefined) kept.at = o.at;
          return kept;
        });
        entry.engines.set(e.engine, {
          calls: e.calls,
          failures: e.failures,
          timed: e.timed,
          ewmaMs: e.ewma_ms,
          recent,
        });
      }
    }
    if (file.saved_at !== undefined) {
      const at = Date.parse(file.saved_at);
      if (Number.isFinite(at)) router.#savedAt = at;
    }
    return router;
  }

  /** The entry for op × app, created if new, moved to the recent end, oldest evicted. */
  #entry(op: string, app: string): Entry {
    const k = key(op, app);
    let entry = this.#entries.get(k);
    if (entry !== undefined) this.#entries.delete(k);
    else entry = { op, app, at: this.#now(), reads: 0, engines: new Map() };
    this.#entries.set(k, entry);
    while (this.#entries.size > MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    return entry;
  }
}

// JSON of the pair cannot collide the way "op:app" could for an app name with a colon.
function key(op: string, app: string): string {
  return JSON.stringify([op, app]);
}
