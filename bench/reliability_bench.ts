/**
 * `deno task bench reliability` (issue 22): the served driver against hostile and careless
 * clients, loopback only: fuzzed params for every op, wrong tokens, descriptor exhaustion,
 * connection churn and idle connections (memory before and after), kill -9 under load (are
 * router.json and audit.jsonl whole), and reads of one app while another is stopped.
 *
 * @module
 */
import { DriverClient } from "../rpc/client.ts";
import { emit, median, round } from "./stats.ts";
import { calculator, mousepad } from "../tests/support/apps.ts";
import { type DriverProcess, startDriver } from "../tests/support/driver_process.ts";
import { fuzzedRequests } from "../tests/support/fuzz.ts";
import { rssMb } from "../tests/support/proc_cost.ts";
import { LineSplitter } from "../util/framing.ts";
import { IDLE_MS } from "../driver/images/pool.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
}

/** Sends `lines` on one connection and collects the answers until `n` or `timeoutMs`. */
async function exchange(conn: Deno.Conn, lines: string[], n: number, timeoutMs: number) {
  const writing = writeAll(conn, enc.encode(lines.join("\n") + "\n")).catch(() => {});
  const out: Record<string, unknown>[] = [];
  const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
  const buf = new Uint8Array(64 * 1024);
  const timer = setTimeout(() => conn.close(), timeoutMs);
  let lost = false;
  try {
    while (out.length < n) {
      const got = await conn.read(buf).catch(() => null);
      if (got === null) {
        lost = out.length < n;
        break;
      }
      for (const f of splitter.push(buf.subarray(0, got))) {
        if ("line" in f) out.push(JSON.parse(dec.decode(f.line)));
      }
    }
  } finally {
    clearTimeout(timer);
  }
  await writing;
  return { answers: out, lost };
}

const codeOf = (a: Record<string, unknown>) =>
  (a.error as { data?: { code?: string } } | undefined)?.data?.code ?? "ok";

async function fuzz(d: DriverProcess): Promise<void> {
  const requests = fuzzedRequests(150, 2026);
  const rss0 = await rssMb(d.ready.pid);
  const conn = await Deno.connect({ transport: "unix", path: d.ready.socket! });
  const t0 = performance.now();
  const { answers, lost } = await exchange(
    conn,
    requests.map((r) => JSON.stringify({ jsonrpc: "2.0", ...r })),
    requests.length,
    120_000,
  );
  const ms = performance.now() - t0;
  try {
    conn.close();
  } catch { /* closed by the timer */ }
  const codes: Record<string, number> = {};
  for (const a of answers) codes[codeOf(a)] = (codes[codeOf(a)] ?? 0) + 1;
  const structured = answers.filter((a) => a.result !== undefined || codeOf(a) !== "ok").length;
  emit({
    bench: "reliability: fuzzed params, every op",
    figure: requests.length,
    unit: "inputs",
    note: `${structured} structured answers, ${requests.length - answers.length} hangs, ` +
      `${codes.internal ?? 0} internal, lost connection: ${lost}; ${
        Object.entries(codes).map(([c, n]) => `${c} ${n}`).join(", ")
      }; ${round(ms)} ms; driver RSS ${round(rss0)} → ${round(await rssMb(d.ready.pid))} MB`,
  });
}

async function tokens(): Promise<void> {
  const d = await startDriver(["serve", "--tcp"]);
  try {
    const [host, port] = d.ready.endpoint!.split(":");
    const token = d.ready.token!;
    const variants = [
      undefined,
      "",
      token.slice(0, -1),
      token + "0",
      token.toUpperCase(),
      "0".repeat(64),
      ` ${token}`,
      token.slice(1) + token[0],
      ...Array.from({ length: 12 }, (_, i) => token.slice(0, i * 5) + "f".repeat(64 - i * 5)),
    ];
    const conn = await Deno.connect({ hostname: host!, port: Number(port) });
    const times: number[] = [];
    let refused = 0;
    for (const [i, t] of variants.entries()) {
      const req = {
        jsonrpc: "2.0",
        id: i,
        method: "hello",
        ...(t === undefined ? {} : { token: t }),
      };
      const t0 = performance.now();
      const { answers } = await exchange(conn, [JSON.stringify(req)], 1, 5_000);
      times.push(performance.now() - t0);
      if (answers[0] && codeOf(answers[0]) === "unauthorized") refused++;
    }
    conn.close();
    emit({
      bench: "reliability: wrong tokens refused",
      figure: refused,
      unit: `of ${variants.length}`,
      note: `median answer ${round(median(times))} ms, slowest ${round(Math.max(...times))} ms`,
    });
  } finally {
    await d.stop();
  }
}

