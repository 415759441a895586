/**
 * The official MCP SDK client on `main.ts mcp` over stdio, as a desktop MCP client runs it,
 * and the little parsing the tests do of its text answers.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export has no types for `x.js` paths: point the checker at them.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { V8_FLAGS_ARG } from "../../cli/v8_flags.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** The catalogue in the order tools/list gives it. */
export const ALL_TOOLS = [
  "read_ui",
  "act",
  "run_batch",
  "verify",
  "find",
  "screenshot",
  "zoom",
  "pixel_input",
  "window",
  "launch_app",
  "close_app",
  "clipboard",
  "list_apps",
];

/** An MCP session with the driver's server. */
export interface Mcp {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** Starts `main.ts mcp <args>` as an MCP client would and completes the handshake. */
export async function mcp(args: string[]): Promise<Mcp> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "--allow-all", V8_FLAGS_ARG, MAIN, "mcp", ...args],
    env: { ...Deno.env.toObject(), ALLTERNIT_CHECK_RESULTS: "1" },
    stderr: "pipe",
  });
  let errText = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    errText += new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "allternit-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => errText, close: () => client.close() };
}

/** A tool's answer: its text, error flag, content and structured content. */
export interface Answer {
  text: string;
  isError: boolean;
  /** `structuredContent`, for the tools that declare an `outputSchema`. */
  structured?: Record<string, unknown>;
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
}

/** Calls tool `name`; its text parts joined. */
export async function callTool(
  m: Mcp,
  name: string,
  args: Record<string, unknown>,
): Promise<Answer> {
  const r = await m.client.callTool({ name, arguments: args });
  const content = r.content as Answer["content"];
  const text = content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
  const structured = r.structuredContent as Record<string, unknown> | undefined;
  return { text, isError: r.isError === true, content, ...(structured ? { structured } : {}) };
}

/** `key=value` from a header line. */
export function field(line: string, key: string): string {
  const m = new RegExp(`(?:^| )${key}=(\\S+)`).exec(line);
  if (!m) throw new Error(`No "${key}" in header "${line}"`);
  return m[1]!;
}

/** The app's lines of an answer: not its header, the fence around them, or a cursor line. */
export function appLines(text: string): string[] {
  return text.split("\n").slice(1).filter((l) => !/^<\/?app k=[0-9a-f]{8}>$|^… /.test(l));
}
