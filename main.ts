// deno-lint-ignore-file no-console -- the CLI is where the driver talks to a person.
/**
 * The `allternit-driver` command line: parses arguments and starts things; all work
 * lives in `cli/`, `driver/` and below.
 *
 * @module
 */
import { parseFlags } from "./cli/args.ts";
import { VERSION } from "./model/version.ts";
import { isLoopback } from "./rpc/listen.ts";
import { type LazyModule, moduleUrl } from "./util/lazy.ts";

/**
 * Loads a command's module when the command runs (util/lazy.ts says why by a computed
 * path): the forwarder and a `call` to a running driver start in about Deno's own start
 * time, without the driver, its engines, zod or the MCP SDK.
 */
function load<T>(path: LazyModule): Promise<T> {
  return import(moduleUrl(path));
}

const HELP: Record<string, string> = {
  main: `allternit-driver ${VERSION}: reads and operates desktop apps for AI agents.

Usage: allternit-driver <command> [options]

Commands:
  serve   Serve JSON-RPC on the private unix socket (or loopback TCP with --tcp)
  rpc     Forward stdin lines to a running driver and its answers to stdout
  call    Run one op and print the result: call OP ['{"json":"params"}']
  hello   Same as: call hello
  mcp     Serve the driver's ops as MCP tools on stdio (for MCP clients)
  show-trace  Show a recorded trace in a browser, or write it as one HTML file

Run 'allternit-driver <command> --help' for a command's options.`,
  serve:
    `Usage: allternit-driver serve [--socket PATH | --tcp [--host 127.0.0.1] [--port N]] [--data-dir DIR]
                             [--exit-with-parent] [--print-env] [--trace DIR]

  --socket PATH   unix socket (default <data>/computer-use/allternit-driver.sock)
  --tcp           loopback TCP on a random port with a per-launch token
  --host H        loopback address for --tcp (others are refused)
  --port N        port for --tcp (default: random)
  --data-dir DIR  data folder (default ALLTERNIT_DATA_DIR or the OS convention)
  --exit-with-parent  also stop when stdin reaches EOF or the parent process dies
                  (for a sidecar whose parent holds the stdin pipe open)
  --print-env     after the ready line, print ALLTERNIT_DRIVER_SOCKET=... (or
                  ALLTERNIT_DRIVER_ENDPOINT=... and ALLTERNIT_DRIVER_TOKEN=...) lines
  --trace DIR     record every op, answer and screenshots around actions into the trace
                  folder DIR (docs/traces.md; see show-trace)

Prints one JSON line on stdout when ready: {"ready":true,"socket":...} or
{"ready":true,"endpoint":"127.0.0.1:N","token":...}. Logs go to stderr as JSON lines.
Exit codes: 0 stopped (SIGTERM/SIGINT, or the parent gone), 1 failed, 2 usage,
3 another driver owns the socket.`,
  rpc: `Usage: allternit-driver rpc [--socket PATH | --endpoint HOST:PORT] [--data-dir DIR]

Forwards JSON-RPC lines from stdin to the driver and answers to stdout. Target: the flags,
else ALLTERNIT_DRIVER_ENDPOINT + ALLTERNIT_DRIVER_TOKEN (the token is added to each
request), else ALLTERNIT_DRIVER_SOCKET, else the default socket.
Exit codes: 0 all answered, 2 usage, 3 no driver reachable, 4 connection lost.`,
  call:
    `Usage: allternit-driver call OP ['{"json":"params"}'] [--socket PATH | --endpoint HOST:PORT] [--in-process]

Runs one op on the running driver, or on a driver started in this process when none is
reachable (or with --in-process). Prints the result as JSON on stdout; on error prints
{"error":...} there instead and exits 1 (logs go to stderr).

Ops:
{OPS}`,
  mcp:
    `Usage: allternit-driver mcp [--socket PATH | --endpoint HOST:PORT] [--ops LIST] [--in-process]
                           [--data-dir DIR]

An MCP server on stdio (stdout is the protocol; logs go to stderr). Runs the tools on the
running driver (the flags, else ALLTERNIT_DRIVER_ENDPOINT + ALLTERNIT_DRIVER_TOKEN, else
ALLTERNIT_DRIVER_SOCKET, else the default socket), or on a driver started in this process
when none answers (or with --in-process). Stops when stdin ends or on SIGTERM/SIGINT.

  --ops LIST      offer only these tools, comma separated (default: all)
  --data-dir DIR  data folder (default ALLTERNIT_DATA_DIR or the OS convention)

Tools: {TOOLS}`,
  "show-trace": `Usage: allternit-driver show-trace DIR [--html OUT] [--port N]

Shows the trace recorded in DIR (serve --trace, or the trace_start op): a timeline of ops,
each with its params, answer, diff, screenshots before and after, and the element map.

  --html OUT      write the viewer as one self-contained HTML file (images inlined)
                  and exit, instead of serving it
  --port N        port to serve on (default: random)

Without --html, serves the viewer on 127.0.0.1, prints its URL and serves until
SIGINT/SIGTERM. Exit codes: 0 done, 1 no trace there, 2 usage.`,
};
HELP.hello = HELP.call!;

