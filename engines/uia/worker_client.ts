/**
 * The engine's side of the COM worker: one request per call, matched by id, each bounded
 * by the caller's signal. A worker stuck in a call to a hung app cannot be interrupted
 * (a blocking FFI call runs to completion), so a caller whose deadline passes gets
 * `timeout` at once and the late reply is dropped; UIA's own connection and transaction
 * timeouts make the worker return soon after.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import type { EngineEvent } from "../../model/engine.ts";
import {
  fromWire,
  type WorkerCalls,
  type WorkerMessage,
  type WorkerOp,
  type WorkerRequest,
} from "./worker_protocol.ts";

/** What the client needs of a Worker (a MessagePort in tests). */
export interface WorkerPort {
  /** Sends a request. */
  postMessage(message: WorkerRequest): void;
  /** Receives replies and events. */
  onmessage: ((event: MessageEvent<WorkerMessage>) => void) | null;
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** Requests to the COM worker. */
export class WorkerClient {
  readonly #port: WorkerPort;
  readonly #pending = new Map<number, Pending>();
  #listener: ((e: EngineEvent) => void) | undefined;
  #next = 1;
  #calls = 0;
  #closed = false;

  /** Talks to the worker behind `port`. */
  constructor(port: WorkerPort) {
    this.#port = port;
    port.onmessage = (e) => this.#receive(e.data);
  }

  /** Cross-process UIA calls the worker has made (as of its last reply). */
  get calls(): number {
    return this.#calls;
  }

  /** Where events go (one listener: the engine's subscriber). */
  set onEvent(listener: ((e: EngineEvent) => void) | undefined) {
    this.#listener = listener;
  }

  #receive(m: WorkerMessage): void {
    if ("event" in m) {
      this.#listener?.(m.event);
      return;
    }
    this.#calls = Math.max(this.#calls, m.calls);
    const p = this.#pending.get(m.id);
    if (!p) return; // its caller gave up (deadline); the late answer means nothing now
    this.#pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(fromWire(m.error));
  }

  /** Sends `op` and resolves with its result; rejects `timeout` when `signal` aborts first. */
  call<K extends WorkerOp>(
    op: K,
    params: WorkerCalls[K]["params"],
    signal: AbortSignal,
  ): Promise<WorkerCalls[K]["result"]> {
    if (this.#closed) {
      return Promise.reject(
        new DriverError("driver_unavailable", "The UIA worker is closed", { reason: "closed" }),
      );
    }
    const started = performance.now();
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#pending.delete(id);
        const ms = Math.round(performance.now() - started);
        reject(
          new DriverError(
            "timeout",
            `The app did not answer in time: UIA "${op}" still running after ${ms} ms`,
            { ms },
            { cause: signal.reason },
          ),
        );
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, {
        resolve: (v) => {
          signal.removeEventListener("abort", onAbort);
          resolve(v as WorkerCalls[K]["result"]);
        },
        reject: (e) => {
          signal.removeEventListener("abort", onAbort);
          reject(e);
        },
      });
      this.#port.postMessage({ id, op, params } as WorkerRequest);
    });
  }

  /** Fails every pending call with `driver_unavailable` and refuses new ones. */
  close(reason = "closed"): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const p of this.#pending.values()) {
      p.reject(new DriverError("driver_unavailable", "The UIA worker stopped", { reason }));
    }
    this.#pending.clear();
    this.#port.onmessage = null;
  }
}
