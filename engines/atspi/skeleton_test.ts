import assert from "node:assert/strict";
import type { AtspiClient, Ref } from "./client.ts";
import {
  cacheTooBig,
  holdsNoObjects,
  readSkeleton,
  type Skeleton,
  skeletonFromCache,
  unexposed,
  windowWithdrawn,
} from "./skeleton.ts";
import { STATE, StateSet } from "./states.ts";
import { buildTree } from "./tree.ts";
import { Known } from "./known.ts";
import type { RawNode } from "../../model/engine.ts";

const BUS = ":1.5";
const SHOWING = [(1 << 25) | (1 << 30), 0];
const FRAME = 23;
const BUTTON = 43;
const LIMITS = { timeoutMs: 1_000 };

/** One cache row: path, parent path, index in parent, child count, role. */
type Row = [path: string, parent: string, index: number, childCount: number, role?: number];

/** An AtspiClient stand-in whose cache answers `rows` and which counts the calls made. */
function fakeClient(rows: Row[]): { client: AtspiClient; calls: () => number } {
  let calls = 0;
  const items = () =>
    rows.map(([path, parent, index, childCount, role = BUTTON]) => [
      [BUS, path],
      [BUS, "/root"],
      [BUS, parent],
      index,
      childCount,
      ["org.a11y.atspi.Accessible"],
      `n${path}`,
      role,
      "",
      SHOWING,
    ]);
  const client = {
    call: (_ref: Ref, _iface: string, member: string) => {
      calls++;
      return Promise.resolve(member === "GetItems" ? [items()] : [[]]);
    },
    children: () => {
      calls++;
      return Promise.resolve([]);
    },
    prop: () => Promise.resolve(1),
    extents: () => Promise.resolve([0, 0, 10, 10]),
  };
  return { client: client as unknown as AtspiClient, calls: () => calls };
}

