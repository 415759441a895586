/**
 * Every launcher of the driver starts V8 with cli/v8_flags.ts's flags, and the flags do
 * what they are there for: V8 sizes its heap once, at start, so a launcher that forgets
 * them runs a driver with the default young generation.
 */
import assert from "node:assert/strict";
import { V8_FLAGS, V8_FLAGS_ARG } from "../cli/v8_flags.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const read = (file: string) => Deno.readTextFile(`${ROOT}${file}`);

Deno.test("every launcher of the source, the bundle and the executables carries the V8 flags", async () => {
  const deno = JSON.parse(await read("deno.json")) as { tasks: Record<string, string> };
  assert.match(deno.tasks.start!, new RegExp(`^deno run --allow-all ${V8_FLAGS_ARG} main\\.ts `));
  const launchers: [string, RegExp][] = [
    // Linux's bundle launcher and Windows' two (the task's argument list and the .cmd).
    ["install/linux/bin/allternit-driver", /"\$prefix\/deno" run .*\n?.*allternit-driver\.js/g],
    ["install/windows/register-logon-task.ps1", /'run', '--allow-all'.*|deno\.exe" run .*/g],
    // What a user copies into an MCP client, and what a packager reads.
    ["docs/cli-and-mcp.md", /"args": \["run",.*|`deno run -A .*main\.ts …`/g],
    ["mcp/README_SECTION.md", /"args": \["run",.*/g],
    ["install/PACKAGING.md", /`deno run --allow-all .*allternit-driver\.js …`/g],
    // The compiler bakes them in; tests and benches start the source with them.
    ["dist/compile.ts", /^\s+V8_FLAGS_ARG,$/gm],
    ["tests/support/driver_process.ts", /args: \[.*"run".*\]/g],
    ["tests/support/mcp_client.ts", /args: \["run".*\]/g],
  ];
  for (const [file, launch] of launchers) {
    const found = (await read(file)).match(launch) ?? [];
    assert.ok(found.length > 0, `${file}: no launch line found`);
    for (const line of found) {
      assert.ok(
        line.includes(V8_FLAGS_ARG) || line.includes("V8_FLAGS_ARG"),
        `${file}: ${line.trim()} lacks ${V8_FLAGS_ARG}`,
      );
    }
  }
});

Deno.test("the V8 flags keep the young generation at a few MB under a burst of garbage", async () => {
  // A burst of short-lived answers, as a tight read loop makes; then the new space's size.
  const code = `import v8 from "node:v8";
    let keep = [];
    for (let r = 0; r < 100; r++) {
      const a = [];
      for (let i = 0; i < 20000; i++) a.push({ i, s: "x" + i });
      keep.push(a);
      if (keep.length > 3) keep.shift();
    }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
    console.log(space.space_size);`;
  const newSpace = async (flags: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", ...flags, code],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return Number(new TextDecoder().decode(out.stdout)) / 1e6;
  };
  const ours = await newSpace([V8_FLAGS_ARG]);
  const plain = await newSpace([]);
  // The new space holds both semi-spaces and the pages being promoted: 1.8-3.9 MB were
  // seen with 1 MB semi-spaces, 63 MB without the flag.
  assert.ok(ours <= 5, `${V8_FLAGS.join(" ")}: new space ${ours} MB`);
  assert.ok(plain > 10 * ours, `without them ${plain} MB: the flag is what keeps it small`);
});
