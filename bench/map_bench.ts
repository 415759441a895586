/**
 * Element map benchmark: id hashing, diffs and the memory of kept versions, on a
 * synthetic 5,000-element window (about six levels, mixed roles, repeated names so some
 * twins). Prints one JSON line per figure; each figure is the median of several runs
 * after warm-up.
 *
 * Run: `deno run -A bench/map_bench.ts`. Memory needs V8's `gc()`: without it the script
 * runs itself again with `--v8-flags=--expose-gc` and passes that run's lines through.
 *
 * @module
 */
import { computeIds } from "../map/ids.ts";
import { diff } from "../map/diff.ts";
import { buildSnapshot } from "../map/snapshot.ts";
import { WindowMap } from "../map/window_map.ts";
import { mutated, syntheticWindow } from "../map/_fixtures.ts";
import type { Element } from "../protocol/element.ts";
import type { RawNode } from "../model/engine.ts";

const SIZE = 5000;
const VERSIONS = 8;
// Changes between consecutive reads: about 1% of the window.
const CHANGES = 50;

const gc = (globalThis as { gc?: () => void }).gc;

if (gc === undefined) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", import.meta.filename ?? ""],
    stdout: "inherit",
    stderr: "inherit",
  });
  const { code } = await child.output();
  Deno.exit(code);
}
const collect: () => void = gc;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function time(runs: number, warmup: number, fn: () => unknown): number {
  for (let i = 0; i < warmup; i++) fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

function round(v: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

function print(line: Record<string, unknown>): void {
  // deno-lint-ignore no-console
  console.log(JSON.stringify(line));
}

function heap(): number {
  collect();
  collect();
  return Deno.memoryUsage().heapUsed;
}

const tree = syntheticWindow(SIZE, 1);
print({
  bench: "map: ids for 5,000-element tree",
  figure: round(time(50, 20, () => computeIds(tree))),
  unit: "ms",
});

const next = mutated(tree, CHANGES, 2);
const v1 = buildSnapshot(tree).elements;
const v2 = buildSnapshot(next).elements;
const map = new WindowMap("w", "bench", buildSnapshot(tree));
map.update(buildSnapshot(next));
const s1 = map.at(1)!;
const s2 = map.at(2)!;
const d = diff(v1, v2);
const shared = time(50, 20, () => diff(s1, s2));
print({
  bench: "map: diff of two 5,000-element versions",
  figure: round(time(50, 20, () => diff(v1, v2))),
  unit: "ms",
  note: `two independent reads (no shared objects, every element compared field by field); ` +
    `${d.added.length} added, ${d.changed.length} changed, ${d.removed.length} removed; ` +
    `between stored versions that share unchanged objects: ${round(shared)} ms`,
});

// Memory: the raw trees of 8 reads are held throughout, so deltas count only what the
// map (or the copies) keeps. Fresh trees per run so no run reuses another's objects.
function reads(seed: number): RawNode[] {
  const out = [syntheticWindow(SIZE, seed)];
  for (let i = 1; i < VERSIONS; i++) out.push(mutated(out[i - 1]!, CHANGES, seed * 100 + i));
  return out;
}

// Building happens in functions of its own: a frame still running keeps its temporaries
// (the last snapshot, say) alive through gc(), which would count garbage as kept.
function buildMap(trees: readonly RawNode[]): WindowMap {
  const map = new WindowMap("w", "bench", buildSnapshot(trees[0]!));
  for (const t of trees.slice(1)) map.update(buildSnapshot(t));
  return map;
}

// What a map without sharing would keep: each read's own element list.
function buildCopies(trees: readonly RawNode[]): Element[][] {
  return trees.map((t) => buildSnapshot(t).elements);
}

function sharedSize(trees: readonly RawNode[]): number {
  const before = heap();
  const map = buildMap(trees);
  const after = heap();
  const kept = map.version - map.oldest + 1;
  if (kept !== trees.length) throw new Error(`Expected ${trees.length} versions, kept ${kept}`);
  return (after - before) / 2 ** 20;
}

function copiesSize(trees: readonly RawNode[]): number {
  const before = heap();
  const copies = buildCopies(trees);
  const after = heap();
  if (copies.length !== trees.length) throw new Error(`Expected ${trees.length} copies`);
  return (after - before) / 2 ** 20;
}

const sharedMb: number[] = [];
const firstMb: number[] = [];
const copiesMb: number[] = [];
for (let run = 0; run < 5; run++) {
  const trees = reads(10 + run);
  sharedMb.push(sharedSize(trees));
  firstMb.push(sharedSize(trees.slice(0, 1)));
  copiesMb.push(copiesSize(trees));
}
const figure = median(sharedMb);
const peer = median(copiesMb);
const perVersionKb = ((figure - median(firstMb)) / (VERSIONS - 1)) * 1024;
print({
  bench: "map: memory of 8 versions (shared)",
  figure: round(figure),
  unit: "MB",
  peer: "8 full copies",
  peer_figure: round(peer),
  ratio: round(peer / figure, 2),
  note: `heapUsed after gc() (--expose-gc), median of 5 runs, ${VERSIONS} versions ` +
    `${CHANGES} changes apart; the map's figure includes its id index and handle table, ` +
    `not the raw trees; the peer keeps each read's own element list (buildSnapshot); ` +
    `a map with 1 version: ${round(median(firstMb))} MB, each further version about ` +
    `${Math.round(perVersionKb)} KB against ${round(peer / VERSIONS)} MB per full copy`,
});
