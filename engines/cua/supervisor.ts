/**
 * Keeps one Cua Driver child running: starts it on first use, restarts it with backoff when
 * it dies or fails to start, and says what it is doing (for `availability` and `hello`).
 * Calls made while it restarts wait for the new child up to their own deadline.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import { log } from "../../util/log.ts";
import type { CuaCommand } from "./locate.ts";
import { CuaSession } from "./session.ts";

/** Waits between restarts: doubling from 250 ms, at most 8 s. */
export const BACKOFF_MS: readonly number[] = [250, 500, 1_000, 2_000, 4_000, 8_000];
/** A child that stayed up this long resets the backoff. */
export const STABLE_MS = 30_000;

/** What the supervisor is doing. */
export type CuaState = "idle" | "starting" | "ready" | "restarting" | "closed";

/** What `status()` reports. */
export interface CuaStatus {
  /** What the supervisor is doing (`not_found`: there is no Cua to supervise). */
  state: CuaState | "not_found";
  /** Children restarted after an exit. */
  restarts: number;
  /** The running child's pid. */
  pid?: number;
  /** Why it is not ready, when it is not. */
  reason?: string;
}

/** Supervisor settings. */
export interface SupervisorOptions {
  /** Spawn + initialize + list tools, per attempt. */
  startTimeoutMs: number;
  /** Waits between attempts (tests shorten them). */
  backoffMs?: readonly number[];
}

function describe(status: Deno.CommandStatus): string {
  return status.signal ? `killed by ${status.signal}` : `exited with code ${status.code}`;
}

/** One Cua Driver child, kept alive. */
export class CuaSupervisor {
  readonly #spec: CuaCommand;
  readonly #startTimeoutMs: number;
  readonly #backoff: readonly number[];
  readonly #stop = new AbortController();
  #state: CuaState = "idle";
  #reason: string | undefined;
  #current: CuaSession | undefined;
  #ready: Promise<CuaSession> | undefined;
  #restarts = 0;
  #failures = 0;
  #calls = 0;
  #onSession: ((session: CuaSession) => void) | undefined;
  readonly #firstTry = Promise.withResolvers<void>();

  /** Nothing is spawned until {@link start} or the first {@link session}. */
  constructor(spec: CuaCommand, options: SupervisorOptions) {
    this.#spec = spec;
    this.#startTimeoutMs = options.startTimeoutMs;
    this.#backoff = options.backoffMs ?? BACKOFF_MS;
  }

  /** What it is doing now. */
  get state(): CuaState {
    return this.#state;
  }

  /** Why it is not ready (last exit or start failure), when it is not. */
  get reason(): string | undefined {
    return this.#reason;
  }

  /** Children restarted after an exit. */
  get restarts(): number {
    return this.#restarts;
  }

  /** The running child's pid. */
  get pid(): number | undefined {
    return this.#current?.pid;
  }

  /** State, restarts, pid and reason in one object. */
  status(): CuaStatus {
    return {
      state: this.#state,
      restarts: this.#restarts,
      ...(this.pid !== undefined ? { pid: this.pid } : {}),
      ...(this.#reason !== undefined ? { reason: this.#reason } : {}),
    };
  }

  /** Tool calls over every child so far. */
  get calls(): number {
    return this.#calls + (this.#current?.calls ?? 0);
  }

  /** Called with every new session (the engine derives its ops from its tools). */
  onSession(fn: (session: CuaSession) => void): void {
    this.#onSession = fn;
  }

  /** Starts the first child (idempotent); resolves when one is ready. */
  start(): Promise<CuaSession> {
    if (this.#current) return Promise.resolve(this.#current);
    if (!this.#ready) {
      this.#state = "starting";
      this.#ready = this.#bringUp(0);
      this.#ready.catch(() => {}); // Waiters see the failure; nobody else must.
    }
    return this.#ready;
  }

  /** Starts the first child if needed; resolves once its first attempt succeeded or failed. */
  async firstAttempt(): Promise<void> {
    this.start();
    await this.#firstTry.promise;
  }

  /** The running session, waiting for a (re)start up to `timeoutMs` or the signal. */
  async session(signal: AbortSignal, timeoutMs: number): Promise<CuaSession> {
    if (this.#current) return this.#current;
    if (this.#state === "closed") throw this.#unavailable();
    const ready = this.start();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await Promise.race([
        ready,
        new Promise<never>((_, reject) => {
          const fail = () => reject(this.#unavailable());
          timer = setTimeout(fail, timeoutMs);
          onAbort = fail;
          signal.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener("abort", onAbort);
    }
  }

  #unavailable(): DriverError {
    const reason = this.#state === "closed" ? "cua_closed" : this.#reason ?? `cua_${this.#state}`;
    return new DriverError("driver_unavailable", `Cua Driver is not ready (${reason})`, {
      reason,
    });
  }

  async #bringUp(firstWait: number): Promise<CuaSession> {
    let wait = firstWait;
    while (true) {
      if (wait > 0) await this.#sleep(wait);
      if (this.#stop.signal.aborted) throw this.#unavailable();
      try {
        const session = await CuaSession.open(this.#spec, this.#startTimeoutMs);
        if (this.#stop.signal.aborted) {
          await session.close();
          throw this.#unavailable();
        }
        this.#adopt(session);
        this.#firstTry.resolve();
        return session;
      } catch (err) {
        this.#firstTry.resolve();
        if (this.#stop.signal.aborted) throw err;
        const why = err instanceof DriverError ? String(err.data.reason) : String(err);
        wait = this.#backoff[Math.min(this.#failures++, this.#backoff.length - 1)] ?? 1_000;
        this.#reason = `${why}; retrying in ${wait} ms`;
        log("warn", "Cua Driver did not start", { error: String(err), retry_ms: wait });
      }
    }
  }

  #adopt(session: CuaSession): void {
    this.#current = session;
    this.#state = "ready";
    this.#reason = undefined;
    const upAt = performance.now();
    this.#onSession?.(session);
    session.exited.then((status) => {
      if (this.#current !== session) return;
      this.#calls += session.calls;
      this.#current = undefined;
      if (this.#stop.signal.aborted) return;
      // Only a child that stayed up resets the backoff: one that dies at once backs off.
      if (performance.now() - upAt >= STABLE_MS) this.#failures = 0;
      const wait = this.#backoff[Math.min(this.#failures++, this.#backoff.length - 1)] ?? 1_000;
      this.#restarts++;
      this.#state = "restarting";
      this.#reason = `cua_restarting: ${describe(status)}; restart ${this.#restarts} in ${wait} ms`;
      log("warn", "Cua Driver exited; restarting", {
        status: describe(status),
        restart: this.#restarts,
        wait_ms: wait,
        stderr: session.stderrTail(),
      });
      this.#ready = this.#bringUp(wait);
      this.#ready.catch(() => {});
    }, () => {});
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#stop.signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#stop.signal.addEventListener("abort", done, { once: true });
    });
  }

  /** Stops the child and every restart; idempotent. */
  async close(): Promise<void> {
    if (this.#state === "closed") return;
    this.#state = "closed";
    this.#stop.abort();
    this.#firstTry.resolve();
    const current = this.#current;
    this.#current = undefined;
    await current?.close();
    // A start in flight closes its own child when it sees the stop.
    await this.#ready?.catch(() => {});
  }
}
