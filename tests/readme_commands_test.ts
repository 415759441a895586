/**
 * The README's two commands, run as a new user would: from a clean clone of what is
 * committed, in a scratch folder. A file left uncommitted, or an install step that only
 * this machine's history provides, fails here rather than on a user's machine.
 *
 * The demo runs whole; the test command runs a short smoke subset (the package check and
 * the real-app reads), each in its own headless session nested in this one.
 */
import assert from "node:assert/strict";

const ROOT = new URL("..", import.meta.url).pathname;

/** The commands in the README's "Two commands" block, by the task they run. */
async function readmeCommands(): Promise<{ demo: string; test: string }> {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const block = /## Two commands[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  const commands = block.split("\n").map((l) => l.replace(/#.*$/, "").trim()).filter(Boolean);
  const demo = commands.find((c) => / task demo$/.test(c));
  const test = commands.find((c) => / task test$/.test(c));
  assert.ok(demo && test, `the README's two commands, found: ${JSON.stringify(commands)}`);
  return { demo, test };
}

async function sh(cwd: string, command: string): Promise<{ code: number; out: string }> {
  const env = { NO_COLOR: "1" };
  const out = await new Deno.Command("bash", {
    args: ["-c", `${command} 2>&1`],
    cwd,
    env,
    stdout: "piped",
    stderr: "inherit",
    signal: AbortSignal.timeout(300_000),
  }).output();
  return { code: out.code, out: new TextDecoder().decode(out.stdout) };
}

Deno.test(".ci/run calls exactly the README's test command", async () => {
  const { test } = await readmeCommands();
  const ci = await Deno.readTextFile(`${ROOT}.ci/run`);
  const version = /^DENO_VERSION=(\S+)$/m.exec(ci)?.[1];
  const called = /^\S*\s*npx -y deno@\$DENO_VERSION task test\b/m.test(ci);
  assert.ok(called, ".ci/run runs npx -y deno@$DENO_VERSION task test");
  assert.equal(`npx -y deno@${version} task test`, test);
});

Deno.test("the README's demo and test commands work from a clean clone", async () => {
  const { demo, test } = await readmeCommands();
  const dir = await Deno.makeTempDir({ prefix: "allternit-clone-" });
  try {
    const clone = await sh(ROOT, `git clone --quiet --no-hardlinks . '${dir}/driver'`);
    assert.equal(clone.code, 0, clone.out);
    const cwd = `${dir}/driver`;

    const shown = await sh(cwd, demo);
    assert.equal(shown.code, 0, shown.out);
    assert.match(shown.out, /Stopped the driver \(exit 0\)/);

    const smoke = await sh(cwd, `${test} tests/deps_test.ts tests/linux_engine_test.ts`);
    assert.equal(smoke.code, 0, smoke.out);
    assert.match(smoke.out, /^ok \| \d+ passed \| 0 failed/m, smoke.out);
    assert.doesNotMatch(smoke.out, /\bignored\b/, "no test skipped");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