/** Every node of a RawNode tree, pre-order, without recursion. */
function flatten(root: RawNode): RawNode[] {
  const out: RawNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

async function skeletonOf(rows: Row[]): Promise<Skeleton> {
  return (await skeletonFromCache(fakeClient(rows).client, BUS, LIMITS))!;
}

// Cycles: a cache caught mid-change (widgets being reparented while the app starts) can
// name a node as its own ancestor. Before, the walks followed such loops until the element
// budget ran out: thousands of repeated elements, or a stack overflow.
const CYCLES: Record<string, Row[]> = {
  "a node that is its own parent": [
    ["/w", "/root", 0, 2, FRAME],
    ["/a", "/w", 0, 3],
    ["/a", "/a", 1, 3],
  ],
  "two nodes that are each other's parent": [
    ["/w", "/root", 0, 1, FRAME],
    ["/a", "/w", 0, 2],
    ["/b", "/a", 0, 2],
    ["/a", "/b", 0, 2],
  ],
  "the window under its own child": [
    ["/w", "/root", 0, 1, FRAME],
    ["/a", "/w", 0, 1],
    ["/w", "/a", 0, 1, FRAME],
  ],
  "a node under two parents": [
    ["/w", "/root", 0, 2, FRAME],
    ["/a", "/w", 0, 1],
    ["/b", "/w", 1, 1],
    ["/c", "/a", 0, 0],
    ["/c", "/b", 0, 0],
  ],
};

for (const [name, rows] of Object.entries(CYCLES)) {
  Deno.test(`skeleton: ${name} reads as a tree with every node once`, async () => {
    const { client, calls } = fakeClient(rows);
    const root = { bus: BUS, path: "/w" };
    const skeleton = await readSkeleton(client, root, LIMITS, 20_000);
    const missing = unexposed(skeleton, root, 20_000);
    assert.equal(new Set(missing.map((r) => r.path)).size, missing.length, "asked once each");
    assert.ok(missing.length <= skeleton.size);
    // 64 rounds of (GetChildren per node + GetItems) at most, never thousands of calls.
    assert.ok(calls() <= 1 + 64 * (skeleton.size + 1), `calls: ${calls()}`);
    const tree = await buildTree(client, skeleton, "/w", 5_000, LIMITS);
    assert.ok(tree);
    const handles = flatten(tree.root).map((n) => n.handle);
    assert.equal(new Set(handles).size, handles.length, `duplicates in ${handles}`);
    assert.equal(tree.nodes, handles.length);
    assert.ok(tree.nodes <= skeleton.size);
    assert.equal(tree.truncated, false);
  });
}

Deno.test("skeleton: random parent links, cycles included, always give a bounded tree", async () => {
  let s = 7;
  const next = (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s % n;
  };
  for (let round = 0; round < 200; round++) {
    const n = 2 + next(40);
    const rows: Row[] = [["/w", "/root", 0, 1, FRAME]];
    for (let i = 0; i < n; i++) rows.push([`/n${i}`, next(4) === 0 ? "/w" : `/n${next(n)}`, i, 3]);
    // Some nodes listed twice, under another parent.
    for (let i = 0; i < 3; i++) rows.push([`/n${next(n)}`, `/n${next(n)}`, 0, 3]);
    const skeleton = await skeletonOf(rows);
    const root = { bus: BUS, path: "/w" };
    const missing = unexposed(skeleton, root, 20_000);
    assert.equal(new Set(missing.map((r) => r.path)).size, missing.length);
    const max = 1 + next(n + 2);
    const tree = await buildTree(fakeClient(rows).client, skeleton, "/w", max, LIMITS);
    const handles = flatten(tree!.root).map((h) => h.handle);
    assert.equal(new Set(handles).size, handles.length, `round ${round}`);
    assert.ok(handles.length <= max && handles.length <= skeleton.size, `round ${round}`);
  }
});

Deno.test("skeleton: a very deep chain builds without recursion, in document order", async () => {
  const depth = 30_000;
  const rows: Row[] = [["/w", "/root", 0, 1, FRAME]];
  for (let i = 0; i < depth; i++) rows.push([`/n${i}`, i === 0 ? "/w" : `/n${i - 1}`, 0, 1]);
  rows.push([`/m`, "/w", 1, 0]);
  const skeleton = await skeletonOf(rows);
  const tree = await buildTree(fakeClient(rows).client, skeleton, "/w", 50_000, LIMITS);
  const order = flatten(tree!.root).map((n) => n.handle.split("|")[1]);
  assert.equal(order.length, depth + 2);
  assert.deepEqual(order.slice(0, 3), ["/w", "/n0", "/n1"]);
  assert.equal(order.at(-1), "/m");
  assert.equal(tree!.root.children.length, 2);
});

Deno.test("skeleton: the budget cuts a tree in document order and says so", async () => {
  const rows: Row[] = [
    ["/w", "/root", 0, 2, FRAME],
    ["/a", "/w", 0, 1],
    ["/a1", "/a", 0, 0],
    ["/b", "/w", 1, 0],
  ];
  const skeleton = await skeletonOf(rows);
  const tree = await buildTree(fakeClient(rows).client, skeleton, "/w", 3, LIMITS);
  assert.deepEqual(flatten(tree!.root).map((n) => n.handle.split("|")[1]), ["/w", "/a", "/a1"]);
  assert.equal(tree!.truncated, true);
  const all = await buildTree(fakeClient(rows).client, skeleton, "/w", 4, LIMITS);
  assert.equal(all!.truncated, false);
  assert.equal(all!.nodes, 4);
});

Deno.test("skeleton: a subtree the cache leaves out (Chromium's page) is walked in", async () => {
  // The true tree: /w > /a > [/b, /doc > /text]. The cache lists /w, /a (still counting two
  // children) and /b only, and GetChildren does not make the app cache /doc.
  const truth: Record<string, string[]> = { "/w": ["/a"], "/a": ["/b", "/doc"], "/b": [] };
  truth["/doc"] = ["/text"];
  truth["/text"] = [];
  const rows: Row[] = [["/w", "/root", 0, 1, FRAME], ["/a", "/w", 0, 2], ["/b", "/a", 0, 0]];
  const { client: cached } = fakeClient(rows);
  const walked: string[] = [];
  const client = {
    ...cached,
    call: (ref: Ref, iface: string, member: string, limits: unknown) => {
      if (member === "GetItems") return cached.call(ref, iface, member, limits as typeof LIMITS);
      walked.push(`${member} ${ref.path}`);
      if (member === "GetRole") return Promise.resolve([BUTTON]);
      if (member === "GetState") return Promise.resolve([SHOWING]);
      return Promise.resolve([["org.a11y.atspi.Accessible"]]);
    },
    children: (ref: Ref) =>
      Promise.resolve((truth[ref.path] ?? []).map((path) => ({ bus: BUS, path }))),
    prop: (ref: Ref) => Promise.resolve(`n${ref.path}`),
  } as unknown as AtspiClient;
  const root = { bus: BUS, path: "/w" };
  const skeleton = await readSkeleton(client, root, LIMITS, 20_000);
  assert.deepEqual(skeleton.get("/a")?.children, ["/b", "/doc"]);
  assert.deepEqual(skeleton.get("/doc")?.children, ["/text"]);
  const tree = await buildTree(client, skeleton, "/w", 5_000, LIMITS);
  assert.deepEqual(flatten(tree!.root).map((n) => n.name), [
    "n/w",
    "n/a",
    "n/b",
    "n/doc",
    "n/text",
  ]);
  // Only the missing subtree was walked; the cached nodes cost no per-node calls.
  assert.ok(walked.every((w) => w.endsWith("/doc") || w.endsWith("/text")), walked.join(", "));
});

Deno.test("skeleton: children filed under another parent move to the parent that lists them, unwalked", async () => {
  // /a counts two children; the cache files /c under /w instead. Nothing is missing, but
  // /a's own answer says whose /c is (Chromium filed a page's content elsewhere).
  const rows: Row[] = [["/w", "/root", 0, 2, FRAME], ["/a", "/w", 0, 2], ["/b", "/a", 0, 0], [
    "/c",
    "/w",
    1,
    0,
  ]];
  const { client: cached } = fakeClient(rows);
  let walks = 0;
  const client = {
    ...cached,
    call: (ref: Ref, iface: string, member: string, limits: unknown) => {
      if (member !== "GetItems") walks++;
      return cached.call(ref, iface, member, limits as typeof LIMITS);
    },
    children: (ref: Ref) =>
      Promise.resolve((ref.path === "/a" ? ["/b", "/c"] : []).map((path) => ({ bus: BUS, path }))),
  } as unknown as AtspiClient;
  const skeleton = await readSkeleton(client, { bus: BUS, path: "/w" }, LIMITS, 20_000);
  assert.deepEqual(skeleton.get("/a")?.children, ["/b", "/c"]);
  assert.deepEqual(skeleton.get("/w")?.children, ["/a"]);
  assert.equal(walks, 0);
});

Deno.test("skeleton: a cache far bigger than the window's showing part is walked past", () => {
  assert.equal(cacheTooBig(91, 52), false, "Firefox on a form page");
  assert.equal(cacheTooBig(276, 78), false, "Chromium's browser objects");
  assert.equal(cacheTooBig(6_072, 132), true, "Firefox on a 2,000-row table");
  assert.equal(cacheTooBig(3_000, 400), false, "a window that shows much of its app");
});

/** A Gecko app whose warm-up read `rows` from its cache `age` ms ago, "/a" unnamed then. */
async function warmedUp(rows: Row[], age: number): Promise<Known> {
  const warm = await skeletonOf(rows);
  warm.get("/a")!.name = "";
  const known = new Known();
  known.toolkits.set(BUS, "Gecko");
  known.warm.set(BUS, { skeleton: warm, at: performance.now() - age });
  return known;
}

const PAGE: Row[] = [["/w", "/root", 0, 2, FRAME], ["/a", "/w", 0, 0], ["/b", "/w", 1, 0]];

Deno.test("skeleton: a first read on the warm-up's heels starts from its answer, empty names to ask", async () => {
  const known = await warmedUp(PAGE, 0);
  const { client, calls } = fakeClient(PAGE);
  const skeleton = await readSkeleton(client, { bus: BUS, path: "/w" }, LIMITS, 100, known);
  assert.equal(calls(), 0, "no second GetItems");
  assert.equal(skeleton.get("/a")!.nameUnsure, true, "the name answered before the fill");
  assert.equal(skeleton.get("/b")!.nameUnsure, undefined);
  assert.equal(known.warm.has(BUS), false, "taken once");
});

Deno.test("skeleton: a first read long after the warm-up asks the cache again", async () => {
  const known = await warmedUp(PAGE, 1_000);
  const { client, calls } = fakeClient(PAGE);
  const skeleton = await readSkeleton(client, { bus: BUS, path: "/w" }, LIMITS, 100, known);
  assert.ok(calls() >= 1, "GetItems asked");
  assert.equal(skeleton.get("/a")!.name, "n/a");
  assert.equal(skeleton.get("/a")!.nameUnsure, undefined);
});

Deno.test("skeleton: a name to ask again is asked with the read's other questions", async () => {
  const known = await warmedUp(PAGE, 0);
  const { client } = fakeClient(PAGE);
  const skeleton = await readSkeleton(client, { bus: BUS, path: "/w" }, LIMITS, 100, known);
  const tree = await buildTree(client, skeleton, "/w", 100, LIMITS, undefined, known);
  // The stand-in answers every property with 1.
  assert.deepEqual(tree!.root.children.map((n) => n.name), ["1", "n/b"]);
});

Deno.test("skeleton: a cache with no object but the app's root is no cache (Qt)", async () => {
  assert.equal(holdsNoObjects(undefined), true, "no cache interface");
  assert.equal(holdsNoObjects(await skeletonOf([])), true, "Qt's empty answer");
  assert.equal(holdsNoObjects(new Map([["/org/a11y/atspi/accessible/root", {} as never]])), true);
  assert.equal(holdsNoObjects(await skeletonOf([["/w", "/root", 0, 0, FRAME]])), false);
});

Deno.test("skeleton: a window gone from a GTK 4 cache is walked once, the app stays cached", async () => {
  // The main window is cached; the dialog just closed is not. Its read walks (and finds it
  // gone), but the app's next reads still come from the cache, which alone finds GTK 4's
  // children (a walk asks for SHOWING, which GTK 4 never sets).
  const cases: [Row[], boolean][] = [[[["/w", "/root", 0, 0, FRAME]], false], [[], true]];
  for (const [rows, walkOnly] of cases) {
    const { client } = fakeClient(rows);
    const known = new Known();
    known.toolkits.set(BUS, "GTK");
    await readSkeleton(client, { bus: BUS, path: "/dialog" }, LIMITS, 100, known).catch(() => {});
    assert.equal(known.walkOnly.has(BUS), walkOnly, JSON.stringify(rows));
  }
});

Deno.test("skeleton: a window neither showing, visible nor minimized is withdrawn (Swing)", () => {
  const of = (...states: number[]) => {
    const bits = [0, 0];
    for (const st of states) bits[st >> 5]! |= 1 << (st & 31);
    return new StateSet(bits);
  };
  assert.equal(windowWithdrawn(of(STATE.SHOWING, STATE.VISIBLE)), false, "on screen");
  assert.equal(windowWithdrawn(of(STATE.VISIBLE)), false, "GTK 4: VISIBLE only");
  assert.equal(windowWithdrawn(of(STATE.ICONIFIED)), false, "minimized");
  assert.equal(windowWithdrawn(of(STATE.ENABLED)), true, "a disposed JDialog");
});
