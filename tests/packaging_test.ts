/**
 * Build outputs (issue 9, the parts that run here): the compile task's offline failure,
 * and the bundle serving the real AT-SPI engine.
 */
import assert from "node:assert/strict";
import { requireDesktop } from "./support/apps.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const run = (args: string[], env: Record<string, string> = {}) =>
  new Deno.Command(Deno.execPath(), { args, cwd: ROOT, stdout: "piped", stderr: "piped", env })
    .output();

Deno.test("compile builds a target or says in one sentence what is missing, leaving nothing half-written", async () => {
  const target = "x86_64-unknown-linux-gnu";
  const out = await run(["run", "-A", "dist/compile.ts", target], { DENORT_BIN: "" });
  const files = [...Deno.readDirSync(`${ROOT}dist/out`)].map((e) => e.name);
  assert.equal(files.some((f) => f.includes(".partial")), false, "no partial output");
  if (out.success) {
    assert.ok(files.some((f) => f.endsWith(target)), "the executable is there");
    const manifest = JSON.parse(await Deno.readTextFile(`${ROOT}dist/out/manifest.json`));
    assert.match(manifest.built[0].sha256, /^[0-9a-f]{64}$/);
  } else {
    const err = new TextDecoder().decode(out.stderr).trim();
    assert.equal(out.code, 1);
    assert.match(err, /^Cannot compile for x86_64-unknown-linux-gnu: .*DENORT_BIN/);
    assert.equal(err.split("\n").length, 1, "one sentence");
  }
});

Deno.test("compile refuses an unknown target and DENORT_BIN for several targets", async () => {
  const bad = await run(["run", "-A", "dist/compile.ts", "sparc-sun-solaris"]);
  assert.equal(bad.code, 2);
  const many = await run(["run", "-A", "dist/compile.ts"], { DENORT_BIN: "/nonexistent/denort" });
  assert.equal(many.code, 2);
  assert.match(new TextDecoder().decode(many.stderr), /one target/);
});

Deno.test("the bundle runs the CLI with the real AT-SPI engine", async () => {
  requireDesktop();
  const built = await run(["task", "bundle"]);
  assert.ok(built.success, new TextDecoder().decode(built.stderr));
  const hello = await run([
    "run",
    "-A",
    "dist/out/bundle/allternit-driver.js",
    "call",
    "hello",
    "--in-process",
  ]);
  assert.ok(hello.success, new TextDecoder().decode(hello.stderr));
  const report = JSON.parse(new TextDecoder().decode(hello.stdout));
  assert.equal(report.engines.find((e: { name: string }) => e.name === "atspi")?.available, true);
  // Screenshots are encoded by a worker, which the bundle ships beside it.
  const shot = await run(["run", "-A", "dist/out/bundle/allternit-driver.js", "call", "screenshot"]
    .concat("--in-process"));
  assert.ok(shot.success, new TextDecoder().decode(shot.stdout));
  const png = JSON.parse(new TextDecoder().decode(shot.stdout)).png as string;
  assert.equal(atob(png.slice(0, 8)).slice(1, 4), "PNG");
});
