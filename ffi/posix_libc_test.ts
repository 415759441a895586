import assert from "node:assert/strict";
import { trimMalloc } from "./posix_libc.ts";

const WATCHDOG = new URL("../util/watchdog.ts", import.meta.url).href;
const LIBC = new URL("./posix_libc.ts", import.meta.url).href;

/** Runs `body` in a child Deno with the alarm-driven watchdog's imports. */
async function child(body: string): Promise<Deno.CommandOutput> {
  const code = `import { startWatchdog } from ${JSON.stringify(WATCHDOG)};
import { setAlarm } from ${JSON.stringify(LIBC)};
${body}`;
  return await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
}

Deno.test({
  name: "setAlarm() as the watchdog: a stalled loop ends the process by SIGALRM, no thread",
  ignore: Deno.build.os === "windows",
  async fn() {
    const t0 = performance.now();
    const out = await child(`
      startWatchdog({ stallMs: 1000, beatMs: 100, alarm: setAlarm });
      await new Promise((r) => setTimeout(r, 300));
      const end = Date.now() + 20_000;
      while (Date.now() < end) { /* a loop that never yields */ }
      console.log("survived");
    `);
    assert.equal(out.signal, "SIGALRM");
    assert.equal(new TextDecoder().decode(out.stdout), "");
    assert.ok(performance.now() - t0 < 10_000, "ended well before the loop would have");
  },
});

Deno.test({
  name: "setAlarm() as the watchdog: a turning loop lives past the stall time; stop cancels",
  ignore: Deno.build.os === "windows",
  async fn() {
    const out = await child(`
      const stop = startWatchdog({ stallMs: 1000, beatMs: 100, alarm: setAlarm });
      for (let i = 0; i < 25; i++) await new Promise((r) => setTimeout(r, 100));
      stop();
      await new Promise((r) => setTimeout(r, 1500));
      console.log("done");
    `);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.equal(new TextDecoder().decode(out.stdout).trim(), "done");
  },
});

Deno.test({
  name: "trimMalloc() asks the C library to give its free memory back",
  ignore: Deno.build.os === "windows",
  fn() {
    // glibc (Linux) and libSystem (macOS) both have a call for it.
    assert.equal(trimMalloc(), true);
  },
});
