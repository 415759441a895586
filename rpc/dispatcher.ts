/**
 * The dispatcher: turns one JSON-RPC request into a validated call of an op handler and
 * the handler's outcome into one JSON-RPC response. It knows the op table and the error
 * hierarchy, nothing of transports, engines or the OS.
 *
 * @module
 */
import type { z } from "zod";
import { DriverError, toRpcError } from "../protocol/errors.ts";
import {
  type HandlerResultOf,
  isOpName,
  OP_NAMES,
  type OpName,
  OPS,
  type ParamsOf,
} from "../protocol/ops.ts";
import { log } from "../util/log.ts";

/** What a handler gets besides its params. */
export interface CallContext {
  /** The op being served. */
  op: OpName;
  /** Aborts when the request's deadline passes. */
  signal: AbortSignal;
  /** `performance.now()` value of the deadline. */
  deadline: number;
  /** The engine the router picked for this call (set by the driver's routing). */
  engine?: string;
  /**
   * Which connection the request came on, for state a connection owns (its trace): an
   * object connection.ts makes once per connection. Undefined for callers with no
   * connection (in-process calls, MCP).
   */
  session?: object;
  /**
   * Called by a batch after each step it ran, with the step's index, before the next
   * starts (a trace takes the window's screenshot there). Absent unless a trace records.
   */
  afterStep?: (index: number) => Promise<void>;
}

/** One handler per op. */
export type Handlers = {
  [N in OpName]: (params: ParamsOf<N>, ctx: CallContext) => Promise<HandlerResultOf<N>>;
};

/** Dispatcher settings. */
export interface DispatcherOptions {
  /** Deadline when a request gives no `timeout_ms`. */
  defaultTimeoutMs?: number;
  /** Validate results against the op table before sending (tests, debugging). */
  checkResults?: boolean;
  /**
   * Told when a connection ended, with its session ({@link CallContext.session}): what it
   * owned (a trace it started and never stopped) is closed then, not at driver stop.
   */
  onSessionEnd?: (session: object) => Promise<void> | void;
}

/** A JSON-RPC id as its JSON text, echoed as the request wrote it. */
type IdText = string;
const NULL_ID: IdText = "null";

/** Per-request authorisation, decided by the transport (TCP checks the token). */
export type Authorize = (request: Record<string, unknown>) => boolean;

const decoder = new TextDecoder();

/** Turns zod issues into protocol.md's `issues: [{path, message}]`. */
export function zodIssues(error: z.ZodError): { path: (string | number)[]; message: string }[] {
  return error.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
    message: i.message,
  }));
}

/** Validates and serves requests. */
export class Dispatcher {
  readonly #handlers: Handlers;
  readonly #defaultTimeoutMs: number;
  readonly #checkResults: boolean;
  readonly #onSessionEnd: DispatcherOptions["onSessionEnd"];
  #activity = 0;

  /** Serves `handlers` with the given options. */
  constructor(handlers: Handlers, options: DispatcherOptions = {}) {
    this.#handlers = handlers;
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
    this.#checkResults = options.checkResults ??
      Deno.env.get("ALLTERNIT_CHECK_RESULTS") === "1";
    this.#onSessionEnd = options.onSessionEnd;
  }

  /**
   * A count that moves with every line and call it is given: whether it is working, not
   * how much (a line's call counts again).
   */
  get activity(): number {
    return this.#activity;
  }

  /** The connection `session` ended: its requests are all answered. Never rejects. */
  async sessionEnded(session: object): Promise<void> {
    try {
      await this.#onSessionEnd?.(session);
    } catch (err) {
      log("warn", "closing what a connection owned failed", { error: String(err) });
    }
  }

