/**
 * Hostile and careless clients (issue 22), on the real `serve` process, loopback only and
 * with bounded loops. Each test names the defect it holds fixed: every one of them failed
 * on the tree before its fix.
 */
import assert from "node:assert/strict";
import { type DriverProcess, startDriver } from "./support/driver_process.ts";
import { DriverClient } from "../rpc/client.ts";
import { LineSplitter } from "../util/framing.ts";
import { desktopTests } from "./support/desktop.ts";
import { calculator, mousepad, xdotoolClick } from "./support/apps.ts";
import { centre, session } from "./support/client.ts";
import { oracleFocusedLength } from "./support/oracle.ts";
import { fuzzedRequests } from "./support/fuzz.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const enc = new TextEncoder();
const dec = new TextDecoder();
const HELLO = '{"jsonrpc":"2.0","id":1,"method":"hello"}\n';

/** A data folder holding `config` as its config.jsonc. */
async function dataDirWith(config: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "allternit-rel-" });
  await Deno.mkdir(`${dir}/computer-use/driver`, { recursive: true });
  await Deno.writeTextFile(`${dir}/computer-use/driver/config.jsonc`, config);
  return dir;
}

/** Reads answer lines from `conn` until `n` came or the peer closed; raw text kept. */
async function lines(conn: Deno.Conn, n: number, timeoutMs = 10_000): Promise<string[]> {
  const out: string[] = [];
  const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
  const buf = new Uint8Array(64 * 1024);
  const timer = setTimeout(() => conn.close(), timeoutMs);
  try {
    while (out.length < n) {
      const got = await conn.read(buf).catch(() => null);
      if (got === null) break;
      for (const f of splitter.push(buf.subarray(0, got))) {
        if ("line" in f) out.push(dec.decode(f.line));
      }
    }
  } finally {
    clearTimeout(timer);
  }
  return out;
}

/** Writes all of `bytes` (one `write` may take only part of them). */
async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
}

/** True when the peer closed `conn` within `ms`. */
async function closedWithin(conn: Deno.Conn, ms: number): Promise<boolean> {
  const buf = new Uint8Array(1024);
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const got = await Promise.race([
      conn.read(buf).catch(() => null),
      new Promise<"wait">((ok) => setTimeout(() => ok("wait"), deadline - Date.now())),
    ]);
    if (got === null) return true;
    if (got === "wait") return false;
  }
  return false;
}

const unix = (d: DriverProcess) => () => Deno.connect({ transport: "unix", path: d.ready.socket! });

Deno.test("defect 1: out of file descriptors, the listener backs off and serves again", async () => {
  // 100 descriptors: Deno and the driver use about 40, so 150 clients exhaust them.
  const dataDir = await dataDirWith('{ "max_connections": 10000 }');
  const d = await startDriver(["serve"], { dataDir, under: ["prlimit", "--nofile=100", "--"] });
  const conns: Deno.Conn[] = [];
  try {
    for (let i = 0; i < 150; i++) conns.push(await unix(d)());
    const deadline = Date.now() + 10_000;
    while (!d.stderr().includes("accept failed") && Date.now() < deadline) {
      await new Promise((ok) => setTimeout(ok, 50));
    }
    assert.match(d.stderr(), /accept failed/, "the driver ran out of descriptors");
    for (const c of conns.splice(0)) c.close();
    const client = await DriverClient.connect({ socket: d.ready.socket! });
    const hello = await client.call("hello", { timeout_ms: 5_000 });
    assert.equal(hello.protocol, 1, "a client is served after the others closed");
    await client.close();
    assert.doesNotMatch(d.stderr(), /listener stopped/);
  } finally {
    for (const c of conns) c.close();
    assert.equal(await d.stop(), 0);
  }
});

