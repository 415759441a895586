import assert from "node:assert/strict";

const WATCHDOG = new URL("./watchdog.ts", import.meta.url).href;

/** Runs `body` in a child Deno with the watchdog started. */
async function child(body: string): Promise<Deno.CommandOutput> {
  const code = `import { startWatchdog } from ${JSON.stringify(WATCHDOG)};\n${body}`;
  return await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
}

Deno.test("the watchdog kills a process whose event loop stopped turning, and says why", async () => {
  const t0 = performance.now();
  const out = await child(`
    startWatchdog({ stallMs: 400, beatMs: 50 });
    await new Promise((r) => setTimeout(r, 200));
    const end = Date.now() + 20_000;
    while (Date.now() < end) { /* a loop that never yields */ }
    console.log("survived");
  `);
  assert.equal(out.signal, "SIGKILL");
  assert.equal(new TextDecoder().decode(out.stdout), "");
  const err = new TextDecoder().decode(out.stderr);
  assert.match(
    err,
    /"msg":"the event loop stopped turning; killing the driver so it is restarted"/,
  );
  assert.ok(performance.now() - t0 < 15_000, "killed well before the loop would have ended");
});

Deno.test("the watchdog leaves a turning loop alone and lets the process end once stopped", async () => {
  const out = await child(`
    const stop = startWatchdog({ stallMs: 300, beatMs: 50 });
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 100));
    stop();
    console.log("done");
  `);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.equal(new TextDecoder().decode(out.stdout).trim(), "done");
});
