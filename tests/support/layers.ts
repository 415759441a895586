/**
 * The import rules of the tree, as data (like Playwright's `DEPS.list`), and the checker
 * that holds every module to them. Each layer names the layers it may import; a module may
 * always import from its own layer. Paths are repository-relative; a layer is the longest
 * rule prefix that matches a path.
 *
 * @module
 */

/** What each layer may import, besides itself. */
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  // The bottom: helpers with no knowledge of the driver, and the wire contract.
  "util/": [],
  "protocol/": ["util/"],
  // The shared model: element and tree contracts, config schema, version, key grammar.
  "model/": ["protocol/", "util/", "deno.json"],
  // OS libraries: symbol tables, then the OS services built on them. No engine.
  "ffi/": ["protocol/", "util/"],
  "platform/": ["ffi/", "model/", "protocol/", "util/"],
  // Engines: each knows its OS through ffi/ and platform/, and nothing of RPC or the driver.
  "engines/": ["platform/", "ffi/", "model/", "protocol/", "util/"],
  // The element map and the live map know no OS and no engine module.
  "map/": ["model/", "protocol/", "util/"],
  "live/": ["map/", "model/", "protocol/", "util/"],
  // The router decides over statistics only; the locks only order work.
  "router/": ["protocol/", "util/"],
  "locks/": ["protocol/", "util/"],
  "rpc/": ["protocol/", "util/"],
  // Traces: the recorder and the viewer know the trace format, not the driver.
  "trace/": ["map/", "model/", "protocol/", "util/"],
  // The driver wires them together; the CLI and MCP front it.
  "driver/": [
    "engines/",
    "live/",
    "map/",
    "locks/",
    "router/",
    "rpc/",
    "trace/",
    "model/",
    "protocol/",
    "util/",
  ],
  // The CLI owns the process: its watchdog is an OS timer (ffi/posix_libc.ts).
  "cli/": ["driver/", "rpc/", "trace/", "ffi/", "model/", "protocol/", "util/"],
  "mcp/": ["cli/", "driver/", "rpc/", "model/", "protocol/", "util/"],
};

/**
 * What tests and test helpers may import besides their own layer's rules: the shared test
 * support, and the fakes and `_testing` helpers of any layer.
 */
export const TEST_EXTRAS: readonly RegExp[] = [
  /^tests\/support\//,
  /(^|\/)_[\w-]+\.ts$/,
];

/**
 * Layers a layer's tests may use besides its own rules: engine tests check their trees
 * through the element map and the live map that consume them.
 */
export const TEST_LAYERS: Readonly<Record<string, readonly string[]>> = {
  "engines/": ["map/", "live/"],
};

/** A module is a test or a test helper: `*_test.ts`, or a `_`-prefixed file. */
export function isTestModule(path: string): boolean {
  return /_test\.ts$/.test(path) || /(^|\/)_[\w-]+\.ts$/.test(path);
}

/** The layer of `path`, or undefined when no rule governs it (main.ts, tests/, bench/). */
export function layerOf(path: string): string | undefined {
  return Object.keys(LAYERS)
    .filter((l) => path === l || path.startsWith(l))
    .sort((a, b) => b.length - a.length)[0];
}

/** One import that breaks the rules. */
export interface Violation {
  /** Importing module. */
  file: string;
  /** 1-based line of the import. */
  line: number;
  /** The specifier as written. */
  spec: string;
  /** The module it resolves to. */
  target: string;
  /** The importing module's layer. */
  layer: string;
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^"';]*?from\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s*["']([^"']+)["']/g;

/** Joins a relative specifier onto the importing module's folder. */
function resolve(from: string, spec: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const seg of spec.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== "." && seg !== "") parts.push(seg);
  }
  return parts.join("/");
}

/**
 * Every relative import in `files` (path → text) that its module's layer does not allow.
 * Bare specifiers (npm packages, `node:`) are not layers and are not checked here.
 */
export function checkImports(files: ReadonlyMap<string, string>): Violation[] {
  const out: Violation[] = [];
  for (const [file, text] of files) {
    const layer = layerOf(file);
    if (layer === undefined) continue;
    const test = isTestModule(file);
    const allowed = [layer, ...LAYERS[layer]!, ...(test ? TEST_LAYERS[layer] ?? [] : [])];
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      if (!spec.startsWith(".")) continue;
      const target = resolve(file, spec);
      if (allowed.some((a) => target === a || target.startsWith(a))) continue;
      if (test && TEST_EXTRAS.some((re) => re.test(target))) continue;
      const at = m.index + m[0].indexOf(spec);
      const line = text.slice(0, at).split("\n").length;
      out.push({ file, line, spec, target, layer });
    }
  }
  return out;
}
