/**
 * THE CUA DRIVER CONFORMANCE DOUBLE (tests only; this is not Cua Driver): a small MCP
 * server on stdio, built with the same official SDK, serving Cua Driver's documented tool
 * names and schemas and answering from real AT-SPI reads of the headless desktop.
 *
 * Run as its own process: `deno run -A server.ts` (a `cua-driver` wrapper script calls it
 * for `cua-driver mcp`). It stops on stdin EOF, as Cua's stdio server does.
 *
 * Misbehaviour for tests, read before every call from the JSON file `CUA_DOUBLE_CONTROL`
 * names (`{"mode": ...}`; no file: `normal`):
 * - `fail_reads`: `get_window_state` with a tree fails (`isError`);
 * - `malformed`: `get_window_state` answers `structuredContent` outside Cua's schema;
 * - `degraded`: `get_window_state` answers no element, `degraded_reason: "ax_tree_empty"`;
 * - `hang`: no tool call is ever answered (`tools/list` still is).
 *
 * @module
 */
import process from "node:process";
import { Server } from "@modelcontextprotocol/sdk/server";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { DriverError } from "../../../protocol/errors.ts";
import { DoubleDesktop, fail, ok, stale } from "./desktop.ts";
import { TOOLS } from "./tools.ts";

type Args = Record<string, unknown>;

/** The misbehaviour asked for now. */
function mode(): string {
  const path = Deno.env.get("CUA_DOUBLE_CONTROL");
  if (!path) return "normal";
  try {
    return String(JSON.parse(Deno.readTextFileSync(path)).mode ?? "normal");
  } catch {
    return "normal";
  }
}

const n = (v: unknown): number => (typeof v === "number" ? v : 0);
const s = (v: unknown): string => (typeof v === "string" ? v : "");

const desktop = new DoubleDesktop();

async function windowState(a: Args, signal: AbortSignal): Promise<CallToolResult> {
  const m = mode();
  const tree = a.include_accessibility_tree !== false;
  if (tree && m === "fail_reads") return fail("AX tree walk failed: the double fails reads now");
  if (tree && m === "malformed") {
    return ok("malformed on purpose", { window_id: a.window_id, elements: "not a list" });
  }
  if (tree && m === "degraded") {
    return ok("degraded on purpose", {
      window_id: a.window_id,
      pid: a.pid,
      element_count: 0,
      elements: [],
      tree_markdown: "",
      degraded: true,
      degraded_reason: "ax_tree_empty",
    });
  }
  return await desktop.windowState(a, signal);
}

async function scroll(a: Args, signal: AbortSignal): Promise<CallToolResult> {
  const amount = n(a.amount) || 3;
  const d = { up: [0, -amount], down: [0, amount], left: [-amount, 0], right: [amount, 0] }[
    s(a.direction) as "up"
  ];
  if (!d) return fail(`Unknown direction "${s(a.direction)}"`);
  const at = a.x !== undefined ? await desktop.point(a, n(a.x), n(a.y), signal) : {};
  return await desktop.input({ kind: "scroll", dx: d[0]!, dy: d[1]!, ...at }, signal);
}

/** Answers one tool call. */
async function call(tool: string, a: Args, signal: AbortSignal): Promise<CallToolResult> {
  switch (tool) {
    case "list_windows":
      return await desktop.listWindows(a, signal);
    case "get_window_state":
      return await windowState(a, signal);
    case "get_desktop_state": {
      const { encodePng } = await import("../../../model/png.ts");
      const shot = await desktop.capture(undefined, signal);
      return ok("desktop", { width: shot.width, height: shot.height }, encodePng(shot));
    }
    case "click": {
      if (a.element_token !== undefined) return await desktop.act(a, "press", undefined, signal);
      const { x, y } = await desktop.point(a, n(a.x), n(a.y), signal);
      const button = (s(a.button) || "left") as "left";
      return await desktop.input({ kind: "click", x, y, button, count: n(a.count) || 1 }, signal);
    }
    case "set_value":
      return await desktop.act(a, "set_value", s(a.value), signal);
    case "type_text":
      if (a.element_token !== undefined) {
        return await desktop.act(a, "type_text", s(a.text), signal);
      }
      return await desktop.input({ kind: "type", text: s(a.text) }, signal);
    case "press_key": {
      const keys = [...((a.modifiers as string[] | undefined) ?? []), s(a.key)].join("+");
      return await desktop.input({ kind: "key", keys }, signal);
    }
    case "hotkey":
      return await desktop.input({ kind: "key", keys: (a.keys as string[]).join("+") }, signal);
    case "move_cursor":
      return await desktop.input({
        kind: "move",
        ...await desktop.point(a, n(a.x), n(a.y), signal),
      }, signal);
    case "drag":
      return await desktop.input({
        kind: "drag",
        from: await desktop.point(a, n(a.from_x), n(a.from_y), signal),
        to: await desktop.point(a, n(a.to_x), n(a.to_y), signal),
      }, signal);
    case "scroll":
      return await scroll(a, signal);
    case "zoom":
      return await desktop.zoom(a, signal);
    case "parse_visual_regions":
      return fail("parse_visual_regions needs the cua-perception extension (AGPL); not served");
    default:
      return fail(`Unknown tool "${tool}"`);
  }
}

const server = new Server(
  { name: "cua-driver (conformance double)", version: "0.34.0-double" },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...TOOLS] }));
server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
  if (mode() === "hang") return await new Promise<never>(() => {});
  const a = req.params.arguments ?? {};
  try {
    return await call(req.params.name, a, extra.signal);
  } catch (err) {
    if (err instanceof DriverError && ["window_not_found", "app_not_running"].includes(err.code)) {
      return fail(stale(a)); // Cua's wording for a window that went away.
    }
    return fail(`${req.params.name} failed: ${err instanceof Error ? err.message : err}`);
  }
});

const stop = async () => {
  await desktop.close().catch(() => {});
  Deno.exit(0);
};
process.stdin.on("end", stop);
process.stdin.on("close", stop);
await server.connect(new StdioServerTransport());
