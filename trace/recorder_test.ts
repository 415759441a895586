import assert from "node:assert/strict";
import { TraceRecorder } from "./recorder.ts";
import { loadTrace } from "./viewer/load.ts";

const META = { width: 1, height: 1, scale: 1, origin: { x: 0, y: 0 } };

function line(seq: number, op = "act") {
  return { seq, op, params: {}, start: new Date().toISOString(), ms: 1 };
}

Deno.test("TraceRecorder stores an image once by its hash and writes header, lines, end", async () => {
  const dir = await Deno.makeTempDir({ prefix: "trace_rec_" });
  try {
    const rec = await TraceRecorder.open(dir);
    const png = new Uint8Array([1, 2, 3]);
    const a = await rec.storeImage(png, META, rec.nextSeq());
    const b = await rec.storeImage(png.slice(), META, rec.nextSeq());
    assert.equal(a?.sha, b?.sha);
    assert.equal(a?.sha.length, 64);
    rec.write(line(1));
    rec.write(line(2, "read_ui"));
    const end = await rec.close();
    assert.deepEqual([end.ops, end.images, end.image_bytes, end.images_capped], [2, 1, 3, false]);
    const trace = await loadTrace(dir);
    assert.equal(trace.header?.format, 1);
    assert.deepEqual(trace.ops.map((o) => o.op), ["act", "read_ui"]);
    assert.equal(trace.end?.ops, 2);
    assert.equal([...Deno.readDirSync(`${dir}/images`)].length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("TraceRecorder stops storing images at the cap and says from which op", async () => {
  const dir = await Deno.makeTempDir({ prefix: "trace_cap_" });
  try {
    const rec = await TraceRecorder.open(dir, { maxImageBytes: 5, maxImages: 10, maxWidth: 800 });
    assert.ok(await rec.storeImage(new Uint8Array([1, 2, 3]), META, 1));
    assert.equal(await rec.storeImage(new Uint8Array([4, 5, 6]), META, 2), undefined);
    assert.equal(rec.hasRoom, false);
    assert.equal(await rec.storeImage(new Uint8Array([7]), META, 3), undefined, "none after");
    const end = await rec.close();
    assert.equal(end.images_capped, true);
    assert.equal(end.capped_at, 2);
    assert.equal(end.images, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("TraceRecorder waits for held lines before its end line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "trace_hold_" });
  try {
    const rec = await TraceRecorder.open(dir);
    let finish!: () => void;
    rec.hold(new Promise<void>((ok) => finish = ok).then(() => rec.write(line(1))));
    const closing = rec.close();
    finish();
    assert.equal((await closing).ops, 1);
    assert.equal((await loadTrace(dir)).ops.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("TraceRecorder refuses a folder that holds a trace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "trace_twice_" });
  try {
    await (await TraceRecorder.open(dir)).close();
    await assert.rejects(TraceRecorder.open(dir), /holds a trace already/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
