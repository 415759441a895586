/**
 * The MCP catalogue as the official MCP Inspector's CLI sees it (`mcp-inspector --cli`, the
 * `npx @modelcontextprotocol/inspector --cli` of its docs): a second client beside the SDK's
 * (tests/mcp_test.ts), with its own schema portability checks (`--strict`). The inspector is
 * installed with npm into the cache folder beside Playwright MCP's (bench/observe/clients.ts),
 * once; an install that fails fails the test.
 */
import assert from "node:assert/strict";
import { desktopTests } from "./support/desktop.ts";
import { ALL_TOOLS } from "./support/mcp_client.ts";

/** The inspector release the test runs (npm view @modelcontextprotocol/inspector version). */
const INSPECTOR_VERSION = "2.12.0";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** Longest one inspector run may take (it starts `main.ts mcp`, which starts a driver). */
const RUN_TIMEOUT_MS = 25_000;

/** Longest the one-time npm install may take. */
const INSTALL_TIMEOUT_MS = 5 * 60_000;

/** Where the inspector is installed: `MCP_INSPECTOR_CACHE`, else under ~/.cache. */
function inspectorCache(): string {
  const base = Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/tmp"}/.cache`;
  return Deno.env.get("MCP_INSPECTOR_CACHE") ??
    `${base}/allternit/mcp-inspector-${INSPECTOR_VERSION}`;
}

/** The inspector's launcher (its `mcp-inspector` bin), installed with npm when absent. */
async function installInspector(): Promise<string> {
  const dir = inspectorCache();
  const pkgDir = `${dir}/node_modules/@modelcontextprotocol/inspector`;
  const launcher = `${pkgDir}/clients/launcher/build/index.js`;
  const installed = await Deno.readTextFile(`${pkgDir}/package.json`)
    .then((t) => JSON.parse(t).version, () => "");
  if (installed === INSPECTOR_VERSION) return launcher;
  await Deno.mkdir(dir, { recursive: true });
  const spec = `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`;
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("npm", {
      args: ["install", "--prefix", dir, "--no-audit", "--no-fund", spec],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(INSTALL_TIMEOUT_MS),
    }).output();
  } catch (err) {
    throw new Error(`npm install ${spec} into ${dir} did not finish: ${err}`);
  }
  if (!out.success) {
    throw new Error(
      `npm install ${spec} into ${dir} failed (exit ${out.code}):\n` +
        new TextDecoder().decode(out.stderr),
    );
  }
  await Deno.stat(launcher).catch(() => {
    throw new Error(`npm installed ${spec} but ${launcher} is missing`);
  });
  return launcher;
}

interface Run {
  code: number;
  /** The `--format json` envelope on stdout: `{ result, schemaFindings? }`. */
  json: Record<string, unknown>;
  stderr: string;
}

/** The variables the driver needs to reach the desktop and its own settings. */
const SERVER_ENV =
  /^(DISPLAY|WAYLAND_DISPLAY|DBUS_SESSION_BUS_ADDRESS|AT_SPI_BUS_ADDRESS|XDG_RUNTIME_DIR|XAUTHORITY|ALLTERNIT_\w+|NO_AT_BRIDGE|GTK_MODULES|ACCESSIBILITY_ENABLED|QT_\w+)$/;

/**
 * Runs `mcp-inspector --cli --format json <inspector args>` against `main.ts mcp` with a
 * driver in its own process (`--in-process`, a scratch data folder). The inspector gives a
 * stdio server only PATH, HOME and a few more: the desktop's variables (DISPLAY, the
 * session bus) go to it by `-e`, which takes no empty value. The inspector's
 * own catalog and client config go to the scratch folder, not to ~/.mcp-inspector.
 */
