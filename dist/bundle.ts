// deno-lint-ignore-file no-console -- a build script reports to the person running it.
/**
 * `deno task bundle`: the driver as JavaScript for the pinned Deno, in `dist/out/bundle/`:
 * `allternit-driver.js` (the CLI), and the chunks and entries it loads per command.
 *
 * Code is split at every dynamic import, so each command loads only its own modules: the
 * forwarder and a `call` to a running driver never evaluate the driver, and `serve`
 * evaluates no MCP SDK, Cua engine or vision code until an op needs them (one file with
 * everything inlined made `serve` 30 MB bigger). What util/lazy.ts loads by a computed path
 * is an entry of its own at its source path (`cli/serve.js`, `engines/atspi/engine.js`). Built in a new folder that replaces the
 * old one only once complete, so a failed build leaves the last good bundle.
 *
 * @module
 */
import { LAZY_MODULES } from "../util/lazy.ts";

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
const entries = ["main.ts", ...LAZY_MODULES.map((m) => `${m}.ts`)];
await deno(["bundle", "--platform", "deno", "--code-splitting", "--outdir", NEW, ...entries]);
await Deno.rename(`${NEW}/main.js`, `${NEW}/allternit-driver.js`);
// util/lazy.ts finds those entries from the folder its own code is in: it must be a chunk
// at the bundle's top, not inlined into an entry below it.
const lazyAt = [...Deno.readDirSync(NEW)].filter((e) => e.isFile).find((e) =>
  /(^|\n)\/\/ util\/lazy\.ts\n/.test(Deno.readTextFileSync(`${NEW}/${e.name}`))
);
if (!lazyAt) {
  await Deno.remove(NEW, { recursive: true });
  console.error("bundle: util/lazy.ts did not land in a top-level chunk; its paths would break");
  Deno.exit(1);
}
await Deno.remove(OUT, { recursive: true }).catch(() => {});
await Deno.rename(NEW, OUT);
console.error(`bundle: ${OUT}/allternit-driver.js`);
