import assert from "node:assert/strict";
import type { EngineDescriptor } from "./decide.ts";
import { RouterStore, type Schedule } from "./store.ts";

const ENGINES: EngineDescriptor[] = [
  { name: "a", ops: ["verify", "pixel_click"] },
  { name: "b", ops: ["verify", "pixel_click"] },
];
const CLICK = { op: "pixel_click", app: "Notes" } as const;
const DECIDE_CLICK = { ...CLICK, kind: "input" } as const;

// A timer the test fires by hand, recording the delays asked for.
function fakeSchedule() {
  const pending: { fn: () => void; ms: number; live: boolean }[] = [];
  const schedule: Schedule = (fn, ms) => {
    const t = { fn, ms, live: true };
    pending.push(t);
    return () => void (t.live = false);
  };
  const fire = () => {
    const live = pending.filter((t) => t.live);
    for (const t of live) t.live = false;
    for (const t of live) t.fn();
    return live.map((t) => t.ms);
  };
  return { schedule, fire, live: () => pending.filter((t) => t.live).map((t) => t.ms) };
}

// Runs `fn` with log lines (JSON on stderr) captured instead of printed.
async function capturingStderr<T>(fn: () => Promise<T>) {
  const lines: Record<string, unknown>[] = [];
  const original = Deno.stderr.writeSync;
  Deno.stderr.writeSync = (p: Uint8Array) => {
    lines.push(JSON.parse(new TextDecoder().decode(p)));
    return p.length;
  };
  try {
    return { result: await fn(), lines };
  } finally {
    Deno.stderr.writeSync = original;
  }
}

