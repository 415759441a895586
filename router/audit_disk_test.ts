/**
 * The audit log on a really full disk: a 64 KiB tmpfs mounted for the test (mount(2) through
 * libc, so root is needed; CI runs as root).
 */
import assert from "node:assert/strict";
import { type AuditEntry, AuditLog } from "./audit.ts";

const enc = new TextEncoder();
const cstr = (s: string) => enc.encode(s + "\0");

/** Mounts a tmpfs of `size` on `dir`; returns its unmount. */
function mountTmpfs(dir: string, size: string): () => void {
  const libc = Deno.dlopen("libc.so.6", {
    // int mount(const char *source, const char *target, const char *type,
    //           unsigned long flags, const void *data)
    mount: { parameters: ["buffer", "buffer", "buffer", "usize", "buffer"], result: "i32" },
    // int umount2(const char *target, int flags)
    umount2: { parameters: ["buffer", "i32"], result: "i32" },
  });
  const rc = libc.symbols.mount(
    cstr("tmpfs"),
    cstr(dir),
    cstr("tmpfs"),
    0n,
    cstr(`size=${size},mode=0700`),
  );
  if (rc !== 0) {
    libc.close();
    throw new Error(`Cannot mount a tmpfs on "${dir}": this test needs root (CI runs as root)`);
  }
  return () => {
    libc.symbols.umount2(cstr(dir), 2 /* MNT_DETACH */);
    libc.close();
  };
}

function entry(seq: number): AuditEntry {
  return {
    ts: new Date(Date.UTC(2026, 11, 7, 0, 0, 0, seq)).toISOString(),
    op: "read_ui",
    // Lengths vary so the disk fills up in the middle of a line, not between two.
    app: "Notes".repeat(1 + (seq % 7)),
    engine: "atspi",
    reason: "default",
    ms: seq,
    outcome: "ok",
  };
}

Deno.test({
  name:
    "AuditLog on a full disk: every line whole or absent, none glued, and the drops counted right",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const dir = await Deno.makeTempDir();
    const unmount = mountTmpfs(dir, "64k");
    const logged: string[] = [];
    const original = Deno.stderr.writeSync;
    Deno.stderr.writeSync = (p: Uint8Array) => (logged.push(new TextDecoder().decode(p)), p.length);
    try {
      // Filler takes part of the disk now and is removed later, to make room again.
      await Deno.writeFile(`${dir}/filler`, new Uint8Array(24 * 1024));
      const path = `${dir}/audit.jsonl`;
      const audit = new AuditLog(path);
      let seq = 0;
      const full = () => logged.some((l) => /Cannot write the audit log/.test(l));
      // Small batches: many writes, so some stop in the middle of a line. Then more after
      // the disk is full, as a driver keeps serving.
      for (let more = 30; more > 0; more -= full() ? 1 : 0) {
        for (let i = 0; i < 7; i++) audit.append(entry(seq++));
        await audit.flush();
        assert.ok(seq < 100_000, "the disk never filled");
      }
      await Deno.remove(`${dir}/filler`);
      for (let i = 0; i < 20; i++) audit.append(entry(seq++));
      await audit.close();

      const text = await Deno.readTextFile(path);
      assert.ok(text.endsWith("\n"), "the file ends with a whole line");
      const kept = text.slice(0, -1).split("\n").map((l) => JSON.parse(l) as AuditEntry);
      assert.deepEqual(kept.at(-1), entry(seq - 1), "lines written once room came back");
      for (const e of kept) assert.deepEqual(e, entry(e.ms), "a line whole, nothing glued on");
      assert.equal(new Set(kept.map((e) => e.ms)).size, kept.length);
      assert.equal(kept.length + audit.dropped, seq, "each line written or counted dropped");
      const back = logged.map((l) => JSON.parse(l)).find((l) => l.msg === "Audit log writes again");
      assert.equal(back?.dropped, audit.dropped, "the log says how many were dropped");
    } finally {
      Deno.stderr.writeSync = original;
      unmount();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