async function descriptors(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "allternit-bench-" });
  await Deno.mkdir(`${dir}/computer-use/driver`, { recursive: true });
  await Deno.writeTextFile(`${dir}/computer-use/driver/config.jsonc`, '{"max_connections":10000}');
  const d = await startDriver(["serve"], {
    dataDir: dir,
    under: ["prlimit", "--nofile=100", "--"],
  });
  const conns: Deno.Conn[] = [];
  try {
    for (let i = 0; i < 300; i++) {
      conns.push(await Deno.connect({ transport: "unix", path: d.ready.socket! }));
    }
    await sleep(500);
    for (const c of conns.splice(0)) c.close();
    const t0 = performance.now();
    const client = await DriverClient.connect({ socket: d.ready.socket! });
    const ok = await client.call("hello", { timeout_ms: 10_000 }).then(() => true, () => false);
    await client.close();
    emit({
      bench: "reliability: descriptors exhausted (300 clients, 100 fds), then served",
      figure: round(performance.now() - t0),
      unit: "ms",
      note: `served again: ${ok}; accept errors logged: ${d.stderr().includes("accept failed")}`,
    });
  } finally {
    for (const c of conns) c.close();
    await d.stop();
  }
}

async function churn(d: DriverProcess): Promise<void> {
  const pid = d.ready.pid;
  const rss0 = await rssMb(pid);
  let errors = 0;
  for (let i = 0; i < 1_000; i++) {
    const c = await DriverClient.connect({ socket: d.ready.socket! });
    await c.call("hello").catch(() => errors++);
    await c.close();
  }
  await sleep(500);
  const rss1 = await rssMb(pid);
  const idle: Deno.Conn[] = [];
  for (let i = 0; i < 200; i++) {
    idle.push(await Deno.connect({ transport: "unix", path: d.ready.socket! }));
  }
  await sleep(500);
  const rss2 = await rssMb(pid);
  for (const c of idle) c.close();
  await sleep(1_000);
  const rss3 = await rssMb(pid);
  await sleep(IDLE_MS + 1_000);
  const rss4 = await rssMb(pid);
  emit({
    bench: "reliability: 1,000 connections opened, served and closed",
    figure: errors,
    unit: "errors",
    note: `driver RSS ${round(rss0)} → ${round(rss1)} MB after them; with 200 idle connections ${
      round(rss2)
    } MB, after they closed ${round(rss3)} MB; once the image worker stopped (idle) ${
      round(rss4)
    } MB`,
  });
}

async function killNine(): Promise<void> {
  const app = await calculator();
  const dir = await Deno.makeTempDir({ prefix: "allternit-bench-" });
  let whole = 0;
  let partial = 0;
  let routerOk = 0;
  const rounds = 10;
  try {
    for (let i = 0; i < rounds; i++) {
      const d = await startDriver(["serve"], { dataDir: dir });
      const c = await DriverClient.connect({ socket: d.ready.socket! });
      const load = Array.from({ length: 8 }, () =>
        (async () => {
          for (let k = 0; k < 50; k++) {
            await c.call("read_ui", { app: app.pid, fresh: k % 5 === 0 }).catch(() => {});
          }
        })());
      await sleep(300 + 70 * i);
      d.child.kill("SIGKILL");
      await d.child.status;
      await Promise.allSettled(load);
      await c.close().catch(() => {});
      const file = `${dir}/computer-use/driver`;
      const router = await Deno.readTextFile(`${file}/router.json`).catch(() => "{}");
      try {
        JSON.parse(router);
        routerOk++;
      } catch { /* counted */ }
      const audit = await Deno.readTextFile(`${file}/audit.jsonl`).catch(() => "");
      for (const line of audit.split("\n").filter(Boolean)) {
        try {
          JSON.parse(line);
          whole++;
        } catch {
          partial++;
        }
      }
      if (!audit.endsWith("\n") && audit.length > 0) partial++;
      await Deno.remove(`${file}/audit.jsonl`).catch(() => {});
    }
  } finally {
    await app.stop();
  }
  emit({
    bench: "reliability: kill -9 under load, partial audit lines",
    figure: partial,
    unit: "lines",
    note: `${rounds} kills while 8 clients read; router.json parsed ${routerOk}/${rounds}; ` +
      `${whole} whole audit lines`,
  });
}