Deno.test("defect 1: past max_connections a client is told busy; a freed slot serves again", async () => {
  const dataDir = await dataDirWith('{ "max_connections": 4 }');
  const d = await startDriver(["serve"], { dataDir });
  const held: Deno.Conn[] = [];
  try {
    for (let i = 0; i < 4; i++) {
      const c = await unix(d)();
      await c.write(enc.encode(HELLO));
      assert.equal((await lines(c, 1)).length, 1, "served while under the cap");
      held.push(c);
    }
    const fifth = await unix(d)();
    const [refusal] = await lines(fifth, 2);
    const err = JSON.parse(refusal!).error;
    assert.equal(err.data.code, "busy");
    assert.equal(err.data.max_connections, 4);
    assert.ok(await closedWithin(fifth, 2_000), "the refused connection is closed");
    fifth.close();
    held.pop()!.close();
    await new Promise((ok) => setTimeout(ok, 100));
    const again = await unix(d)();
    await again.write(enc.encode(HELLO));
    assert.ok(JSON.parse((await lines(again, 1))[0]!).result, "a freed slot is served");
    again.close();
  } finally {
    for (const c of held) c.close();
    assert.equal(await d.stop(), 0);
  }
});

Deno.test("defect 1: a connection that never sends a request is closed; a session stays", async () => {
  const dataDir = await dataDirWith('{ "connection_idle_ms": 300, "session_idle_ms": 60000 }');
  const d = await startDriver(["serve", "--tcp"], { dataDir });
  try {
    const [host, port] = d.ready.endpoint!.split(":");
    const connect = () => Deno.connect({ hostname: host!, port: Number(port) });
    const silent = await connect();
    const [notice] = await lines(silent, 1, 5_000);
    assert.equal(JSON.parse(notice!).error.data.code, "timeout", "told why");
    assert.ok(await closedWithin(silent, 2_000), "the silent connection is closed");
    silent.close();

    const session = await connect();
    const hello = { jsonrpc: "2.0", id: 1, method: "hello", token: d.ready.token };
    await session.write(enc.encode(JSON.stringify(hello) + "\n"));
    assert.ok(JSON.parse((await lines(session, 1))[0]!).result);
    // Quiet for four times the limit of a connection that never sent a request.
    await new Promise((ok) => setTimeout(ok, 1_200));
    await session.write(enc.encode(JSON.stringify({ ...hello, id: 2 }) + "\n"));
    assert.equal(JSON.parse((await lines(session, 1))[0]!).id, 2);
    session.close();
  } finally {
    assert.equal(await d.stop(), 0);
  }
});

Deno.test("defect 12: refused token attempts are logged once and each one counted in the audit", async () => {
  const d = await startDriver(["serve", "--tcp"]);
  try {
    const [host, port] = d.ready.endpoint!.split(":");
    const conn = await Deno.connect({ hostname: host!, port: Number(port) });
    const tries = [undefined, "", "0".repeat(64), d.ready.token + "x"];
    for (const [i, token] of tries.entries()) {
      const req = { jsonrpc: "2.0", id: i, method: "read_ui", ...(token ? { token } : {}) };
      await conn.write(enc.encode(JSON.stringify(req) + "\n"));
    }
    const answers = (await lines(conn, tries.length)).map((l) => JSON.parse(l));
    assert.deepEqual(answers.map((a) => a.error.data.code), tries.map(() => "unauthorized"));
    conn.close();
  } finally {
    assert.equal(await d.stop(), 0);
  }
  assert.equal(d.stderr().match(/request refused/g)?.length, 1, "logged once, not per try");
  assert.doesNotMatch(d.stderr(), new RegExp(d.ready.token!), "the token is never logged");
  const audit = (await Deno.readTextFile(`${d.dataDir}/computer-use/driver/audit.jsonl`))
    .trim().split("\n").map((l) => JSON.parse(l));
  const refused = audit.filter((a) => a.outcome === "unauthorized");
  // The connection closes at the third refusal and the audit counts refusals (issue 48).
  const counted = refused.reduce((n, a) => n + (a.count ?? 1), 0);
  assert.equal(counted, 3, "every refused request is counted");
  assert.ok(refused.every((a) => a.op === "read_ui" && a.reason === "transport"));
});

