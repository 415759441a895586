/**
 * The two MCP servers the observe bench reads pages through, each driven by the official
 * SDK client over stdio: the driver's own (`main.ts mcp --socket …`) and Playwright MCP
 * (`@playwright/mcp`, installed into a cache folder on first use, on the system Chromium).
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export has no types for `x.js` paths: point the checker at them.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** The Playwright MCP release measured (pinned: its snapshot format changes between releases). */
export const PLAYWRIGHT_MCP_VERSION = "0.0.86";

/**
 * One tool call's answer: its text parts joined, their UTF-8 bytes (what a model reads),
 * the bytes of its `structuredContent` as JSON (0 when none), and whether it erred.
 */
export interface Answer {
  text: string;
  bytes: number;
  structuredBytes: number;
  isError: boolean;
}

/** An MCP server on stdio with a connected SDK client; every call is counted. */
export interface McpSide {
  /** Calls the tool `name` and answers its text. */
  call(name: string, args: Record<string, unknown>): Promise<Answer>;
  /** Calls and bytes since the last {@link reset}. */
  readonly calls: number;
  readonly bytes: number;
  /** Starts counting afresh. */
  reset(): void;
  /** The server's stderr so far. */
  stderr(): string;
  /** Closes the client (the server exits with its stdin). */
  close(): Promise<void>;
}

const enc = new TextEncoder();

/** Starts `command args` as an MCP server on stdio and completes the handshake. */
async function connect(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<McpSide> {
  const transport = new StdioClientTransport({
    command,
    args,
    env,
    stderr: "pipe",
    ...(cwd ? { cwd } : {}),
  });
  let errText = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    errText += new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "allternit-observe-bench", version: "1.0.0" });
  await client.connect(transport);
  let calls = 0;
  let bytes = 0;
  return {
    async call(name, args) {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
      const content = r.content as { type: string; text?: string }[];
      const text = content.filter((c) => c.type === "text").map((c) => c.text ?? "").join("\n");
      const structured = r.structuredContent === undefined
        ? 0
        : enc.encode(JSON.stringify(r.structuredContent)).length;
      const answer = {
        text,
        bytes: enc.encode(text).length,
        structuredBytes: structured,
        isError: r.isError === true,
      };
      calls++;
      bytes += answer.bytes;
      return answer;
    },
    get calls() {
      return calls;
    },
    get bytes() {
      return bytes;
    },
    reset() {
      calls = 0;
      bytes = 0;
    },
    stderr: () => errText,
    close: () => client.close(),
  };
}

/** The driver's MCP server on the driver serving at `socket`. */
export function ourMcp(socket: string): Promise<McpSide> {
  const main = new URL("../../main.ts", import.meta.url).pathname;
  return connect(Deno.execPath(), ["run", "--allow-all", main, "mcp", "--socket", socket], {
    ...Deno.env.toObject(),
  });
}

/** Where Playwright MCP is installed: `PLAYWRIGHT_MCP_CACHE`, else under ~/.cache. */
export function playwrightCache(): string {
  const base = Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/tmp"}/.cache`;
  return Deno.env.get("PLAYWRIGHT_MCP_CACHE") ??
    `${base}/allternit/playwright-mcp-${PLAYWRIGHT_MCP_VERSION}`;
}

/** Playwright MCP's cli.js, installed with npm into {@link playwrightCache} when absent. */
export async function installPlaywrightMcp(): Promise<string> {
  const dir = playwrightCache();
  const cli = `${dir}/node_modules/@playwright/mcp/cli.js`;
  const pkg = `${dir}/node_modules/@playwright/mcp/package.json`;
  const installed = await Deno.readTextFile(pkg).then((t) => JSON.parse(t).version, () => "");
  if (installed === PLAYWRIGHT_MCP_VERSION) return cli;
  await Deno.mkdir(dir, { recursive: true });
  const out = await new Deno.Command("npm", {
    args: [
      "install",
      "--prefix",
      dir,
      "--no-audit",
      "--no-fund",
      `@playwright/mcp@${PLAYWRIGHT_MCP_VERSION}`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`npm install @playwright/mcp failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return cli;
}

/**
 * Playwright MCP on the system Chromium, headless, its viewport `width` × `height` (the
 * driver's Chromium page area, so both read the same first screen), profile in memory.
 */
export async function playwrightMcp(width: number, height: number): Promise<McpSide> {
  const cli = await installPlaywrightMcp();
  // It writes snapshots of navigations to files in its working folder: a scratch one.
  const work = await Deno.makeTempDir({ prefix: "allternit-playwright-mcp-" });
  const side = await connect(
    "node",
    [
      cli,
      "--headless",
      "--browser",
      "chromium",
      "--executable-path",
      "/usr/bin/chromium",
      "--no-sandbox",
      "--isolated",
      "--viewport-size",
      `${width}x${height}`,
      "--image-responses",
      "omit",
      "--output-dir",
      work,
    ],
    { ...Deno.env.toObject() },
    work,
  );
  return {
    ...side,
    get calls() {
      return side.calls;
    },
    get bytes() {
      return side.bytes;
    },
    async close() {
      await side.close();
      await Deno.remove(work, { recursive: true }).catch(() => {});
    },
  };
}