Deno.test("RouterStore keeps the table across a restart", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/driver/router.json`;
  const first = await RouterStore.open(path, ENGINES, { now: () => 5_000 });
  for (let i = 0; i < 3; i++) first.router.record(CLICK, "a", { ok: false, ms: 9 });
  for (let i = 0; i < 4; i++) first.router.decide({ op: "verify", kind: "read", app: "Notes" });
  const before = first.router.decide(DECIDE_CLICK);
  await first.close();

  // Restarted at once: the faults are as recent as they were.
  const second = await RouterStore.open(path, ENGINES, { now: () => 5_000 });
  assert.deepEqual(second.router.decide(DECIDE_CLICK), before);
  assert.deepEqual(before, { engine: "b", reason: "failures" });
  assert.deepEqual(
    second.router.stats(CLICK.op, CLICK.app, "a"),
    first.router.stats(CLICK.op, CLICK.app, "a"),
  );
  assert.equal(second.router.summary().saved_at, new Date(5_000).toISOString());
  assert.equal(second.router.toJSON().entries.find((e) => e.op === "verify")?.reads, 4);
  await second.close();
  await Deno.remove(dir, { recursive: true });
});

for (
  const [what, text] of [
    ["bad JSON", '{"version": 1, "entries": ['],
    ["a foreign file", '{"version": 2, "entries": []}'],
    ["a file failing the schema", '{"version": 1, "entries": [{"op": 3}]}'],
  ]
) {
  Deno.test(`RouterStore moves ${what} aside and starts clean`, async () => {
    const dir = await Deno.makeTempDir();
    const path = `${dir}/router.json`;
    await Deno.writeTextFile(path, text!);
    const { result: store, lines } = await capturingStderr(() =>
      RouterStore.open(path, ENGINES, { now: () => Date.UTC(2026, 9, 10) })
    );
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.level, "warn");
    assert.match(String(lines[0]?.msg), /corrupt; moved aside/);
    assert.equal(store.router.summary().entries, 0);
    const names = [];
    for await (const e of Deno.readDir(dir)) names.push(e.name);
    assert.deepEqual(names, ["router.json.corrupt-2026-10-10T00-00-00-000Z"]);
    assert.equal(await Deno.readTextFile(`${dir}/${names[0]}`), text);
    store.router.record(CLICK, "a", { ok: true, ms: 3 });
    await store.close();
    assert.equal(JSON.parse(await Deno.readTextFile(path)).version, 1);
    await Deno.remove(dir, { recursive: true });
  });
}

Deno.test("RouterStore writes at most once a second", async () => {
  const dir = await Deno.makeTempDir(); // stays empty: writes are faked
  let now = 10_000;
  const timer = fakeSchedule();
  const writes: string[] = [];
  const store = await RouterStore.open(`${dir}/router.json`, ENGINES, {
    now: () => now,
    monotonic: () => now,
    schedule: timer.schedule,
    write: (_path, data) => (writes.push(data), Promise.resolve()),
  });
  for (let i = 0; i < 5; i++) store.router.record(CLICK, "a", { ok: true, ms: 1 });
  assert.deepEqual(timer.live(), [1_000]); // five changes, one timer
  now += 1_000;
  assert.deepEqual(timer.fire(), [1_000]);
  await store.flush();
  assert.equal(writes.length, 1);
  assert.equal(JSON.parse(writes[0]!).entries[0].engines[0].calls, 5);

  now += 300;
  store.router.record(CLICK, "a", { ok: true, ms: 1 });
  assert.deepEqual(timer.live(), [700]); // one second after the last write
  now += 5_000;
  timer.fire();
  await store.flush();
  assert.equal(writes.length, 2);
  store.router.record(CLICK, "a", { ok: true, ms: 1 });
  assert.deepEqual(timer.live(), [1_000]);
  await store.close();
  assert.deepEqual(timer.live(), []);
  assert.equal(writes.length, 3);
  await Deno.remove(dir);
});

Deno.test("RouterStore spaces writes by a monotonic clock: a wall clock step back holds none", async () => {
  const dir = await Deno.makeTempDir(); // stays empty: writes are faked
  let wall = Date.parse("2026-12-07T12:00:00Z");
  let mono = 50_000;
  const timer = fakeSchedule();
  const writes: string[] = [];
  const store = await RouterStore.open(`${dir}/router.json`, ENGINES, {
    now: () => wall,
    monotonic: () => mono,
    schedule: timer.schedule,
    write: (_path, data) => (writes.push(data), Promise.resolve()),
  });
  store.router.record(CLICK, "a", { ok: true, ms: 1 });
  mono += 1_000;
  timer.fire();
  await store.flush();
  // The wall clock steps back an hour; the next write is still a second away, not an hour.
  wall -= 3_600_000;
  mono += 200;
  store.router.record(CLICK, "a", { ok: true, ms: 1 });
  assert.deepEqual(timer.live(), [800]);
  await store.close();
  assert.equal(writes.length, 2);
  await Deno.remove(dir);
});

Deno.test("RouterStore keeps changes pending when a write fails", async () => {
  const dir = await Deno.makeTempDir(); // stays empty: writes are faked
  let fail = true;
  const writes: string[] = [];
  const store = await RouterStore.open(`${dir}/router.json`, ENGINES, {
    schedule: fakeSchedule().schedule,
    write: (_path, data) => {
      if (fail) return Promise.reject(new Error("disk full"));
      writes.push(data);
      return Promise.resolve();
    },
  });
  store.router.record(CLICK, "a", { ok: true, ms: 1 });
  await assert.rejects(store.flush(), /disk full/);
  assert.equal(store.router.summary().saved_at, null);
  fail = false;
  await store.flush();
  assert.equal(writes.length, 1);
  assert.notEqual(store.router.summary().saved_at, null);
  await store.close();
  await Deno.remove(dir);
});

Deno.test("RouterStore.close() flushes and leaves no timer running", async () => {
  const dir = await Deno.makeTempDir();
  const store = await RouterStore.open(`${dir}/router.json`, ENGINES);
  store.router.record(CLICK, "b", { ok: true, ms: 1 });
  await store.close(); // the test sanitizer fails if the save timer outlives this
  store.router.record(CLICK, "b", { ok: true, ms: 1 }); // after close: not scheduled
  const saved = JSON.parse(await Deno.readTextFile(`${dir}/router.json`));
  assert.equal(saved.entries[0].engines[0].calls, 1);
  await Deno.remove(dir, { recursive: true });
});