Deno.test("defect 12: integer ids past 2^53 come back as sent", async () => {
  const d = await startDriver(["serve"]);
  try {
    const conn = await unix(d)();
    const ids = ["9007199254740993", "-9007199254740993", "123456789012345678901234567890"];
    for (const id of ids) {
      await conn.write(enc.encode(`{"jsonrpc":"2.0","method":"hello","id":${id}}\n`));
    }
    await conn.write(enc.encode(`{"jsonrpc":"2.0","id":18446744073709551617,"method":"nope"}\n`));
    const got = await lines(conn, 4);
    for (const id of ids) {
      assert.ok(got.some((l) => l.startsWith(`{"jsonrpc":"2.0","id":${id},"result":`)), id);
    }
    assert.ok(
      got.some((l) => l.startsWith('{"jsonrpc":"2.0","id":18446744073709551617,"error":')),
      "errors keep the id too",
    );
    conn.close();
  } finally {
    assert.equal(await d.stop(), 0);
  }
});

/** Runs `main.ts serve ARGS` to its exit; returns the code and what it printed. */
async function serveExit(args: string[], dataDir: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "serve", ...args, "--data-dir", dataDir],
    stdin: "null",
    env: { ALLTERNIT_LOG_LEVEL: "info" },
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("defect 7: --socket in a folder others can write to is refused, the folder unchanged", async () => {
  const shared = await Deno.makeTempDir({ prefix: "allternit-shared-" });
  await Deno.chmod(shared, 0o1777);
  const dataDir = await Deno.makeTempDir({ prefix: "allternit-rel-" });
  const r = await serveExit(["--socket", `${shared}/x.sock`], dataDir);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /others can write to it \(mode 1777\)/);
  assert.doesNotMatch(r.stderr, /\n\s+at /, "a sentence, not a stack trace");
  assert.equal((await Deno.stat(shared)).mode! & 0o7777, 0o1777, "the folder is untouched");

  // A folder the driver creates is made private.
  const d = await startDriver(["serve", "--socket", `${shared}/own/deeper/x.sock`], { dataDir });
  try {
    assert.equal((await Deno.stat(`${shared}/own/deeper`)).mode! & 0o777, 0o700);
  } finally {
    assert.equal(await d.stop(), 0);
  }
  assert.equal((await Deno.stat(shared)).mode! & 0o7777, 0o1777);
});

Deno.test("defect 12: a non-loopback --host is a usage error (2), no stack trace", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "allternit-rel-" });
  for (const host of ["0.0.0.0", "192.168.1.10", "::"]) {
    const r = await serveExit(["--tcp", "--host", host], dataDir);
    assert.equal(r.code, 2, host);
    assert.match(r.stderr, /only loopback addresses are allowed/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
});