async function inspect(args: string[]): Promise<Run> {
  const launcher = await installInspector();
  const scratch = await Deno.makeTempDir({ prefix: "allternit-mcp-inspector-" });
  try {
    const server = [Deno.execPath(), "run", "--allow-all", MAIN, "mcp", "--in-process"];
    const env = { ...Deno.env.toObject(), ALLTERNIT_CHECK_RESULTS: "1" };
    // Only what reaches the desktop: `-e` puts values on a command line any user's ps shows.
    const passEnv = Object.entries(env)
      .filter(([k, v]) => v !== "" && SERVER_ENV.test(k))
      .flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    let out: Deno.CommandOutput;
    try {
      out = await new Deno.Command("node", {
        args: [
          launcher,
          "--cli",
          "--format",
          "json",
          ...passEnv,
          ...server,
          "--data-dir",
          `${scratch}/data`,
          ...args,
        ],
        env: {
          ...env,
          MCP_CATALOG_PATH: `${scratch}/catalog.json`,
          MCP_CLIENT_CONFIG_PATH: `${scratch}/client.json`,
        },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
      }).output();
    } catch (err) {
      throw new Error(
        `The inspector (${args.join(" ")}) did not finish in ${RUN_TIMEOUT_MS} ms: ${err}`,
      );
    }
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(stdout);
    } catch {
      throw new Error(
        `The inspector (exit ${out.code}) printed no JSON:\n${stdout}\nstderr:\n${stderr}`,
      );
    }
    return { code: out.code, json, stderr };
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

interface Schema {
  type?: string;
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
}

/** Every parameter below `schema`'s properties as a `path` (nested objects, list items). */
function parameters(schema: Schema, path: string): { path: string; schema: Schema }[] {
  const found: { path: string; schema: Schema }[] = [];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    found.push({ path: `${path}.${name}`, schema: prop });
    found.push(...nested(prop, `${path}.${name}`));
  }
  return found;
}

function nested(schema: Schema, path: string): { path: string; schema: Schema }[] {
  const found = parameters(schema, path);
  if (schema.items) found.push(...nested(schema.items, `${path}[]`));
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    found.push(...nested(alt, path));
  }
  return found;
}

interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Schema;
  outputSchema?: Schema;
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean };
}

Deno.test("the MCP inspector lists 13 titled, described tools with portable schemas", async () => {
  const run = await inspect(["--method", "tools/list", "--strict"]);
  // --strict: the findings in the envelope, and exit 6 on one of error severity. Warnings
  // (a loose schema, say) are advice; an error is a schema some client cannot map.
  const findings = (run.json.schemaFindings ?? []) as { findings: { severity: string }[] }[];
  const errors = findings.filter((t) => t.findings.some((f) => f.severity === "error"));
  assert.deepEqual(errors, [], "schema portability errors");
  assert.equal(run.code, 0, `inspector exit ${run.code}:\n${run.stderr}`);
  const tools = (run.json.result as { tools: Tool[] }).tools;
  assert.deepEqual(tools.map((t) => t.name), ALL_TOOLS);
  const undescribed: string[] = [];
  for (const t of tools) {
    assert.ok(t.annotations?.title ?? t.title, `${t.name} has a title`);
    assert.ok(
      typeof t.annotations?.readOnlyHint === "boolean" ||
        typeof t.annotations?.destructiveHint === "boolean",
      `${t.name} says whether it reads or changes: ${JSON.stringify(t.annotations)}`,
    );
    assert.ok((t.description ?? "").length > 20, `${t.name} is described`);
    assert.equal(t.inputSchema.type, "object", t.name);
    for (const p of parameters(t.inputSchema, t.name)) {
      if (!p.schema.description) undescribed.push(p.path);
    }
  }
  assert.deepEqual(undescribed, [], "parameters without a description");
  const outputs = tools.filter((t) => t.outputSchema).map((t) => t.name);
  assert.deepEqual(outputs, ["read_ui", "act", "run_batch", "find"]);
  for (const t of tools.filter((t) => t.outputSchema)) {
    assert.equal(t.outputSchema!.type, "object", `${t.name}'s outputSchema`);
  }
});

Deno.test({
  name: "the MCP inspector calls list_apps and gets text",
  ...desktopTests(),
  async fn() {
    const run = await inspect(["--method", "tools/call", "--tool-name", "list_apps"]);
    const result = run.json.result as {
      content: { type: string; text?: string }[];
      isError?: boolean;
    };
    assert.notEqual(result.isError, true, JSON.stringify(result));
    // A tool answering isError:true makes the inspector exit non-zero.
    assert.equal(run.code, 0, `inspector exit ${run.code}:\n${run.stderr}`);
    assert.ok(result.content.length > 0, JSON.stringify(result));
    for (const c of result.content) {
      assert.equal(c.type, "text", JSON.stringify(c));
      assert.ok(typeof c.text === "string" && c.text.trim() !== "", JSON.stringify(c));
    }
  },
});
