/**
 * Keeps the router's table in router.json: loaded at start, written atomically after
 * changes but at most once per interval. A file that is not a version-1 router table is
 * moved aside and the router starts clean, because a lost table only costs relearning.
 *
 * @module
 */
import { dirname } from "node:path";
import { writeFileAtomic } from "../util/atomic.ts";
import { log } from "../util/log.ts";
import type { EngineDescriptor } from "./decide.ts";
import { Router } from "./router.ts";

/** Default minimum time between two writes. */
export const SAVE_INTERVAL_MS = 1_000;

/** Runs `fn` once after `ms` and returns a function that cancels it (tests fire by hand). */
export type Schedule = (fn: () => void, ms: number) => () => void;

/** Store options. */
export interface RouterStoreOptions {
  /** Clock in ms since the epoch, shared with the router (what the file says). */
  now?: () => number;
  /**
   * Clock the writes are spaced by (default `performance.now`): never the wall clock,
   * which a backward step held up saves for as long as the step.
   */
  monotonic?: () => number;
  /** Minimum time between writes (default {@link SAVE_INTERVAL_MS}). */
  intervalMs?: number;
  /** Timer (default setTimeout). */
  schedule?: Schedule;
  /** Writes the file (default {@link writeFileAtomic}). */
  write?: (path: string, data: string) => Promise<void>;
}

const realSchedule: Schedule = (fn, ms) => {
  const id = setTimeout(fn, ms);
  return () => clearTimeout(id);
};

/** A router whose table lives in a file. */
export class RouterStore {
  /** The router; its changes schedule writes. */
  readonly router: Router;
  /** router.json. */
  readonly path: string;
  readonly #now: () => number;
  readonly #monotonic: () => number;
  readonly #intervalMs: number;
  readonly #schedule: Schedule;
  readonly #write: (path: string, data: string) => Promise<void>;
  #cancel: (() => void) | undefined;
  #dirty = false;
  #closed = false;
  #lastWrite: number;
  // Writes run one after another so an older table never lands after a newer one.
  #chain: Promise<void> = Promise.resolve();

  private constructor(path: string, router: Router, now: () => number, opts: RouterStoreOptions) {
    this.path = path;
    this.router = router;
    this.#now = now;
    this.#intervalMs = opts.intervalMs ?? SAVE_INTERVAL_MS;
    this.#schedule = opts.schedule ?? realSchedule;
    this.#write = opts.write ?? ((p, data) => writeFileAtomic(p, data));
    this.#monotonic = opts.monotonic ?? (() => performance.now());
    this.#lastWrite = this.#monotonic();
  }

  /** Loads `path` (creating its folder), or starts clean when it is missing or corrupt. */
  static async open(
    path: string,
    engines: readonly EngineDescriptor[],
    opts: RouterStoreOptions = {},
  ): Promise<RouterStore> {
    const now = opts.now ?? Date.now;
    await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 }).catch((err) =>
      log("warn", "Cannot create the router folder", { path, error: String(err) })
    );
    // The router exists before its store, so its change hook finds the store late.
    const late: { store?: RouterStore } = {};
    const routerOpts = {
      now,
      onChange: () => {
        if (late.store !== undefined) late.store.#changed();
      },
    };
    let router: Router | undefined;
    const text = await readIfPresent(path);
    if (text !== undefined) {
      try {
        router = Router.fromJSON(JSON.parse(text), engines, routerOpts);
      } catch (err) {
        await moveAside(path, now(), err);
      }
    }
    late.store = new RouterStore(path, router ?? new Router(engines, routerOpts), now, opts);
    return late.store;
  }

  /** Writes pending changes now. Rejects when the write fails (they stay pending). */
  flush(): Promise<void> {
    this.#cancel?.();
    this.#cancel = undefined;
    const write = this.#chain.then(() => this.#writeNow());
    this.#chain = write.catch(() => {});
    return write;
  }

  /** Flushes and stops the timer; later changes are not saved. Never rejects. */
  async close(): Promise<void> {
    if (this.#closed) return await this.#chain;
    this.#closed = true;
    await this.flush().catch((err) =>
      log("warn", "Cannot save the router table", { path: this.path, error: String(err) })
    );
  }

  /** Same as {@link RouterStore.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #changed(): void {
    this.#dirty = true;
    if (this.#closed || this.#cancel !== undefined) return;
    const delay = Math.max(0, this.#lastWrite + this.#intervalMs - this.#monotonic());
    this.#cancel = this.#schedule(() => {
      this.#cancel = undefined;
      const write = this.#chain.then(() => this.#writeNow());
      this.#chain = write.catch((err) =>
        // The table stays dirty; the next change schedules another try.
        log("warn", "Cannot save the router table", { path: this.path, error: String(err) })
      );
    }, delay);
  }

  async #writeNow(): Promise<void> {
    if (!this.#dirty) return;
    this.#dirty = false;
    const at = this.#now();
    this.#lastWrite = this.#monotonic();
    const file = { ...this.router.toJSON(), saved_at: new Date(at).toISOString() };
    try {
      await this.#write(this.path, JSON.stringify(file));
    } catch (err) {
      this.#dirty = true;
      throw err;
    }
    this.router.saved(at);
  }
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) {
      log("warn", "Cannot read the router table; starting clean", { path, error: String(err) });
    }
    return undefined;
  }
}

async function moveAside(path: string, at: number, why: unknown): Promise<void> {
  // Colons are not allowed in Windows file names.
  const aside = `${path}.corrupt-${new Date(at).toISOString().replace(/[:.]/g, "-")}`;
  try {
    await Deno.rename(path, aside);
    log("warn", "Router table is corrupt; moved aside, starting clean", {
      path,
      aside,
      // A schema error lists every issue; the first few hundred characters say enough.
      error: (why instanceof Error ? why.message : String(why)).slice(0, 500),
    });
  } catch (err) {
    log("warn", "Router table is corrupt and cannot be moved aside; starting clean", {
      path,
      error: String(err),
    });
  }
}
