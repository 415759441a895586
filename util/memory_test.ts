import assert from "node:assert/strict";
import { collectGarbage, type Release, type ReleaseOptions, releaseWhenQuiet } from "./memory.ts";

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** A burst of garbage: how much heap it grew while alive. */
function burst(): number {
  const items: { i: number; s: string }[] = [];
  for (let i = 0; i < 300_000; i++) items.push({ i, s: `item ${i}` });
  return Deno.memoryUsage().heapUsed;
}

Deno.test("collectGarbage() runs a full collection: a dropped burst's heap is given back", async () => {
  assert.equal(await collectGarbage(), true, "this runtime lends a gc");
  const base = Deno.memoryUsage().heapUsed;
  const grown = burst() - base;
  await sleep(0);
  await collectGarbage();
  const left = Deno.memoryUsage().heapUsed - base;
  assert.ok(left < grown / 4, `the burst grew the heap ${grown} bytes; ${left} are left`);
});

Deno.test("releaseWhenQuiet() releases once work pauses, and not again while nothing happens", async () => {
  let work = 0;
  let trims = 0;
  const releases: Release[] = [];
  const stop = releaseWhenQuiet({
    activity: () => work,
    trim: () => (trims++, true),
    quietMs: 200,
    busyMs: 60_000,
    onRelease: (r) => releases.push(r),
  });
  try {
    await sleep(400);
    assert.equal(releases.length, 0, "no work yet: nothing to give back");
    work++;
    await sleep(100);
    assert.equal(releases.length, 0, "not before the pause has lasted");
    await sleep(400);
    assert.equal(releases.length, 1);
    assert.equal(releases[0]!.why, "quiet");
    assert.equal(trims, 1, "the C allocator was asked too");
    await sleep(500);
    assert.equal(releases.length, 1, "still quiet: released once");
  } finally {
    stop();
  }
});

/** Runs `body` while a counted load never pauses, with a releaser set by `options`. */
async function underLoad(
  options: Omit<ReleaseOptions, "activity" | "onRelease">,
  body: (releases: Release[]) => Promise<void>,
): Promise<void> {
  let work = 0;
  const releases: Release[] = [];
  const busy = setInterval(() => work++, 20);
  const stop = releaseWhenQuiet({
    ...options,
    activity: () => work,
    onRelease: (r) => releases.push(r),
  });
  try {
    await body(releases);
  } finally {
    clearInterval(busy);
    stop();
  }
}

Deno.test("releaseWhenQuiet() releases under a load that never pauses, every busyMs", async () => {
  await underLoad({ quietMs: 10_000, busyMs: 300 }, async (releases) => {
    await sleep(1_100);
    assert.ok(releases.length >= 2 && releases.length <= 4, `${releases.length} releases`);
    assert.ok(releases.every((r) => r.why === "busy"));
    assert.ok(releases.every((r) => r.before.rss > 0 && r.after.heapTotal > 0 && r.ms >= 0));
  });
});

Deno.test("releaseWhenQuiet() releases a busy process that grew, not one that did not", async () => {
  const options = { quietMs: 10_000, busyMs: 60_000, growthBytes: 16 << 20, minGapMs: 100 };
  await underLoad(options, async (releases) => {
    await sleep(500);
    assert.equal(releases.length, 0, "busy, but not grown");
    // 32 MB touched, so resident: the next tick sees the process grown.
    const held = Array.from({ length: 32 }, () => new Uint8Array(1024 * 1024).fill(1));
    await sleep(400);
    assert.equal(held.length, 32);
    assert.ok(releases.length >= 1, "grown 32 MB: released");
    assert.equal(releases[0]!.why, "grown");
  });
});
