/**
 * Tracing (docs/traces.md): the `serve --trace` recorder, each connection's
 * `trace_start` recorder, and the step that records one op into them. The driver asks
 * {@link Tracing.recorders} per op; with no trace open that is one check and no wrapper,
 * so recording off costs nothing.
 *
 * The route decision is made inside routing.ts and told only to the audit log, so the
 * driver's audit log is a `TappedAuditLog` (trace_audit.ts): while a trace records, each
 * entry is also handed to the op whose async context appended it.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { DriverError, toRpcError } from "../../protocol/errors.ts";
import type { HandlerResultOf, ParamsOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { ImageRef, OpLine } from "../../trace/format.ts";
import { SHOT_OPS } from "../../trace/policy.ts";
import { targetsOf } from "../../trace/targets.ts";
import { TraceRecorder } from "../../trace/recorder.ts";
import { redactParams } from "../../trace/redact.ts";
import { log } from "../../util/log.ts";
import type { DriverCore } from "../core.ts";
import type { TappedAuditLog } from "./trace_audit.ts";
import type { Capture } from "../../model/engine.ts";
import { encodeShot, pngBytes, type Shot, takeCapture } from "./trace_shots.ts";

/** What one op's recording gathers while it runs. */
interface Pending {
  op: string;
  route?: OpLine["route"];
}

/** Raw screenshots taken around an action, and why one is missing. */
interface Taken {
  before?: Capture;
  after?: Capture;
  /** A batch's window after each step, by step index. */
  steps?: (Capture | undefined)[];
  note?: string;
}

/** The same, encoded. */
interface Encoded {
  before?: Shot;
  after?: Shot;
  steps?: (Shot | undefined)[];
  note?: string;
}

/** Callers with no connection (in-process, MCP) share one session. */
const NO_SESSION = {};

/** Ops that are the tracing's own: never recorded. */
const OWN_OPS: ReadonlySet<string> = new Set(["trace_start", "trace_stop"]);

/** Every trace of one driver. */
export class Tracing {
  readonly #core: DriverCore;
  readonly #audit: TappedAuditLog;
  readonly #defaultDir: () => string;
  readonly #routes = new AsyncLocalStorage<Pending>();
  #global: TraceRecorder | undefined;
  readonly #sessions = new Map<object, TraceRecorder>();

  /** Records through `core`; `defaultDir` names a new folder for a `trace_start` without one. */
  constructor(core: DriverCore, audit: TappedAuditLog, defaultDir: () => string) {
    this.#core = core;
    this.#audit = audit;
    this.#defaultDir = defaultDir;
  }

  /** Starts the driver-wide trace (`serve --trace DIR`): every connection's ops. */
  async startGlobal(dir: string): Promise<void> {
    this.#global = await TraceRecorder.open(dir);
    this.#retap();
  }

