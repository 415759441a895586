/**
 * One running `cua-driver mcp` child with the official MCP SDK client on its stdio: start,
 * initialize, list tools, and call tools with a deadline. MCP failures become DriverErrors
 * here, in one place: a timeout is `timeout`, a child gone is `driver_unavailable`, a tool
 * error or a malformed answer is `internal` (engine failures the router learns from).
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { DriverError } from "../../protocol/errors.ts";
import { NAME, VERSION } from "../../model/version.ts";
import { log } from "../../util/log.ts";
import type { CuaCommand } from "./locate.ts";
import { parseAnswer, ToolResult } from "./tools.ts";
import { ChildTransport } from "./transport.ts";

/** Limits of one tool call. */
export interface CallLimits {
  /** The caller's deadline. */
  signal: AbortSignal;
  /** This call's own timeout. */
  timeoutMs: number;
}

function textOf(result: ToolResult): string {
  return result.content
    .map((c) => (c.type === "text" && typeof c.text === "string" ? c.text : ""))
    .join(" ").trim().slice(0, 500);
}

/** A connected Cua Driver. */
export class CuaSession {
  readonly #client: Client;
  readonly #transport: ChildTransport;
  /** Tool names it listed. */
  readonly tools: ReadonlySet<string>;
  /** Tool calls made. */
  calls = 0;

  private constructor(client: Client, transport: ChildTransport, tools: ReadonlySet<string>) {
    this.#client = client;
    this.#transport = transport;
    this.tools = tools;
  }

  /** Spawns `spec`, initializes MCP and lists every tool, all within `timeoutMs`. */
  static async open(spec: CuaCommand, timeoutMs: number): Promise<CuaSession> {
    const transport = new ChildTransport(spec);
    const client = new Client({ name: NAME, version: VERSION }, { capabilities: {} });
    // Stray lines on Cua's stdout are worth a trace, not a failure of the call in flight.
    client.onerror = (err) => log("debug", "Cua Driver transport", { error: String(err) });
    const deadline = performance.now() + timeoutMs;
    const left = () => Math.max(1, deadline - performance.now());
    try {
      await client.connect(transport, { timeout: left() });
      const tools = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout: left() });
        for (const t of page.tools) tools.add(t.name);
        cursor = page.nextCursor;
      } while (cursor);
      return new CuaSession(client, transport, tools);
    } catch (err) {
      const tail = transport.stderrTail();
      await transport.close().catch(() => {});
      const why = err instanceof Error ? err.message : String(err);
      throw new DriverError(
        "driver_unavailable",
        `Cua Driver "${spec.command}" did not start: ${why}${tail ? `; stderr: ${tail}` : ""}`,
        { reason: `cua_start_failed: ${why}` },
        { cause: err },
      );
    }
  }

  /** The child's process id. */
  get pid(): number | undefined {
    return this.#transport.pid;
  }

  /** Resolves when the child has exited. */
  get exited(): Promise<Deno.CommandStatus> {
    return this.#transport.exited;
  }

  /** The child's last stderr lines. */
  stderrTail(): string {
    return this.#transport.stderrTail();
  }

  /** Calls `tool`; answers its result, or throws the matching DriverError. */
  async call(tool: string, args: Record<string, unknown>, limits: CallLimits): Promise<ToolResult> {
    if (limits.signal.aborted) throw deadlineError(tool, limits.signal.reason);
    this.calls++;
    let raw: unknown;
    try {
      raw = await this.#client.callTool({ name: tool, arguments: args }, undefined, {
        signal: limits.signal,
        timeout: limits.timeoutMs,
      });
    } catch (err) {
      if (limits.signal.aborted) throw deadlineError(tool, err);
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
        throw new DriverError(
          "timeout",
          `Cua Driver did not answer "${tool}" in ${limits.timeoutMs} ms`,
          { ms: limits.timeoutMs },
          { cause: err },
        );
      }
      if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) {
        throw new DriverError(
          "driver_unavailable",
          `Cua Driver exited during "${tool}"`,
          { reason: "cua_exited" },
          { cause: err },
        );
      }
      const why = err instanceof Error ? err.message : String(err);
      throw new DriverError("internal", `Cua Driver failed "${tool}": ${why}`, { tool }, {
        cause: err,
      });
    }
    const result = parseAnswer(tool, ToolResult, raw);
    if (result.isError) {
      const why = textOf(result) || "no reason given";
      const refusal = result.structuredContent?.refusal;
      throw new DriverError("internal", `Cua Driver refused "${tool}": ${why}`, {
        tool,
        reason: why,
        ...(refusal !== undefined ? { refusal } : {}),
      });
    }
    return result;
  }

  /** Closes MCP and stops the child; resolves once it has exited. */
  async close(): Promise<void> {
    await this.#client.close().catch(() => {});
    await this.#transport.close();
  }
}

function deadlineError(tool: string, cause: unknown): DriverError {
  return new DriverError("timeout", `The caller's deadline passed during Cua "${tool}"`, {
    ms: 0,
  }, { cause });
}
