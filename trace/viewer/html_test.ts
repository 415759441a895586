import assert from "node:assert/strict";
import { TraceRecorder } from "../recorder.ts";
import { inlineImages, viewerHtml } from "./html.ts";
import { loadTrace } from "./load.ts";

Deno.test("viewerHtml keeps app text inside its data block (no </script> breakout)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "trace_html_" });
  try {
    const rec = await TraceRecorder.open(dir);
    const ref = await rec.storeImage(new Uint8Array([137, 80]), {
      width: 1,
      height: 1,
      scale: 1,
      origin: { x: 0, y: 0 },
    }, 1);
    rec.write({
      seq: rec.nextSeq(),
      op: "read_ui",
      params: {},
      answer: { window: "w1", elements: [{ id: "a", name: "</script><script>alert(1)</script>" }] },
      start: "2026-01-01T00:00:00.000Z",
      ms: 3,
      images: { after: ref! },
    });
    await rec.close();
    const trace = await loadTrace(dir);
    const html = viewerHtml(trace, await inlineImages(trace));
    assert.equal(html.match(/<script/g)?.length, 2, "only the page's own two script tags");
    assert.match(html, /data:image\/png;base64,iVA=/);
    assert.ok(!/https?:\/\/(?!www\.w3)/.test(html), "nothing fetched from the network");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadTrace skips a last line cut short and sorts ops by seq", async () => {
  const dir = await Deno.makeTempDir({ prefix: "trace_load_" });
  try {
    await Deno.writeTextFile(
      `${dir}/trace.jsonl`,
      '{"seq":2,"op":"act","params":{},"start":"","ms":1}\n' +
        '{"seq":1,"op":"read_ui","params":{},"start":"","ms":1}\n{"seq":3,"op":"ac',
    );
    const trace = await loadTrace(dir);
    assert.deepEqual(trace.ops.map((o) => o.op), ["read_ui", "act"]);
    assert.equal(trace.skipped, 1);
    assert.equal(trace.end, undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