  /** The recorders an op on `ctx` goes to; undefined (the common case) when none. */
  recorders(ctx: CallContext): TraceRecorder[] | undefined {
    if (this.#global === undefined && this.#sessions.size === 0) return undefined;
    if (OWN_OPS.has(ctx.op)) return undefined;
    const own = this.#sessions.size > 0 ? this.#sessions.get(ctx.session ?? NO_SESSION) : undefined;
    const all = [this.#global, own].filter((r): r is TraceRecorder => r !== undefined);
    return all.length > 0 ? all : undefined;
  }

  /**
   * Runs `go` (the routed op) and records it into `recs`. `go` is handed `around`, which
   * the routed op wraps its handler in: screenshots are taken inside the op's locks, so
   * no other action lands between a screenshot and the action it frames.
   */
  async record<T>(
    recs: TraceRecorder[],
    params: Record<string, unknown>,
    ctx: CallContext,
    go: (around: <R>(run: () => Promise<R>) => Promise<R>) => Promise<T>,
  ): Promise<T> {
    const op = ctx.op;
    const seqs = recs.map((r) => r.nextSeq());
    const start = new Date().toISOString();
    const t0 = performance.now();
    const pending: Pending = { op };
    const window = typeof params.window === "string" ? params.window : undefined;
    const targets = targetsOf(recs[0]!.elements, op, params, window);
    const shots: Taken = {};
    const around = <R>(run: () => Promise<R>): Promise<R> =>
      SHOT_OPS.has(op) && recs.some((r) => r.hasRoom)
        ? this.#framed(run, window, ctx, shots)
        : run();
    let answer: Record<string, unknown> | undefined;
    let error: OpLine["error"];
    try {
      const result = await this.#routes.run(pending, () => go(around));
      answer = result as Record<string, unknown>;
      return result;
    } catch (err) {
      const rpc = toRpcError(err);
      const { code, ...data } = rpc.data;
      error = { code, message: rpc.message, ...(Object.keys(data).length ? { data } : {}) };
      throw err;
    } finally {
      const ms = Math.round((performance.now() - t0) * 100) / 100;
      // Written after the answer is out of the handler's hands; never fails the op. The
      // recorder holds its end line until this op's line is in.
      const line: OpLine = {
        seq: 0,
        op,
        params,
        ...(answer !== undefined ? { answer } : {}),
        ...(error !== undefined ? { error } : {}),
        ...(pending.route ? { route: pending.route } : {}),
        ...engineOf(answer, pending.route),
        start,
        ms,
        ...(targets.length ? { targets } : {}),
      };
      // Encoded once for every recorder, after the op has answered.
      const encoded = this.#encode(shots, maxWidthOf(recs));
      recs.forEach((rec, i) => {
        const written = this.#write(rec, { ...line, seq: seqs[i]! }, window, encoded);
        rec.hold(written.catch((err) => {
          log("warn", "trace line not written", { error: String(err) });
        }));
      });
    }
  }

  /** Scales and encodes what `taken` holds; a failure becomes a note. */
  async #encode(taken: Taken, maxWidth: number): Promise<Encoded> {
    const out: Encoded = taken.note !== undefined ? { note: taken.note } : {};
    const encode = async (capture: Capture | undefined): Promise<Shot | undefined> => {
      if (!capture) return undefined;
      try {
        return await encodeShot(this.#core, capture, maxWidth);
      } catch (err) {
        out.note = `screenshot not encoded: ${err instanceof Error ? err.message : String(err)}`;
        return undefined;
      }
    };
    for (const side of ["before", "after"] as const) {
      const shot = await encode(taken[side]);
      if (shot) out[side] = shot;
    }
    if (taken.steps) {
      const steps: (Shot | undefined)[] = [];
      for (const capture of taken.steps) steps.push(await encode(capture));
      out.steps = steps;
    }
    return out;
  }

  /** Runs `run` between two screenshots of `window` (the screen for pixel input). */
  async #framed<R>(
    run: () => Promise<R>,
    window: string | undefined,
    ctx: CallContext,
    shots: Taken,
  ): Promise<R> {
    const shoot = async (): Promise<Capture | undefined> => {
      try {
        return await takeCapture(this.#core, ctx.engine, window, ctx.signal);
      } catch (err) {
        shots.note = `screenshot failed: ${err instanceof Error ? err.message : String(err)}`;
        return undefined;
      }
    };
    const before = await shoot();
    if (before) shots.before = before;
    // A batch is framed step by step: each step's after is the next one's before.
    if (ctx.op === "run_batch") {
      const steps: (Capture | undefined)[] = [];
      shots.steps = steps;
      ctx.afterStep = async (index) => {
        if (!ctx.signal.aborted) steps[index] = await shoot();
      };
    }
    try {
      return await run();
    } finally {
      delete ctx.afterStep;
      if (!ctx.signal.aborted) {
        const after = await shoot();
        if (after) shots.after = after;
      }
    }
  }

  async #write(
    rec: TraceRecorder,
    line: OpLine & { answer?: Record<string, unknown> },
    window: string | undefined,
    encoded: Promise<Encoded>,
  ): Promise<void> {
    const shots = await encoded;
    const { answer } = line;
    const answered = typeof answer?.window === "string" ? answer.window : window;
    if (answer && answered !== undefined) rec.elements.learn(answered, answer);
    line.params = redactParams(line.op, line.params, answer, rec.elements);
    const images: { before?: ImageRef; after?: ImageRef } = {};
    for (const side of ["before", "after"] as const) {
      const shot = shots[side];
      if (!shot) continue;
      const { png, ...meta } = shot;
      const ref = await rec.storeImage(png, meta, line.seq);
      if (ref) images[side] = ref;
      else line.images_note = "image cap reached: no more screenshots in this trace";
    }
    if (typeof answer?.png === "string") {
      // A screenshot or zoom answer: stored as an image file, not as base64 in the line.
      const meta = {
        width: Number(answer.width),
        height: Number(answer.height),
        scale: Number(answer.scale),
        origin: { x: 0, y: 0 },
      };
      const ref = await rec.storeImage(pngBytes(answer.png), meta, line.seq);
      line.answer = { ...answer, png: ref ? `images/${ref.sha}.png` : "[not stored: cap]" };
    }
    if (images.before || images.after) line.images = images;
    if (shots.steps) {
      const steps: (ImageRef | null)[] = [];
      for (const shot of shots.steps) {
        if (!shot) {
          steps.push(null);
          continue;
        }
        const { png, ...meta } = shot;
        const ref = await rec.storeImage(png, meta, line.seq);
        if (!ref) line.images_note = "image cap reached: no more screenshots in this trace";
        steps.push(ref ?? null);
      }
      if (steps.some((s) => s !== null)) line.step_images = steps;
    }
    if (shots.note && !line.images_note) line.images_note = shots.note;
    rec.write(line);
  }

  /** Serves `trace_start`: this connection's ops from now on, into a new trace. */
  async start(
    p: ParamsOf<"trace_start">,
    ctx: CallContext,
  ): Promise<HandlerResultOf<"trace_start">> {
    const key = ctx.session ?? NO_SESSION;
    const open = this.#sessions.get(key);
    if (open) {
      throw new DriverError("invalid_request", `A trace is already recording into "${open.path}"`, {
        path: open.path,
      });
    }
    const dir = p.dir ?? this.#defaultDir();
    let rec: TraceRecorder;
    try {
      rec = await TraceRecorder.open(dir);
    } catch (err) {
      throw new DriverError("invalid_params", `Cannot record a trace into "${dir}": ${msg(err)}`, {
        issues: [{ path: ["dir"], message: msg(err) }],
      });
    }
    this.#sessions.set(key, rec);
    this.#retap();
    return { path: rec.path, engine: "driver" };
  }

  /**
   * The connection `session` ended: a trace it started and never stopped is finished now
   * (its end line written), not left open until the driver stops.
   */
  async sessionEnded(session: object): Promise<void> {
    const rec = this.#sessions.get(session);
    if (!rec) return;
    this.#sessions.delete(session);
    this.#retap();
    await rec.close();
  }

  /** Serves `trace_stop`: finishes this connection's trace. */
  async stop(ctx: CallContext): Promise<HandlerResultOf<"trace_stop">> {
    const key = ctx.session ?? NO_SESSION;
    const rec = this.#sessions.get(key);
    if (!rec) throw new DriverError("invalid_request", "No trace is recording on this connection");
    this.#sessions.delete(key);
    this.#retap();
    const end = await rec.close();
    return {
      path: rec.path,
      ops: end.ops,
      images: end.images,
      image_bytes: end.image_bytes,
      images_capped: end.images_capped,
      engine: "driver",
    };
  }

  /** Finishes every trace (the driver is stopping). */
  async close(): Promise<void> {
    const all = [this.#global, ...this.#sessions.values()];
    this.#global = undefined;
    this.#sessions.clear();
    this.#retap();
    await Promise.allSettled(all.map((r) => r?.close()));
  }

  /** Listens to the audit log only while some trace records. */
  #retap(): void {
    const on = this.#global !== undefined || this.#sessions.size > 0;
    this.#audit.tap = on
      ? (e) => {
        const pending = this.#routes.getStore();
        if (pending === undefined || pending.op !== e.op) return;
        pending.route = {
          engine: e.engine,
          reason: e.reason,
          app: e.app,
          ...(e.window !== undefined ? { window: e.window } : {}),
        };
      }
      : undefined;
  }
}

/** The engine that served: the answer's, else the route's. */
function engineOf(
  answer: Record<string, unknown> | undefined,
  route: OpLine["route"],
): { engine?: string } {
  const e = typeof answer?.engine === "string" ? answer.engine : route?.engine;
  return e !== undefined ? { engine: e } : {};
}

/** The narrowest width any of `recs` keeps. */
function maxWidthOf(recs: readonly TraceRecorder[]): number {
  return Math.min(...recs.map((r) => r.policy.maxWidth));
}

function msg(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