Deno.test("defect 10: config values that would break the driver are refused with their line", async () => {
  const cases: [string, RegExp][] = [
    ['{\n  "versions": 8,\n  "watchdog_ms": 1\n}', /line 3: watchdog_ms: must be 0 \(off\)/],
    ['{\n  "request_timeout_ms": 0\n}', /line 2: request_timeout_ms/],
    ['{\n\n  "app_timeout_ms": 0\n}', /line 3: app_timeout_ms/],
    ['{\n  "versions": "eight"\n}', /line 2: versions: .*number/],
    ['{\n  "version": 8\n}', /line 2: version: Unrecognized key/],
    ["[8]", /line 1: expected an object/],
  ];
  for (const [config, message] of cases) {
    const r = await serveExit([], await dataDirWith(config));
    assert.equal(r.code, 1, config);
    assert.match(r.stderr, message, config);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
  // An emptied config (blank, or only comments) means the defaults.
  for (const config of ["", "// all defaults\n"]) {
    const d = await startDriver(["serve"], { dataDir: await dataDirWith(config) });
    assert.equal(await d.stop(), 0, JSON.stringify(config));
  }
});

Deno.test({
  name:
    "defect 9: pixel_type_text stops at its deadline; the app gets no more keys, others are served",
  ...desktopTests(),
  async fn() {
    const app = await mousepad();
    const s = await session();
    try {
      const r = await s.client.call("read_ui", { app: app.pid });
      const area = r.elements!.find((e) => e.role === "AXTextArea")!;
      // The X focus on mousepad's window whatever an earlier test left it on (keys go to it,
      // and it is the app the driver paces its typing by).
      const xdotool = async (...args: string[]) => {
        const out = await new Deno.Command("xdotool", { args, stderr: "null" }).output();
        assert.ok(out.success, `xdotool ${args.join(" ")}`);
        return dec.decode(out.stdout).trim();
      };
      const win = (await xdotool("search", "--onlyvisible", "--pid", String(app.pid)))
        .split("\n")[0]!;
      await xdotool("windowfocus", "--sync", win);
      await xdotoolClick(centre(area).x, centre(area).y);
      assert.equal(await oracleFocusedLength(app.pid), 0, "the text view has the focus");
      const text = "a".repeat(10_000);
      let typingDone = false;
      const typing = s.client.call("pixel_type_text", { text, timeout_ms: 1_000 })
        .then(() => "ok", (e) => e.code as string)
        .finally(() => typingDone = true);
      await new Promise((ok) => setTimeout(ok, 200));
      const other = await DriverClient.connect({ socket: s.proc.ready.socket! });
      await other.call("hello");
      assert.equal(typingDone, false, "a second client is served while keys are typed");
      await other.close();
      assert.equal(await typing, "timeout");
      const atAnswer = await oracleFocusedLength(app.pid);
      await new Promise((ok) => setTimeout(ok, 1_000));
      const later = await oracleFocusedLength(app.pid);
      assert.ok(atAnswer! > 0 && atAnswer! < text.length, `typed part of it: ${atAnswer}`);
      // At most one paced chunk was still on its way when the deadline passed.
      assert.ok(later! - atAnswer! <= 64, `no keys after the answer: ${atAnswer} → ${later}`);
    } finally {
      await s.close();
      await app.stop();
    }
  },
});

Deno.test({
  name: "defect 3: zoom answers within a pixel budget; images are encoded off the event loop",
  ...desktopTests(),
  async fn() {
    const s = await session();
    try {
      const screen = await s.client.call("screenshot");
      const full = { x: 0, y: 0, w: screen.width, h: screen.height };
      const err = await s.client.call("zoom", { region: full, scale: 8 }).catch((e) => e);
      assert.equal(err.code, "invalid_params");
      assert.deepEqual(err.data.issues[0].path, ["scale"]);
      assert.match(err.message, /smaller region or scale/);

      const zoomed = await s.client.call("zoom", {
        region: { x: 10, y: 20, w: 100, h: 50 },
        scale: 4,
      });
      assert.deepEqual([zoomed.width, zoomed.height, zoomed.scale], [400, 200, 4]);

      // Six full-screen images at once; a hello sent after them is answered first.
      let imagesDone = 0;
      const images = Array.from(
        { length: 6 },
        (_, i) =>
          (i % 2 ? s.client.call("screenshot") : s.client.call("zoom", { region: full, scale: 1 }))
            .then((r) => (imagesDone++, r)),
      );
      await new Promise((ok) => setTimeout(ok, 50));
      await s.client.call("hello");
      assert.ok(imagesDone < 6, `hello waited for ${imagesDone} of 6 images`);
      for (const r of await Promise.all(images)) assert.equal(r.width, screen.width);
    } finally {
      await s.close();
    }
  },
});

Deno.test("defect 6: client-chosen strings are bounded before router.json and the audit log", async () => {
  const d = await startDriver(["serve"]);
  try {
    const client = await DriverClient.connect({ socket: d.ready.socket! });
    for (let i = 0; i < 5; i++) {
      const app = `${i}${"x".repeat(4 * 1024 * 1024 - 100)}`;
      const err = await client.call("read_ui", { app }).catch((e) => e);
      assert.equal(err.code, "invalid_params");
      assert.deepEqual(err.data.issues[0].path, ["app"]);
    }
    assert.equal((await client.call("hello")).protocol, 1);
    await client.close();
  } finally {
    assert.equal(await d.stop(), 0);
  }
  const dir = `${d.dataDir}/computer-use/driver`;
  for (const file of ["router.json", "audit.jsonl"]) {
    const size = await Deno.stat(`${dir}/${file}`).then((s) => s.size, () => 0);
    assert.ok(size < 64 * 1024, `${file} is ${size} bytes`);
  }
});

/** The session's at-spi2-registryd, from the pids desktop-session.sh started. */
async function registryPid(): Promise<number> {
  const dir = Deno.env.get("ALLTERNIT_SESSION_DIR") ?? "/tmp/allternit-desktop";
  const pids = (await Deno.readTextFile(`${dir}/pids`)).split("\n").filter(Boolean).map(Number);
  for (const pid of pids) {
    const comm = await Deno.readTextFile(`/proc/${pid}/comm`).catch(() => "");
    if (comm.trim().startsWith("at-spi2-registr")) return pid;
  }
  throw new Error(`No at-spi2-registryd among the session's pids ${pids}`);
}

const windowIds = (apps: { windows: { window: string }[] }[]) =>
  apps.flatMap((a) => a.windows.map((w) => w.window));

Deno.test({
  name:
    "defect 4: after the registry stalls, list_apps comes from the tree again, with read_ui's ids",
  ...desktopTests(),
  async fn() {
    const calc = await calculator();
    const s = await session();
    const registry = await registryPid();
    try {
      const before = await s.client.call("read_ui", { app: calc.pid });
      assert.equal(before.engine, "atspi");
      Deno.kill(registry, "SIGSTOP");
      try {
        for (let i = 0; i < 4; i++) {
          const r = await s.client.call("list_apps", { timeout_ms: 700 }).catch((e) => e);
          assert.notEqual(r.engine, "vision", "a tree app's windows are not listed by vision");
        }
      } finally {
        Deno.kill(registry, "SIGCONT");
      }
      for (let i = 0; i < 10; i++) {
        const listed = await s.client.call("list_apps");
        assert.equal(listed.engine, "atspi", `list_apps ${i} after the stall`);
        const read = await s.client.call("read_ui", { app: calc.pid });
        assert.equal(read.engine, "atspi");
        assert.ok(windowIds(listed.apps).includes(read.window), "list_apps lists read_ui's window");
      }
    } finally {
      await s.close();
      await calc.stop();
    }
  },
});

Deno.test({
  name: "defect 5: a relaunched app is read from its tree as soon as the tree is there",
  ...desktopTests(),
  async fn() {
    const s = await session();
    let calc = await calculator();
    try {
      assert.equal((await s.client.call("read_ui", { app: "gnome-calculator" })).engine, "atspi");
      await calc.stop();
      const child = new Deno.Command("gnome-calculator", { stdout: "null", stderr: "null" })
        .spawn();
      calc = { pid: child.pid, stop: () => stopChild(child) };
      const deadline = Date.now() + 20_000;
      const engines: string[] = [];
      while (Date.now() < deadline && engines.filter((e) => e === "atspi").length < 5) {
        const r = await s.client.call("read_ui", { app: "gnome-calculator" }).catch((e) => e);
        if (r.engine) engines.push(r.engine);
        await new Promise((ok) => setTimeout(ok, 200));
      }
      const first = engines.indexOf("atspi");
      assert.ok(first >= 0, `never read from the tree: ${engines}`);
      assert.deepEqual(engines.slice(first), Array(engines.length - first).fill("atspi"));
      const byPid = await s.client.call("read_ui", { app: child.pid });
      assert.equal(byPid.engine, "atspi");
      const listed = await s.client.call("list_apps");
      assert.ok(windowIds(listed.apps).includes(byPid.window));
    } finally {
      await s.close();
      await calc.stop();
    }
  },
});

async function stopChild(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGKILL");
  } catch { /* gone */ }
  await child.status;
}

