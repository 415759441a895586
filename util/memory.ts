/**
 * Memory given back after a burst. V8 keeps the heap it grew to and collects the old
 * generation only when allocation pushes it, so a driver that served a burst of reads
 * and then went quiet held its peak for as long as nothing allocated (issue 48's soak:
 * 52 MB of heap kept for 20 MB in use). The C allocator does the same with the native
 * buffers FFI calls and D-Bus messages freed.
 *
 * {@link releaseWhenQuiet} watches a count of requests: once it has moved and then stood
 * still for a while, it runs one full collection and asks the C library to return what it
 * holds free. Under a load that never pauses it does so whenever the resident set has
 * grown by a few MB since the last time, and at least once a minute: a 10-minute churn
 * soak grew about 0.3 MB a second, and each release (30-60 ms) gave back 12-16 MB.
 *
 * @module
 */
let gc: (() => void) | null | undefined;

/**
 * Runs a full, compacting garbage collection; false where the runtime refuses to expose
 * one. V8 hands out `gc` only under `--expose-gc`, which can be set at run time for
 * contexts made later: one such context lends its `gc` (a collection is process-wide).
 * `node:v8` and `node:vm` are loaded at the first call, not at start: together they cost
 * every command that assembles a driver about 40 ms and 2 MB, and a one-shot `call` never
 * collects.
 */
export async function collectGarbage(): Promise<boolean> {
  if (gc === undefined) {
    try {
      const [{ default: v8 }, { default: vm }] = await Promise.all([
        import("node:v8"),
        import("node:vm"),
      ]);
      v8.setFlagsFromString("--expose-gc");
      const found: unknown = vm.runInNewContext("gc");
      gc = typeof found === "function" ? found as () => void : null;
    } catch {
      gc = null;
    }
  }
  if (!gc) return false;
  gc();
  return true;
}

/** {@link releaseWhenQuiet}'s settings. */
export interface ReleaseOptions {
  /** A number that moves with the work done (requests handled). */
  activity: () => number;
  /** Gives the C allocator's free memory back; false if it cannot. */
  trim?: () => boolean;
  /** Still this long after work: release (ms). */
  quietMs?: number;
  /** Busy this long without a pause: release anyway (ms). */
  busyMs?: number;
  /** Grown this much since the last release, while busy: release now (bytes). */
  growthBytes?: number;
  /** Never release sooner than this after the last release (ms). */
  minGapMs?: number;
  /** Told after each release, with what it took. */
  onRelease?: (release: Release) => void;
}

/** What one release did. */
export interface Release {
  /** Why now: the work paused, went on for `busyMs`, or grew the process `growthBytes`. */
  why: "quiet" | "busy" | "grown";
  /** The process's memory before and after (bytes). */
  before: Deno.MemoryUsage;
  after: Deno.MemoryUsage;
  /** How long the collection and the trim took (ms). */
  ms: number;
}

/** Default quiet time before memory is given back (ms). */
export const QUIET_MS = 10_000;
/** Default time between releases under a load that never pauses (ms). */
export const BUSY_MS = 60_000;
/** Default growth of the resident set that makes a busy process release (bytes). */
export const GROWTH_BYTES = 6 * 1024 * 1024;
/** Default least time between two releases (ms). */
export const MIN_GAP_MS = 2_000;

/**
 * Releases memory once the work counted by `activity` pauses for `quietMs`; while it does
 * not, when the resident set grew `growthBytes` since the last release (`minGapMs` apart)
 * and every `busyMs`; never while nothing happened since the last release. Answers a
 * function that stops it. The timer does not keep the process alive.
 */
export function releaseWhenQuiet(options: ReleaseOptions): () => void {
  const quietMs = options.quietMs ?? QUIET_MS;
  const busyMs = options.busyMs ?? BUSY_MS;
  const growth = options.growthBytes ?? GROWTH_BYTES;
  const gapMs = options.minGapMs ?? MIN_GAP_MS;
  const tick = Math.max(50, Math.min(quietMs, busyMs, gapMs) / 4);
  let released = options.activity();
  let seen = released;
  let movedAt = performance.now();
  let releasedAt = movedAt;
  let floor = Deno.memoryUsage().rss;
  let releasing = false;
  const release = async (why: Release["why"], count: number) => {
    const before = Deno.memoryUsage();
    const t0 = performance.now();
    try {
      await collectGarbage();
      options.trim?.();
    } finally {
      releasedAt = performance.now();
      released = count;
      releasing = false;
    }
    const after = Deno.memoryUsage();
    floor = after.rss;
    options.onRelease?.({ why, before, after, ms: releasedAt - t0 });
  };
  const timer = setInterval(() => {
    const now = performance.now();
    const count = options.activity();
    if (count !== seen) {
      seen = count;
      movedAt = now;
    }
    if (count === released || releasing) return;
    const why = now - movedAt >= quietMs
      ? "quiet"
      : now - releasedAt >= busyMs
      ? "busy"
      : now - releasedAt >= gapMs && Deno.memoryUsage().rss - floor >= growth
      ? "grown"
      : null;
    if (!why) return;
    releasing = true;
    release(why, count).catch(() => {});
  }, tick);
  Deno.unrefTimer(timer);
  return () => clearInterval(timer);
}
