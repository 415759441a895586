// deno-lint-ignore-file no-console -- a build script reports to the person running it.
/**
 * `deno task bundle`: the driver as JavaScript for the pinned Deno, in `dist/out/bundle/`:
 * `allternit-driver.js` (the CLI), the chunks it loads per command, and `png_worker.js`.
 *
 * Code is split at every dynamic import, so each command loads only its own modules: the
 * forwarder and a `call` to a running driver never evaluate the driver, and `serve`
 * evaluates no MCP SDK, Cua engine or vision code until an op needs them (one file with
 * everything inlined made `serve` 30 MB bigger). The bundle keeps the source's layout for
 * what main.ts loads by path (`cli/serve.js`, `mcp/server.js`, ...). Built in a new folder that replaces the
 * old one only once complete, so a failed build leaves the last good bundle.
 *
 * @module
 */
import { COMMAND_MODULES } from "../main.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const OUT = `${ROOT}dist/out/bundle`;
const NEW = `${OUT}.partial`;

async function deno(args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), { args, cwd: ROOT, stdout: "inherit" })
    .output();
  if (!out.success) {
    await Deno.remove(NEW, { recursive: true }).catch(() => {});
    console.error(`bundle: \`deno ${args.join(" ")}\` failed`);
    Deno.exit(1);
  }
}

await Deno.remove(NEW, { recursive: true }).catch(() => {});
// main.ts loads each command's module by a computed path, so each is an entry of its own,
// written at its path under the bundle folder (cli/serve.js beside allternit-driver.js).
const entries = ["main.ts", ...COMMAND_MODULES.map((m) => `${m}.ts`)];
await deno(["bundle", "--platform", "deno", "--code-splitting", "--outdir", NEW, ...entries]);
await Deno.rename(`${NEW}/main.js`, `${NEW}/allternit-driver.js`);
// The worker is its own program: one file, found beside the chunk that starts it.
await deno([
  "bundle",
  "--platform",
  "deno",
  "-o",
  `${NEW}/png_worker.js`,
  "driver/images/png_worker.ts",
]);
await Deno.remove(OUT, { recursive: true }).catch(() => {});
await Deno.rename(NEW, OUT);
console.error(`bundle: ${OUT}/allternit-driver.js`);