/** A command's help, with the op and tool lists loaded only when help is asked for. */
async function helpOf(command: string): Promise<string> {
  let text = HELP[command]!;
  if (text.includes("{OPS}")) {
    const { OP_NAMES, OPS } = await load<typeof import("./protocol/ops.ts")>("protocol/ops");
    text = text.replace(
      "{OPS}",
      OP_NAMES.map((n) => `  ${n.padEnd(16)}${OPS[n].summary}`).join("\n"),
    );
  }
  if (text.includes("{TOOLS}")) {
    const { TOOL_NAMES } = await load<typeof import("./mcp/catalogue.ts")>("mcp/catalogue");
    text = text.replace("{TOOLS}", TOOL_NAMES.join(", "));
  }
  return text;
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    console.log(HELP.main);
    return command === undefined ? 2 : 0;
  }
  if (command === "--version") {
    console.log(VERSION);
    return 0;
  }
  if (!(command in HELP) || command === "main") {
    console.error(`Unknown command "${command}"\n\n${HELP.main}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseFlags(rest, {
      help: "boolean",
      socket: "string",
      tcp: "boolean",
      host: "string",
      port: "string",
      endpoint: "string",
      "data-dir": "string",
      "in-process": "boolean",
      "exit-with-parent": "boolean",
      "print-env": "boolean",
      ops: "string",
      trace: "string",
      html: "string",
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${await helpOf(command)}`);
    return 2;
  }
  const { values: v, positionals } = parsed;
  if (v.help) {
    console.log(await helpOf(command));
    return 0;
  }
  const target = {
    ...(v.socket ? { socket: v.socket } : {}),
    ...(v.endpoint ? { endpoint: v.endpoint } : {}),
    ...(v["data-dir"] ? { dataDir: v["data-dir"] } : {}),
  };
  switch (command) {
    case "serve": {
      const port = v.port === undefined ? undefined : Number(v.port);
      if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
        console.error(`Invalid --port "${v.port}"`);
        return 2;
      }
      if (v.tcp && v.socket) {
        console.error("Give either --socket or --tcp, not both");
        return 2;
      }
      if (v.host !== undefined && !isLoopback(v.host)) {
        console.error(`Refusing --host "${v.host}": only loopback addresses are allowed`);
        return 2;
      }
      const { serve } = await load<typeof import("./cli/serve.ts")>("cli/serve");
      return await serve({
        ...target,
        ...(v.tcp ? { tcp: true } : {}),
        ...(v.host ? { host: v.host } : {}),
        ...(port !== undefined ? { port } : {}),
        ...(v["exit-with-parent"] ? { exitWithParent: true } : {}),
        ...(v["print-env"] ? { printEnv: true } : {}),
        ...(v.trace !== undefined ? { trace: v.trace } : {}),
      });
    }
    case "show-trace": {
      const [dir] = positionals;
      const port = v.port === undefined ? 0 : Number(v.port);
      if (!dir || !(Number.isInteger(port) && port >= 0 && port < 65536)) {
        console.error(await helpOf(command));
        return 2;
      }
      const { showTrace } = await load<typeof import("./cli/show_trace.ts")>("cli/show_trace");
      return await showTrace({ dir, port, ...(v.html !== undefined ? { html: v.html } : {}) });
    }
    case "rpc": {
      const { forward } = await load<typeof import("./cli/forward.ts")>("cli/forward");
      return await forward(target);
    }
    case "hello": {
      const { callOnce } = await load<typeof import("./cli/call.ts")>("cli/call");
      return await callOnce("hello", undefined, { ...target, inProcess: v["in-process"] ?? false });
    }
    case "mcp": {
      let tools;
      try {
        const { selectTools } = await load<typeof import("./mcp/catalogue.ts")>("mcp/catalogue");
        tools = selectTools(v.ops);
      } catch (err) {
        console.error((err as Error).message);
        return 2;
      }
      // Loaded here so the MCP SDK costs the other commands no start-up time.
      const { serveMcp } = await load<typeof import("./mcp/server.ts")>("mcp/server");
      return await serveMcp({ ...target, tools, inProcess: v["in-process"] ?? false });
    }
    case "call": {
      const [op, params] = positionals;
      if (!op) {
        console.error(await helpOf(command));
        return 2;
      }
      const { callOnce } = await load<typeof import("./cli/call.ts")>("cli/call");
      return await callOnce(op, params, { ...target, inProcess: v["in-process"] ?? false });
    }
  }
  return 2;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (err) {
    // A start-up refusal (a bad config, an unsafe socket folder) is a sentence for a
    // person; the stack is for a developer who asks for it.
    const debug = Deno.env.get("ALLTERNIT_LOG_LEVEL") === "debug";
    console.error(
      err instanceof Error ? ((debug ? err.stack : err.message) ?? err.message) : String(err),
    );
    Deno.exit(1);
  }
}
