/**
 * The messages between the UIA engine (main thread) and its COM worker. Every UIA call
 * runs on the worker, which owns the process's MTA membership and the automation object;
 * the engine sends one request per engine call and gets one reply, plus event messages.
 * Errors cross as plain data and become {@link DriverError}s again on the other side.
 *
 * @module
 */
import type { ActionName } from "../../protocol/element.ts";
import { DriverError, type ErrorCode } from "../../protocol/errors.ts";
import type { EngineEvent, NodeRequest, RawNode } from "../../model/engine.ts";
import type { ActReply, ActTarget } from "./actions.ts";

/** Each worker op's params and result. */
export interface WorkerCalls {
  /** Join the MTA, create CUIAutomation8, build cache requests. */
  init: { params: Record<string, never>; result: { ok: true } };
  /** The fallbacks taken for calls UIA answered with a stub result (Wine), so far. */
  fallbacks: { params: Record<string, never>; result: string[] };
  /** A full read of one window. */
  read: {
    params: {
      window: string;
      hwnd: string;
      maxElements: number;
      timeoutMs: number;
      budgetMs: number;
    };
    result: { root: RawNode; nodes: number; truncated: boolean };
  };
  /** A patch: named nodes, each as far as its scope says. */
  readNodes: {
    params: { window: string; requests: NodeRequest[]; maxElements: number; timeoutMs: number };
    result: [string, RawNode | null][];
  };
  /** Control-view child count of the window element. */
  childCount: { params: { window: string; hwnd: string; timeoutMs: number }; result: number };
  /** Handle of the focused element. */
  focused: { params: { timeoutMs: number }; result: string | null };
  /** One element action. */
  act: {
    params: {
      window: string;
      handle: string;
      target: ActTarget;
      action: ActionName;
      value?: string;
      timeoutMs: number;
    };
    result: ActReply;
  };
  /** Start delivering events (windows read so far and from now on are watched). */
  subscribe: { params: Record<string, never>; result: { ok: true } };
  /** Stop delivering events. */
  unsubscribe: { params: Record<string, never>; result: { ok: true } };
  /** Release everything and leave the apartment. */
  close: { params: Record<string, never>; result: { ok: true } };
}

/** A worker op name. */
export type WorkerOp = keyof WorkerCalls;

/** A request to the worker. */
export type WorkerRequest = {
  [K in WorkerOp]: { id: number; op: K; params: WorkerCalls[K]["params"] };
}[WorkerOp];

/** An error as it crosses the thread boundary. */
export interface WireError {
  /** DriverError code. */
  code: ErrorCode;
  /** Message. */
  message: string;
  /** DriverError data. */
  data: Record<string, unknown>;
  /** The cause's name and message (an HResultError's carry the HRESULT). */
  cause?: { name: string; message: string };
}

/** A message from the worker: a reply (with the worker's call count) or an event. */
export type WorkerMessage =
  | { id: number; ok: true; result: unknown; calls: number }
  | { id: number; ok: false; error: WireError; calls: number }
  | { event: EngineEvent };

/** Turns anything thrown on the worker into a {@link WireError}. */
export function toWire(err: unknown): WireError {
  const cause = err instanceof Error && err.cause instanceof Error
    ? { name: err.cause.name, message: err.cause.message }
    : undefined;
  if (err instanceof DriverError) {
    return { code: err.code, message: err.message, data: err.data, ...(cause ? { cause } : {}) };
  }
  const message = err instanceof Error ? err.message : String(err);
  return {
    code: "internal",
    message: `UIA worker failed: ${message}`,
    data: { reason: "uia_worker" },
    cause: { name: err instanceof Error ? err.name : "Error", message },
  };
}

/** The {@link DriverError} a {@link WireError} stands for, with its cause rebuilt. */
export function fromWire(w: WireError): DriverError {
  const options = w.cause
    ? { cause: Object.assign(new Error(w.cause.message), { name: w.cause.name }) }
    : undefined;
  return new DriverError(w.code, w.message, w.data, options);
}
