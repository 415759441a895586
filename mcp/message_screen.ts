/**
 * Checks each line an MCP client sends before the SDK's `Server` sees it, and answers
 * what the SDK would drop or answer badly: the SDK's stdio transport silently skips a
 * line it cannot parse (so the client waits for ever), and its handlers turn a bad
 * `params` into -32603 carrying a raw zod dump. Here every request gets an answer the
 * JSON-RPC 2.0 spec names: -32700 for bad JSON, -32600 for a batch, a bad `id` or a
 * request before `initialize`, -32602 with one short sentence for bad params.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** JSON-RPC 2.0 error codes this module answers with. */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  InvalidParams: -32602,
} as const;

/**
 * A JSON-RPC error answer written by the transport itself. Its own type rather than the
 * SDK's: the spec's `id: null` (for an id that cannot be read) is not in the SDK's.
 */
export interface ErrorLine {
  /** Always "2.0". */
  jsonrpc: "2.0";
  /** The request's id, or null when it could not be read. */
  id: string | number | null;
  /** Code, sentence and optional detail. */
  error: { code: number; message: string; data?: Record<string, unknown> };
}

/** What to do with one line. */
export type Screened =
  /** Hand it to the SDK. */
  | { forward: JSONRPCMessage }
  /** Write this back; the SDK never sees the line. */
  | { answer: ErrorLine }
  /** A bad notification or response: nothing may be answered; log why. */
  | { drop: string };

/** The part of a zod schema the screen uses, so any zod version's schemas fit. */
export interface ParamsSchema {
  /** Zod's `safeParse`. */
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
  };
}

/** Methods a client may call before `initialize` (the MCP lifecycle allows pings). */
const BEFORE_INITIALIZE = new Set(["initialize", "ping"]);

/**
 * Screens the lines of one session. Stateful: requests other than `ping` are refused
 * until an `initialize` request has gone through.
 */
export class MessageScreen {
  readonly #schemas: ReadonlyMap<string, ParamsSchema>;
  #initialized = false;

  /** `schemas`: per method, the SDK request schema its handler parses with. */
  constructor(schemas: ReadonlyMap<string, ParamsSchema>) {
    this.#schemas = schemas;
  }

  /** Whether `initialize` has been let through. */
  get initialized(): boolean {
    return this.#initialized;
  }

  /** Decides about one line (without its newline). */
  screen(line: string): Screened {
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      return fail(null, RpcCode.ParseError, "Parse error: the message is not valid JSON");
    }
    if (Array.isArray(msg)) {
      // MCP 2025-06-18 removed JSON-RPC batching; answering each member would invite it.
      return fail(null, RpcCode.InvalidRequest, "Invalid request: batches are not supported");
    }
    if (typeof msg !== "object" || msg === null) {
      return fail(null, RpcCode.InvalidRequest, "Invalid request: expected a JSON-RPC object");
    }
    const m = msg as Record<string, unknown>;
    const hasId = "id" in m;
    if (hasId && !isRequestId(m.id)) {
      return fail(
        null,
        RpcCode.InvalidRequest,
        "Invalid request: id must be a string or an integer",
      );
    }
    const id = hasId ? m.id as string | number : null;
    const isCall = "method" in m;
    if (m.jsonrpc !== "2.0") {
      return hasId || isCall
        ? fail(id, RpcCode.InvalidRequest, 'Invalid request: jsonrpc must be "2.0"')
        : { drop: 'jsonrpc is not "2.0"' };
    }
    if (!isCall) {
      if ("result" in m || "error" in m) return this.#final(m, id, "response");
      return hasId
        ? fail(id, RpcCode.InvalidRequest, "Invalid request: method is required")
        : { drop: "neither a request, a notification nor a response" };
    }
    if (typeof m.method !== "string") {
      return fail(id, RpcCode.InvalidRequest, "Invalid request: method must be a string");
    }
    if (!hasId) return this.#final(m, id, "notification");
    if (!this.#initialized && !BEFORE_INITIALIZE.has(m.method)) {
      return fail(id, RpcCode.InvalidRequest, "Server not initialized: send initialize first");
    }
    const bad = this.#badParams(m.method, m);
    if (bad) return { answer: bad };
    const out = this.#final(m, id, "request");
    if ("forward" in out && m.method === "initialize") this.#initialized = true;
    return out;
  }

  /** The error for `method`'s params, if its schema refuses them. */
  #badParams(method: string, m: Record<string, unknown>): ErrorLine | undefined {
    const schema = this.#schemas.get(method);
    if (!schema) return undefined; // Unknown methods: the SDK answers -32601.
    const parsed = schema.safeParse({ method, params: m.params });
    if (parsed.success) return undefined;
    const issue = parsed.error?.issues[0];
    const path = (issue?.path ?? []).map(String);
    // The schema covers the whole request; the client wrote what sits under `params`.
    const field = path[0] === "params" && path.length > 1 ? path.slice(1).join(".") : "params";
    const missing = valueAt(m, path) === undefined;
    // Zod v4 starts most messages "Invalid input: ", which "is invalid" already says.
    const detail = (issue?.message ?? "bad value").replace(/^Invalid input: /, "");
    const problem = missing ? "is required" : `is invalid: ${detail}`;
    return errorLine(m.id as string | number, RpcCode.InvalidParams, {
      message: `Invalid params for ${method}: ${field} ${problem}`,
      data: { field },
    });
  }

  /** Lets through what the SDK's own message schema accepts. */
  #final(m: Record<string, unknown>, id: string | number | null, kind: string): Screened {
    const parsed = JSONRPCMessageSchema.safeParse(m);
    if (parsed.success) return { forward: parsed.data };
    if (kind !== "request") return { drop: `malformed ${kind}` };
    return fail(id, RpcCode.InvalidRequest, "Invalid request: unexpected or malformed members");
  }
}

/** The answer to a line longer than `limit` bytes (its id is never read). */
export function tooLongAnswer(bytes: number, limit: number): ErrorLine {
  return errorLine(null, RpcCode.InvalidRequest, {
    message: `Invalid request: message of ${bytes} bytes exceeds the ${limit}-byte limit`,
    data: { limit },
  });
}

/** MCP's id: a string or an integer, never null (a float is no id either). */
function isRequestId(id: unknown): id is string | number {
  return typeof id === "string" || Number.isSafeInteger(id);
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let at = root;
  for (const key of path) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function errorLine(
  id: string | number | null,
  code: number,
  error: { message: string; data?: Record<string, unknown> },
): ErrorLine {
  return { jsonrpc: "2.0", id, error: { code, ...error } };
}

function fail(id: string | number | null, code: number, message: string): Screened {
  return { answer: errorLine(id, code, { message }) };
}
