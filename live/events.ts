/**
 * Counts the change notifications engines deliver, per app, and wakes whoever waits for
 * an app to go quiet. The engine's callback only lands here: it counts and returns
 * (design document: the notification path makes no accessibility call).
 *
 * @module
 */
import type { EngineEvent } from "../model/engine.ts";

interface AppActivity {
  count: number;
  /** Window-level notifications: a window came, went or was activated. */
  windows: number;
  last: number;
  waiters: Set<() => void>;
}

/** Per-app notification counters. */
export class EventHub {
  readonly #apps = new Map<string, AppActivity>();
  #total = 0;

  /** The engine's listener: count, wake waiters, return. */
  readonly onEvent = (e: EngineEvent): void => {
    const a = this.#activity(e.app);
    a.count++;
    this.#total++;
    if (e.kind === "window") a.windows++;
    a.last = performance.now();
    for (const wake of a.waiters) wake();
  };

  #activity(app: string): AppActivity {
    let a = this.#apps.get(app);
    if (!a) this.#apps.set(app, a = { count: 0, windows: 0, last: 0, waiters: new Set() });
    return a;
  }

  /** Notifications received from every app since start (`hello` reports it). */
  get total(): number {
    return this.#total;
  }

  /** Notifications seen from `app` so far. */
  count(app: string): number {
    return this.#apps.get(app)?.count ?? 0;
  }

  /** Window-level notifications seen from `app` so far. */
  windowCount(app: string): number {
    return this.#apps.get(app)?.windows ?? 0;
  }

  /**
   * Waits until `app` has posted nothing for `quietMs` after at least one notification
   * beyond `since` (`quiet`), or posted none for `noReactionMs` (`no_reaction`). An app
   * still posting after `maxMs` is `busy`; one that posted nothing by then (a `maxMs`
   * shorter than `noReactionMs`), or a signal that aborts, is `timeout`.
   */
  settle(
    app: string,
    since: number,
    quietMs: number,
    noReactionMs: number,
    maxMs: number,
    signal: AbortSignal,
  ): Promise<"quiet" | "no_reaction" | "busy" | "timeout"> {
    const a = this.#activity(app);
    const start = performance.now();
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const cap = setTimeout(() => done(a.count > since ? "busy" : "timeout"), maxMs);
      const done = (how: "quiet" | "no_reaction" | "busy" | "timeout") => {
        clearTimeout(timer);
        clearTimeout(cap);
        a.waiters.delete(arm);
        signal.removeEventListener("abort", onAbort);
        resolve(how);
      };
      const onAbort = () => done("timeout");
      const arm = () => {
        clearTimeout(timer);
        if (a.count > since) {
          const wait = Math.max(0, a.last + quietMs - performance.now());
          timer = setTimeout(
            () => (performance.now() - a.last >= quietMs ? done("quiet") : arm()),
            wait,
          );
        } else {
          const wait = Math.max(0, start + noReactionMs - performance.now());
          timer = setTimeout(() => (a.count > since ? arm() : done("no_reaction")), wait);
        }
      };
      if (signal.aborted) return done("timeout");
      signal.addEventListener("abort", onAbort, { once: true });
      a.waiters.add(arm);
      arm();
    });
  }

  /** Resolves on `app`'s next notification, or after `ms`, or when `signal` aborts. */
  next(app: string, ms: number, signal: AbortSignal): Promise<void> {
    const a = this.#activity(app);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        a.waiters.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      a.waiters.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  /** Forgets an app that quit. */
  drop(app: string): void {
    this.#apps.delete(app);
  }
}
