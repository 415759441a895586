/**
 * The layers the README draws are what the imports do: every module's relative imports
 * are held to `tests/support/layers.ts`. A forbidden import fails here, named by file and
 * line.
 */
import assert from "node:assert/strict";
import { checkImports, layerOf, LAYERS } from "./support/layers.ts";

const ROOT = new URL("..", import.meta.url).pathname;

async function sources(): Promise<Map<string, string>> {
  const out = await new Deno.Command("git", {
    args: ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts"],
    cwd: ROOT,
    stdout: "piped",
  }).output();
  const files = new Map<string, string>();
  for (const f of new TextDecoder().decode(out.stdout).split("\n").filter(Boolean)) {
    try {
      files.set(f, await Deno.readTextFile(`${ROOT}${f}`));
    } catch {
      // Deleted in the work tree.
    }
  }
  return files;
}

Deno.test("every import in the tree follows the layer rules", async () => {
  const files = await sources();
  assert.ok(files.size > 300, `read ${files.size} modules`);
  const bad = checkImports(files).map((v) =>
    `${v.file}:${v.line}: ${v.layer} may not import "${v.spec}" (${v.target})`
  );
  assert.deepEqual(bad, [], `forbidden imports:\n${bad.join("\n")}`);
});

Deno.test("every folder of code has a layer rule", async () => {
  const free = new Set(["tests", "bench", "demo", "dist", "install", "main.ts", "mod.ts"]);
  const folders = new Set([...(await sources()).keys()].map((f) => f.split("/")[0]!));
  const ungoverned = [...folders].filter((f) => !free.has(f) && layerOf(`${f}/x.ts`) === undefined);
  assert.deepEqual(ungoverned, [], "add these folders to LAYERS in tests/support/layers.ts");
});

Deno.test("checkImports() names a forbidden import by file and line, and allows the rest", () => {
  const files = new Map([
    [
      "engines/atspi/engine.ts",
      'import { x } from "../../model/engine.ts";\n' +
      'import type { CallContext } from "../../rpc/dispatcher.ts";\n',
    ],
    ["router/router.ts", '\n\nimport { AtspiEngine } from "../engines/atspi/engine.ts";\n'],
    ["map/ids.ts", 'const ffi = await import("../ffi/linux_x11.ts");\n'],
    ["platform/x11/input.ts", 'export { VisionEngine } from "../../engines/vision/engine.ts";\n'],
    ["protocol/ops.ts", 'import { z } from "zod";\nimport "../driver/core.ts";\n'],
    ["live/live_map_test.ts", 'import { requireDesktop } from "../tests/support/desktop.ts";\n'],
    ["tests/anything_test.ts", 'import { DriverCore } from "../driver/core.ts";\n'],
  ]);
  assert.deepEqual(checkImports(files).map((v) => `${v.file}:${v.line} ${v.target}`), [
    "engines/atspi/engine.ts:2 rpc/dispatcher.ts",
    "router/router.ts:3 engines/atspi/engine.ts",
    "map/ids.ts:1 ffi/linux_x11.ts",
    "platform/x11/input.ts:1 engines/vision/engine.ts",
    "protocol/ops.ts:2 driver/core.ts",
  ]);
  assert.ok(LAYERS["router/"]!.every((l) => !l.startsWith("engines") && !l.startsWith("platform")));
});