  /**
   * Serves one line. Answers the response line (without `\n`), or `undefined` for a
   * notification, which is run but never answered.
   */
  async handleLine(
    line: Uint8Array | string,
    authorize?: Authorize,
    session?: object,
  ): Promise<string | undefined> {
    this.#activity++;
    let request: unknown;
    try {
      request = JSON.parse(typeof line === "string" ? line : decoder.decode(line));
    } catch (err) {
      return respondError(
        NULL_ID,
        new DriverError("parse_error", `Cannot parse request: ${msg(err)}`),
      );
    }
    if (typeof request !== "object" || request === null || Array.isArray(request)) {
      return respondError(
        NULL_ID,
        new DriverError("invalid_request", "Request must be a JSON object"),
      );
    }
    const req = request as Record<string, unknown>;
    const hasId = Object.hasOwn(req, "id");
    const id = req.id;
    if (hasId && !(typeof id === "string" || typeof id === "number" || id === null)) {
      return respondError(
        NULL_ID,
        new DriverError("invalid_request", '"id" must be a string or number'),
      );
    }
    const rid: IdText = typeof id === "number" && !Number.isSafeInteger(id)
      ? await rawId(typeof line === "string" ? line : decoder.decode(line))
      : JSON.stringify(id ?? null);
    if (req.jsonrpc !== "2.0" || typeof req.method !== "string") {
      const err = new DriverError(
        "invalid_request",
        'Request needs "jsonrpc": "2.0" and a string "method"',
      );
      return respondError(hasId ? rid : NULL_ID, err);
    }
    if (authorize && !authorize(req)) {
      const err = new DriverError("unauthorized", "Missing or wrong token");
      return hasId ? respondError(rid, err) : undefined;
    }
    try {
      const result = await this.call(req.method, req.params, session);
      return hasId ? `{"jsonrpc":"2.0","id":${rid},"result":${JSON.stringify(result)}}` : undefined;
    } catch (err) {
      if (!(err instanceof DriverError)) {
        log("error", "op failed with a bug", { op: req.method, error: String(err) });
      }
      return hasId ? respondError(rid, err) : undefined;
    }
  }

  /**
   * Validates `params`, runs the op under its deadline and returns the wire result;
   * `session` names the connection it came on ({@link CallContext.session}).
   */
  async call(
    method: string,
    params: unknown,
    session?: object,
  ): Promise<Record<string, unknown>> {
    this.#activity++;
    if (!isOpName(method)) {
      throw new DriverError("method_not_found", `Unknown op "${method}"`, { ops: OP_NAMES });
    }
    const spec: { params: z.ZodType; result: z.ZodType; waits?: boolean } = OPS[method];
    const parsed = spec.params.safeParse(params ?? {});
    if (!parsed.success) {
      throw new DriverError(
        "invalid_params",
        `Invalid params for "${method}": ${parsed.error.issues[0]?.message ?? "bad value"}`,
        { issues: zodIssues(parsed.error) },
      );
    }
    const given = (parsed.data as { timeout_ms?: number }).timeout_ms;
    const timeoutMs = spec.waits
      ? (given ?? 0) + this.#defaultTimeoutMs
      : given ?? this.#defaultTimeoutMs;
    const started = performance.now();
    // A timer cleared once the handler settles, not AbortSignal.timeout: that one holds
    // each request's signal until its deadline (30 s by default), which under a tight loop
    // of calls kept tens of megabytes of finished requests alive.
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException("The request's deadline passed", "TimeoutError")),
      timeoutMs,
    );
    const ctx: CallContext = {
      op: method,
      signal: deadline.signal,
      deadline: started + timeoutMs,
      ...(session !== undefined ? { session } : {}),
    };
    const handler = this.#handlers[method] as (
      p: unknown,
      c: CallContext,
    ) => Promise<Record<string, unknown>>;
    const running = handler(parsed.data, ctx).finally(() => clearTimeout(timer));
    const result = await withDeadline(running, ctx.signal, timeoutMs);
    const out = { ...result, ms: round(performance.now() - started) };
    if (this.#checkResults) {
      const checked = spec.result.safeParse(out);
      if (!checked.success) {
        throw new DriverError("internal", `Result of "${method}" breaks its schema`, {
          issues: zodIssues(checked.error),
        });
      }
    }
    return out;
  }
}

/** Races the handler against its deadline so a stuck engine still gets an answer out. */
function withDeadline<T>(work: Promise<T>, signal: AbortSignal, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DriverError("timeout", `No answer within ${ms} ms`, { ms }));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, (err) => {
      // An engine that saw the abort throws its own error; the caller wants `timeout`.
      if (signal.aborted) onAbort();
      else reject(err);
    }).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function respondError(id: IdText, err: unknown): string {
  return `{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify(toRpcError(err))}}`;
}

/**
 * The id's own text, for a number JSON.parse could not hold exactly (past 2^53): the
 * answer must carry the id the client sent, not its nearest double.
 */
async function rawId(line: string): Promise<IdText> {
  // Loaded on this rare path only: the hot path never pays for a second parser.
  const { findNodeAtLocation, parseTree } = await import("jsonc-parser");
  const node = findNodeAtLocation(parseTree(line)!, ["id"])!;
  return line.slice(node.offset, node.offset + node.length);
}

function msg(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** A typed view of {@link HandlerResultOf} for handler authors. */
export type { HandlerResultOf };