Deno.test({
  name: "defect 11: a stopped app's reads say app_not_responding with the map's age",
  ...desktopTests(),
  async fn() {
    const pad = await mousepad();
    const calc = await calculator();
    const s = await session({}, { probe_ms: 300 });
    try {
      const r = await s.client.call("read_ui", { app: pad.pid });
      assert.equal(r.live.state, "live");
      Deno.kill(pad.pid, "SIGSTOP");
      try {
        await new Promise((ok) => setTimeout(ok, 1_500));
        const frozen = await s.client.call("read_ui", { window: r.window, timeout_ms: 5_000 });
        assert.deepEqual(
          [frozen.live.state, frozen.live.reason],
          ["degraded", "app_not_responding"],
        );
        assert.ok(frozen.live.age_ms! >= 1_000, `age ${frozen.live.age_ms}`);
        assert.equal(frozen.version, r.version, "the map it last showed");
        const other = await s.client.call("read_ui", { app: calc.pid });
        assert.equal(other.live.state, "live", "other apps read as usual");
      } finally {
        Deno.kill(pad.pid, "SIGCONT");
      }
      const deadline = Date.now() + 10_000;
      let state = "degraded";
      while (state !== "live" && Date.now() < deadline) {
        state = (await s.client.call("read_ui", { window: r.window })).live.state;
      }
      assert.equal(state, "live", "live again once the app answers");
    } finally {
      await s.close();
      await pad.stop();
      await calc.stop();
    }
  },
});