async function stopped(d: DriverProcess): Promise<void> {
  const pad = await mousepad();
  const calc = await calculator();
  const c = await DriverClient.connect({ socket: d.ready.socket! });
  try {
    await c.call("read_ui", { app: pad.pid });
    const w = (await c.call("read_ui", { app: calc.pid })).window;
    const time = async () => {
      const xs: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        await c.call("read_ui", { window: w, fresh: i % 2 === 0 });
        xs.push(performance.now() - t0);
      }
      return median(xs);
    };
    const before = await time();
    Deno.kill(pad.pid, "SIGSTOP");
    let during = 0;
    let frozen = "";
    try {
      during = await time();
      await sleep(2_500); // a probe period: the background probe finds the app hung
      const t0 = performance.now();
      frozen = await c.call("read_ui", { app: pad.pid, timeout_ms: 5_000 })
        .then((r) => `${r.live.state} ${r.live.reason ?? ""} (map ${r.live.age_ms} ms old)`)
        .catch((e) => e.code);
      frozen += ` in ${round(performance.now() - t0)} ms`;
    } finally {
      Deno.kill(pad.pid, "SIGCONT");
    }
    emit({
      bench: "reliability: reads of one app while another is stopped (median)",
      figure: round(during),
      unit: "ms",
      peer: "no app stopped",
      peer_figure: round(before),
      ratio: round(before / during),
      note: `the stopped app's read answered: ${frozen}`,
    });
  } finally {
    await c.close();
    await pad.stop();
    await calc.stop();
  }
}

/** How long a `hello` waits at most while heavy ops (full-screen images) run. */
async function loopLag(d: DriverProcess): Promise<void> {
  const heavy = await DriverClient.connect({ socket: d.ready.socket! });
  const probe = await DriverClient.connect({ socket: d.ready.socket! });
  try {
    const quiet: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      await probe.call("hello");
      quiet.push(performance.now() - t0);
    }
    const screen = await heavy.call("screenshot");
    const full = { x: 0, y: 0, w: screen.width, h: screen.height };
    let running = true;
    const work = Promise.all(
      Array.from(
        { length: 12 },
        (_, i) =>
          i % 2
            ? heavy.call("screenshot")
            : heavy.call("zoom", { region: full, scale: Math.min(1.5, 2048 / screen.width) }),
      ),
    ).finally(() => running = false);
    const busy: number[] = [];
    while (running) {
      const t0 = performance.now();
      await probe.call("hello");
      busy.push(performance.now() - t0);
      await sleep(5);
    }
    await work;
    emit({
      bench: "reliability: hello round trip while 12 full-screen images are made (max)",
      figure: round(Math.max(...busy)),
      unit: "ms",
      peer: "idle driver (max)",
      peer_figure: round(Math.max(...quiet)),
      note: `median ${round(median(busy))} ms over ${busy.length} hellos; idle median ${
        round(median(quiet))
      } ms`,
    });
  } finally {
    await heavy.close();
    await probe.close();
  }
}

const d = await startDriver(["serve"]);
try {
  await fuzz(d);
  await loopLag(d);
  await churn(d);
  await stopped(d);
} finally {
  await d.stop();
}
await tokens();
await descriptors();
await killNine();
