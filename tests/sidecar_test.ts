/**
 * The Desktop sidecar contract (issue 9, install/SIDECAR.md) on the real `serve` process:
 * `--exit-with-parent` stops it with exit 0 and removes its socket when stdin ends or its
 * parent dies; `--print-env` hands the parent ALLTERNIT_DRIVER_* lines it can parse.
 */
import assert from "node:assert/strict";
import { DriverClient } from "../rpc/client.ts";
import { LineSplitter } from "../util/framing.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const dec = new TextDecoder();

/** Starts `serve ARGS --exit-with-parent --print-env` with stdin piped from this test. */
async function sidecar(args: string[]) {
  const dataDir = await Deno.makeTempDir({ prefix: "allternit-sidecar-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "serve", ...args, "--data-dir", dataDir, "--exit-with-parent"]
      .concat("--print-env"),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  const splitter = new LineSplitter();
  const lines: string[] = [];
  // The ready line, then one env line per variable, all in one write.
  const want = args.includes("--tcp") ? 3 : 2;
  while (lines.length < want) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited ${(await child.status).code} before ready`);
    for (const f of splitter.push(value)) if ("line" in f) lines.push(dec.decode(f.line));
  }
  reader.releaseLock();
  const [readyLine, ...envLines] = lines;
  const env = Object.fromEntries(envLines.map((l) => {
    const m = l.match(/^(ALLTERNIT_DRIVER_[A-Z]+)=(.+)$/);
    assert.ok(m, `an env line: ${l}`);
    return [m[1]!, m[2]!];
  }));
  return { child, dataDir, ready: JSON.parse(readyLine!), env };
}

Deno.test("serve --exit-with-parent: stdin EOF stops it with 0 and removes the socket", async () => {
  const s = await sidecar([]);
  const socket = s.env.ALLTERNIT_DRIVER_SOCKET!;
  assert.equal(socket, s.ready.socket);
  assert.equal(socket, `${s.dataDir}/computer-use/allternit-driver.sock`);
  assert.equal((await Deno.lstat(socket)).mode! & 0o777, 0o600);
  assert.equal((await Deno.stat(`${s.dataDir}/computer-use`)).mode! & 0o777, 0o700);
  const client = await DriverClient.connect({ socket });
  assert.equal((await client.call("hello")).protocol, 1);
  await client.close();
  await s.child.stdin.close();
  assert.equal((await s.child.status).code, 0);
  await assert.rejects(Deno.lstat(socket), Deno.errors.NotFound);
  await s.child.stdout.cancel();
  await Deno.remove(s.dataDir, { recursive: true });
});

Deno.test("serve --tcp --print-env: endpoint and token lines work as printed", async () => {
  const s = await sidecar(["--tcp"]);
  assert.match(s.env.ALLTERNIT_DRIVER_ENDPOINT!, /^127\.0\.0\.1:\d+$/);
  assert.equal(s.env.ALLTERNIT_DRIVER_TOKEN, s.ready.token);
  const client = await DriverClient.connect({
    endpoint: s.env.ALLTERNIT_DRIVER_ENDPOINT!,
    token: s.env.ALLTERNIT_DRIVER_TOKEN!,
  });
  assert.equal((await client.call("hello")).protocol, 1);
  await client.close();
  const endpointFile = `${s.dataDir}/computer-use/driver/endpoint.json`;
  assert.equal(JSON.parse(await Deno.readTextFile(endpointFile)).token, s.ready.token);
  await s.child.stdin.close();
  assert.equal((await s.child.status).code, 0);
  await assert.rejects(Deno.lstat(endpointFile), Deno.errors.NotFound);
  await s.child.stdout.cancel();
  await Deno.remove(s.dataDir, { recursive: true });
});

Deno.test("serve --exit-with-parent: a dead parent stops it even while stdin stays open", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "allternit-sidecar-" });
  const out = `${dataDir}/ready.json`;
  const socket = `${dataDir}/computer-use/allternit-driver.sock`;
  // bash is the parent; the driver's stdin is this test's pipe (fd 3), which stays open
  // after bash is killed, so only the parent-death check can stop it.
  const parent = new Deno.Command("bash", {
    args: [
      "-c",
      'exec 3<&0; "$0" run -A "$1" serve --data-dir "$2" --exit-with-parent <&3 >"$3" 2>"$4" & echo $!; wait',
      Deno.execPath(),
      MAIN,
      dataDir,
      out,
      `${dataDir}/log.jsonl`,
    ],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const reader = parent.stdout.getReader();
  const pid = Number(dec.decode((await reader.read()).value).trim());
  reader.releaseLock();
  const alive = async () => {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
    return stat !== "" && !/^\d+ \(.*\) Z/.test(stat);
  };
  try {
    const ready = Date.now() + 20_000;
    while (!(await Deno.readTextFile(out).catch(() => "")).includes('"ready":true')) {
      assert.ok(Date.now() < ready, "no ready line");
      await new Promise((r) => setTimeout(r, 50));
    }
    parent.kill("SIGKILL");
    await parent.status;
    const gone = Date.now() + 10_000;
    while (await alive()) {
      assert.ok(Date.now() < gone, "the driver outlived its parent");
      await new Promise((r) => setTimeout(r, 50));
    }
    await assert.rejects(Deno.lstat(socket), Deno.errors.NotFound);
    const log = await Deno.readTextFile(`${dataDir}/log.jsonl`);
    assert.match(log, /"msg":"stopping","reason":"parent_exited"/);
  } finally {
    if (await alive()) Deno.kill(pid, "SIGKILL");
    await parent.stdin.close().catch(() => {});
    await parent.stdout.cancel().catch(() => {});
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