Deno.test({
  name: "defect 12: read_ui naming an app and another app's window is invalid_params",
  ...desktopTests(),
  async fn() {
    const pad = await mousepad();
    const calc = await calculator();
    const s = await session();
    try {
      const c = await s.client.call("read_ui", { app: calc.pid });
      for (const fresh of [false, true]) {
        const err = await s.client.call("read_ui", { app: "mousepad", window: c.window, fresh })
          .catch((e) => e);
        assert.equal(err.code, "invalid_params");
        assert.match(err.message, /belongs to "gnome-calculator"/);
      }
      const pidErr = await s.client.call("read_ui", { app: pad.pid, window: c.window })
        .catch((e) => e);
      assert.equal(pidErr.code, "invalid_params");
      const same = await s.client.call("read_ui", { app: "Gnome-Calculator", window: c.window });
      assert.equal(same.window, c.window);
    } finally {
      await s.close();
      await pad.stop();
      await calc.stop();
    }
  },
});

Deno.test({
  name:
    "fuzzed params for every op: each gets a structured answer, none internal, the driver serves on",
  ...desktopTests(),
  async fn() {
    const d = await startDriver(["serve"]);
    try {
      const requests = fuzzedRequests(25, 22);
      const conn = await unix(d)();
      const payload = requests.map((r) => JSON.stringify({ jsonrpc: "2.0", ...r })).join("\n");
      const writing = writeAll(conn, enc.encode(payload + "\n"));
      const answers = (await lines(conn, requests.length, 60_000)).map((l) => JSON.parse(l));
      await writing;
      conn.close();
      assert.equal(answers.length, requests.length, "every request answered");
      const internal = answers.filter((a) => a.error?.data?.code === "internal");
      assert.deepEqual(
        internal.map((a) => [requests[a.id - 1]!.method, a.error.message]),
        [],
        "no input is a bug",
      );
      assert.ok(
        answers.every((a) => a.result !== undefined || typeof a.error?.data?.code === "string"),
      );
      const client = await DriverClient.connect({ socket: d.ready.socket! });
      assert.equal((await client.call("hello")).protocol, 1);
      await client.close();
    } finally {
      assert.equal(await d.stop(), 0);
    }
  },
});
