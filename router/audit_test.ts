import assert from "node:assert/strict";
import { type AuditEntry, AuditLog, MAX_QUEUED_BYTES } from "./audit.ts";

function entry(seq: number): AuditEntry {
  return {
    ts: new Date(Date.UTC(2026, 9, 10, 0, 0, 0, seq)).toISOString(),
    op: "read_ui",
    app: "Notes",
    window: `0x${seq.toString(16)}`,
    engine: seq % 2 ? "atspi" : "vision",
    reason: "default",
    ms: seq,
    outcome: "ok",
  };
}

// Parses every line of `path`; throws on a torn or partial line.
async function lines(path: string): Promise<AuditEntry[]> {
  const text = await Deno.readTextFile(path);
  assert.ok(text.endsWith("\n"), "the file ends with a whole line");
  return text.slice(0, -1).split("\n").map((l) => JSON.parse(l) as AuditEntry);
}

Deno.test("AuditLog writes 1,000 concurrent appends as 1,000 whole lines in order", async () => {
  const dir = await Deno.makeTempDir();
  const audit = new AuditLog(`${dir}/audit.jsonl`);
  await Promise.all(Array.from({ length: 1_000 }, async (_, i) => {
    await Promise.resolve();
    audit.append(entry(i));
  }));
  await audit.close();
  const got = await lines(`${dir}/audit.jsonl`);
  assert.equal(got.length, 1_000);
  assert.deepEqual(got.map((e) => e.ms), Array.from({ length: 1_000 }, (_, i) => i));
  assert.deepEqual(got[7], entry(7));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("AuditLog lines from two writers on one file never interleave", async () => {
  const dir = await Deno.makeTempDir();
  const [one, two] = [new AuditLog(`${dir}/audit.jsonl`), new AuditLog(`${dir}/audit.jsonl`)];
  for (let i = 0; i < 500; i++) {
    one.append(entry(i));
    two.append({ ...entry(i), op: "act", window: "w".repeat(i) }); // lines of varied length
  }
  await Promise.all([one.close(), two.close()]);
  const got = await lines(`${dir}/audit.jsonl`);
  assert.equal(got.length, 1_000);
  assert.equal(got.filter((e) => e.op === "act").length, 500);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("AuditLog rotates at maxBytes to one .1 file, keeping every line whole", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/audit.jsonl`;
  const maxBytes = 2_000;
  const audit = new AuditLog(path, { maxBytes });
  for (let i = 0; i < 300; i++) audit.append(entry(i));
  await audit.close();
  const [old, current] = [await lines(`${path}.1`), await lines(path)];
  assert.ok((await Deno.stat(path)).size <= maxBytes);
  assert.ok((await Deno.stat(`${path}.1`)).size <= maxBytes);
  const seqs = [...old, ...current].map((e) => e.ms);
  assert.equal(seqs.at(-1), 299);
  assert.deepEqual(seqs, seqs.map((_, i) => seqs[0]! + i)); // contiguous: nothing lost
  const names = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  assert.deepEqual(names.sort(), ["audit.jsonl", "audit.jsonl.1"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("AuditLog continues an existing file and counts its size", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/audit.jsonl`;
  const line = JSON.stringify(entry(0)) + "\n";
  await Deno.writeTextFile(path, line);
  const audit = new AuditLog(path, { maxBytes: line.length + 10 });
  audit.append(entry(1)); // would pass maxBytes: the old line moves to .1
  await audit.close();
  assert.deepEqual((await lines(`${path}.1`)).map((e) => e.ms), [0]);
  assert.deepEqual((await lines(path)).map((e) => e.ms), [1]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("AuditLog.append() never throws when the file cannot be written", async () => {
  const dir = await Deno.makeTempDir();
  const audit = new AuditLog(`${dir}/missing/audit.jsonl`);
  const original = Deno.stderr.writeSync;
  const logged: string[] = [];
  Deno.stderr.writeSync = (p: Uint8Array) => (logged.push(new TextDecoder().decode(p)), p.length);
  try {
    for (let i = 0; i < 3; i++) audit.append(entry(i));
    await audit.flush();
  } finally {
    Deno.stderr.writeSync = original;
  }
  assert.equal(logged.length, 1, "one warning per failure streak");
  assert.match(logged[0]!, /Cannot write the audit log/);
  await audit.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("AuditLog.close() writes what is queued and ignores later appends", async () => {
  const dir = await Deno.makeTempDir();
  const audit = new AuditLog(`${dir}/audit.jsonl`);
  audit.append(entry(1));
  const closed = audit.close();
  audit.append(entry(2));
  await closed;
  await audit.close();
  assert.deepEqual((await lines(`${dir}/audit.jsonl`)).map((e) => e.ms), [1]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("AuditLog keeps up with a tight loop of appends: what queued during a write goes out in the next", async () => {
  const dir = await Deno.makeTempDir();
  const audit = new AuditLog(`${dir}/audit.jsonl`);
  // A client reading in a loop appends between the file's writes: with one line per write
  // the queue held every line appended faster than a write's round trip, without bound.
  let most = 0;
  for (let i = 0; i < 20_000; i++) {
    audit.append(entry(i));
    if (i % 100 === 99) {
      await new Promise((r) => setTimeout(r, 0));
      most = Math.max(most, audit.pending);
    }
  }
  await audit.close();
  assert.ok(most <= 1_000, `at most 1,000 lines wait (saw ${most})`);
  const got = await lines(`${dir}/audit.jsonl`);
  assert.deepEqual(got.map((e) => e.ms), Array.from({ length: 20_000 }, (_, i) => i));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("AuditLog drops lines past MAX_QUEUED_BYTES waiting, keeping the ones it took whole", async () => {
  const dir = await Deno.makeTempDir();
  const audit = new AuditLog(`${dir}/audit.jsonl`);
  const lineBytes = JSON.stringify(entry(0)).length + 1;
  const total = Math.ceil(MAX_QUEUED_BYTES / lineBytes) * 2;
  for (let i = 0; i < total; i++) audit.append(entry(i % 1_000)); // no turn for the writer
  assert.ok(audit.pending * lineBytes <= MAX_QUEUED_BYTES);
  await audit.close();
  const got = await lines(`${dir}/audit.jsonl`);
  const kept = (await Deno.stat(`${dir}/audit.jsonl`)).size;
  assert.ok(Math.abs(kept - MAX_QUEUED_BYTES) < 2 * lineBytes, `${kept} bytes kept`);
  assert.deepEqual(got.map((e) => e.ms), got.map((_, i) => i % 1_000), "the first lines, in order");
  assert.equal(got.length + audit.dropped, total, "every line written or counted dropped");
  await Deno.remove(dir, { recursive: true });
});

function refusal(op = "read_ui"): AuditEntry {
  return {
    ts: new Date().toISOString(),
    op,
    app: "",
    engine: "none",
    reason: "transport",
    ms: 0,
    outcome: "unauthorized",
  };
}

Deno.test("AuditLog writes 250,000 refusals as the first one and one counted line, between routed ops", async () => {
  const dir = await Deno.makeTempDir();
  const audit = new AuditLog(`${dir}/audit.jsonl`);
  audit.append(entry(1));
  for (let i = 0; i < 250_000; i++) audit.append(refusal(i % 2 ? "read_ui" : "hello"));
  audit.append(entry(2));
  await audit.close();
  const got = await lines(`${dir}/audit.jsonl`);
  assert.equal(got.length, 4, "no line per refusal");
  const refused = got.filter((e) => e.outcome === "unauthorized");
  assert.equal(refused.reduce((n, e) => n + (e.count ?? 1), 0), 250_000, "every one counted");
  assert.deepEqual(refused.map((e) => [e.op, e.count]), [["hello", undefined], ["*", 249_999]]);
  assert.deepEqual(got.filter((e) => e.outcome === "ok").map((e) => e.ms), [1, 2]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("AuditLog writes the refusals of each interval as one line while they keep coming", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/audit.jsonl`;
  const audit = new AuditLog(path, { refusalIntervalMs: 20 });
  const counted = async () =>
    (await Deno.readTextFile(path).catch(() => "")).split("\n").filter((l) => /"count"/.test(l));
  for (let i = 0; i < 5; i++) audit.append(refusal());
  // Written when the interval ends, not only at close.
  const deadline = performance.now() + 5_000;
  while ((await counted()).length === 0 && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.equal(JSON.parse((await counted())[0]!).count, 4);
  audit.append(refusal());
  audit.append(refusal());
  await audit.close();
  const got = await lines(path);
  assert.equal(got.reduce((n, e) => n + (e.count ?? 1), 0), 7);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("AuditLog cuts a torn or unparsable last line when it opens the file", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/audit.jsonl`;
  const good = JSON.stringify(entry(0)) + "\n";
  const original = Deno.stderr.writeSync;
  Deno.stderr.writeSync = (p: Uint8Array) => p.length;
  try {
    // A line a full disk or a crash tore: no newline.
    for (const torn of ['{"ts":"2026-10-1', '{"ts":"2026-10-1{"ts":1}\n', "\n"]) {
      await Deno.writeTextFile(path, good + torn);
      const audit = new AuditLog(path);
      audit.append(entry(1));
      await audit.close();
      assert.deepEqual((await lines(path)).map((e) => e.ms), [0, 1], JSON.stringify(torn));
    }
    // Only the last line is judged, and a whole file is left as it is.
    await Deno.writeTextFile(path, good + good);
    const audit = new AuditLog(path);
    audit.append(entry(1));
    await audit.close();
    assert.deepEqual((await lines(path)).map((e) => e.ms), [0, 0, 1]);
  } finally {
    Deno.stderr.writeSync = original;
  }
  await Deno.remove(dir, { recursive: true });
});
